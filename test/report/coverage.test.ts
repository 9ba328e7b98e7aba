import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/engine/types.ts';
import { buildReport } from '../../src/report/build.ts';
import { computeCoverage } from '../../src/report/coverage.ts';
import { catalogue, errorResult, failResult, makeCatalogue, makeReport, makeRun, passResult, results, skipResult, warnResult } from './fixtures.ts';

describe('computeCoverage', () => {
  it('reaches every coverage status', () => {
    const cov = computeCoverage(results, catalogue);
    const status = Object.fromEntries(Object.entries(cov.requirements).map(([id, e]) => [id, e.status]));
    expect(status).toEqual({
      'COMP-STOP-01': 'failed',
      'COMP-SHAPE-01': 'passed',
      'ERR-STATUS-01': 'warned',
      'COMP-LOGPROBS-01': 'skipped',
      'COMP-ECHO-01': 'errored',
      'MOD-LIST-01': 'passed',
      'COMP-USAGE-01': 'not-exercised',
      'COMP-BILLING-01': 'untestable',
    });
    expect(cov.totals).toEqual({
      passed: 2,
      failed: 1,
      warned: 1,
      skipped: 1,
      errored: 1,
      blocked: 0,
      'not-exercised': 1,
      untestable: 1,
      requirements: 8,
      testable: 7,
      exercised: 5,
    });
  });

  it('counts results per status and keeps reasons', () => {
    const cov = computeCoverage(results, catalogue);
    expect(cov.requirements['COMP-STOP-01']).toMatchObject({ pass: 1, fail: 1, warn: 0, skip: 0, error: 0 });
    expect(cov.requirements['COMP-LOGPROBS-01']).toMatchObject({ skip: 1, reason: 'target does not claim logprobs' });
    expect(cov.requirements['COMP-BILLING-01']).toMatchObject({ reason: 'billing is not observable', severity: 'untestable' });
    expect(cov.requirements['COMP-USAGE-01']).not.toHaveProperty('reason');
  });

  it('applies precedence fail > error > warn > pass > skip', () => {
    const cat = makeCatalogue([{ id: 'R' }]);
    const mk = (status: CheckResult['status'], message: string = status): CheckResult => (status === 'blocked' ? { ...passResult, requirements: ['R'], status, message, blockedBy: { suite: 's', case: 'c', check: 'status' } } : { ...passResult, requirements: ['R'], status, message });
    const of = (...s: CheckResult['status'][]) => computeCoverage(s.map((x) => mk(x)), cat).requirements.R?.status;
    expect(of('pass', 'skip', 'warn', 'error', 'fail')).toBe('failed');
    expect(of('pass', 'skip', 'warn', 'error')).toBe('errored');
    expect(of('pass', 'skip', 'warn')).toBe('warned');
    expect(of('skip', 'pass')).toBe('passed');
    expect(of('skip', 'skip')).toBe('skipped');
    expect(of()).toBe('not-exercised');
    const first = computeCoverage([mk('skip', 'first'), mk('skip', 'second')], cat).requirements.R;
    expect(first?.reason).toBe('first');
  });

  it('untestable wins even when results cite it, and unknown IDs are ignored', () => {
    const cat = makeCatalogue([{ id: 'U', severity: 'untestable', reason: 'no' }]);
    const cov = computeCoverage([{ ...failResult, requirements: ['U', 'NOPE'] }], cat);
    expect(cov.requirements.U?.status).toBe('untestable');
    expect(cov.requirements).not.toHaveProperty('NOPE');
    expect(cov.totals.testable).toBe(0);
  });
});

describe('buildReport', () => {
  it('summarises counts and fails the run on a must failure', () => {
    const r = makeReport();
    expect(r.summary).toEqual({ passed: 2, failed: 1, warnings: 1, skipped: 1, errors: 1, blocked: 0, notExercised: 0, total: 6 });
    expect(r.verdict).toBe('fail');
    expect(r.version).toBe(1);
    expect(r.startedAt).toBe('2024-05-01T12:00:00.000Z');
    expect(r.seed).toBe(42);
  });

  it('warnings and skips never fail the run; errors do', () => {
    expect(makeReport(makeRun({ results: [passResult, warnResult, skipResult] })).verdict).toBe('pass');
    expect(makeReport(makeRun({ results: [passResult, errorResult] })).verdict).toBe('fail');
    // Interrupted: no pass (it did not all run), and no failure of the target unless one was seen.
    expect(makeReport(makeRun({ results: [passResult], interrupted: true })).verdict).toBe('error');
    expect(makeReport(makeRun({ results: [passResult, errorResult], interrupted: true })).verdict).toBe('fail');
    expect(makeReport(makeRun({ results: [] })).verdict).toBe('pass');
  });

  it('embeds coverage computed from the catalogue', () => {
    const run = makeRun();
    const r = buildReport(run, { tool: { name: 't', version: '1' }, spec: 's', target: { baseUrl: 'u', transport: 'live', models: {}, areas: [] }, startedAt: new Date(0) }, catalogue);
    expect(r.coverage).toEqual(computeCoverage(run.results, catalogue));
  });
});
