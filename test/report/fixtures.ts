// Hand-built results for the reporter tests: a completions suite with a fail, a warn, a skip and an error.

import type { Catalogue, Requirement } from '../../src/catalogue/types.ts';
import type { CheckResult, RunResult, SuiteOutcome } from '../../src/engine/types.ts';
import type { JudgedResult } from '../../src/judge/results.ts';
import { buildReport } from '../../src/report/build.ts';
import type { Report } from '../../src/report/types.ts';

export function makeCatalogue(reqs: Partial<Requirement>[] | Requirement[]): Catalogue {
  const list: Requirement[] = reqs.map((r) => ({
    id: r.id ?? 'X',
    area: r.area ?? 'completions',
    severity: r.severity ?? 'must',
    section: r.section ?? '§1',
    text: r.text ?? 'The server MUST do the thing.',
    statement: r.statement ?? 'the thing is observed',
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
  }));
  return { file: 'suites/requirements.yaml', byId: new Map(list.map((r) => [r.id, r])), list };
}

export const catalogue = makeCatalogue([
  { id: 'COMP-STOP-01', area: 'completions', severity: 'must' },
  { id: 'COMP-SHAPE-01', area: 'completions', severity: 'must' },
  { id: 'ERR-STATUS-01', area: 'errors', severity: 'should' },
  { id: 'COMP-LOGPROBS-01', area: 'completions', severity: 'must' },
  { id: 'COMP-ECHO-01', area: 'completions', severity: 'must' },
  { id: 'MOD-LIST-01', area: 'models', severity: 'must' },
  { id: 'COMP-USAGE-01', area: 'completions', severity: 'must' },
  { id: 'COMP-BILLING-01', area: 'completions', severity: 'untestable', reason: 'billing is not observable' },
]);

const request = {
  method: 'POST' as const,
  url: 'http://localhost:8080/v1/completions',
  headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
  body: { kind: 'json' as const, value: { model: 'text-davinci-003', prompt: 'Count: 1, 2, 3,', stop: [' 5'], max_tokens: 16 } },
};

export const failResult: JudgedResult = {
  suite: 'completions',
  case: 'stop-basic',
  caseTitle: 'stop sequence is excluded from the text',
  check: 'stop_sequence_excluded',
  requirements: ['COMP-STOP-01'],
  severity: 'must',
  status: 'fail',
  message: 'the returned text contains the stop sequence',
  findings: [
    { pointer: '/choices/0/text', message: 'text contains stop sequence " 5"', expected: 'text without " 5"', actual: ' 4, 5, 6' },
  ],
  request,
  response: { status: 200, contentType: 'application/json', excerpt: '{"id":"cmpl-1","object":"text_completion","choices":[{"text":" 4, 5, 6","index":0}]}' },
  reproduce: 'npx conformance run --suite completions --case stop-basic --seed 42',
  source: 'suites/completions.yaml:42:5',
};

export const warnResult: JudgedResult = {
  suite: 'completions',
  case: 'unknown-model',
  caseTitle: 'an unknown model is rejected',
  check: 'error_status_code',
  requirements: ['ERR-STATUS-01'],
  severity: 'should',
  status: 'warn',
  message: 'expected 404 for an unknown model, got 400',
  findings: [{ pointer: '', message: 'status code', expected: 404, actual: 400 }],
  request: { ...request, body: { kind: 'json', value: { model: 'no-such-model', prompt: 'hi' } } },
  response: { status: 400, contentType: 'application/json', excerpt: '{"error":{"message":"model not found"}}' },
  reproduce: 'npx conformance run --suite completions --case unknown-model',
};

export const skipResult: JudgedResult = {
  suite: 'completions',
  case: 'logprobs',
  caseTitle: 'logprobs are returned',
  check: 'logprobs_shape',
  requirements: ['COMP-LOGPROBS-01'],
  severity: 'must',
  status: 'skip',
  message: 'target does not claim logprobs',
};

export const errorResult: JudgedResult = {
  suite: 'completions',
  case: 'echo',
  caseTitle: 'echo returns the prompt',
  check: 'echo_prefix',
  requirements: ['COMP-ECHO-01'],
  severity: 'must',
  status: 'error',
  message: 'check threw: TypeError: cannot read properties of undefined (reading "text")',
  request,
  response: { error: 'socket hang up' },
  reproduce: 'npx conformance run --suite completions --case echo',
};

export const passResult: JudgedResult = {
  suite: 'completions',
  case: 'stop-basic',
  caseTitle: 'stop sequence is excluded from the text',
  check: 'schema',
  requirements: ['COMP-SHAPE-01', 'COMP-STOP-01'],
  severity: 'must',
  status: 'pass',
  message: 'matches completion.schema.json',
};

export const modelsPass: CheckResult = {
  suite: 'models',
  case: 'list',
  caseTitle: 'models are listed',
  check: 'status',
  requirements: ['MOD-LIST-01'],
  severity: 'must',
  status: 'pass',
  message: 'status 200',
};

export const suites: SuiteOutcome[] = [
  { suite: 'completions', area: 'completions', file: 'suites/completions.yaml', durationMs: 1234, counts: { pass: 1, fail: 1, warn: 1, skip: 1, error: 1, blocked: 0, 'not-exercised': 0 } },
  { suite: 'models', area: 'models', file: 'suites/models.yaml', durationMs: 87, counts: { pass: 1, fail: 0, warn: 0, skip: 0, error: 0, blocked: 0, 'not-exercised': 0 } },
];

export const results: CheckResult[] = [passResult, failResult, warnResult, skipResult, errorResult, modelsPass];

export function makeRun(overrides: Partial<RunResult> = {}): RunResult {
  return { results, suites, durationMs: 1400, interrupted: false, seed: 42, problems: [], ...overrides };
}

export function makeReport(run: RunResult = makeRun()): Report {
  return buildReport(
    run,
    {
      tool: { name: 'model-api-conformance', version: '0.1.0' },
      spec: 'model-api v1',
      target: { baseUrl: 'http://localhost:8080', transport: 'replay', models: { completion: 'text-davinci-003' }, areas: ['completions', 'models'] },
      startedAt: new Date('2024-05-01T12:00:00Z'),
    },
    catalogue,
  );
}
