// The fuzz suites: one programmatic suite per area (`fuzz-completions`, `fuzz-images`, …) so areas the target
// does not claim are skipped like YAML suites. `--suite fuzz` selects all of them (src/cli/suite-selection.ts).

import type { ProgrammaticContext, ProgrammaticSuite } from '../engine/programmatic.ts';
import { buildRequest } from '../engine/request.ts';
import { RESOURCES } from '../engine/resources.ts';
import type { CheckResult } from '../engine/types.ts';
import { contextLengthOf } from '../profile/profile.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { Area, RequestSpec } from '../suite/types.ts';
import { createEnv, runCase, type FuzzEnv } from './execute.ts';
import { ENDPOINTS, type EndpointId } from './limits.ts';
import { BASELINES } from './baseline.ts';
import { responseExcerpt } from '../judge/excerpt.ts';
import { buildProperties, type FuzzProperty } from './properties.ts';
import { runProperty, type RunPropertyOptions } from './runner.ts';
import { AREAS_WITH_LIMITS, FUZZ_SUITE } from './names.ts';

export { DEFAULT_FUZZ_BUDGET_MS, DEFAULT_FUZZ_RUNS, FUZZ_SUITE, FUZZ_SUITE_NAMES } from './names.ts';

export interface FuzzOptions extends RunPropertyOptions {
  /** Properties run at once within a suite (each property's cases are sequential). */
  concurrency?: number;
}

/** The properties a target can be judged by: those at the context boundary need the model's known context length. */
export function propertiesFor(profile: TargetProfile): FuzzProperty[] {
  const completion = contextLengthOf(profile, profile.models.completion);
  const chat = contextLengthOf(profile, profile.models.chat);
  const unknown = new Set([...(completion === undefined ? ['completions.max_tokens'] : []), ...(chat === undefined ? ['chat.max_tokens'] : [])]);
  return buildProperties({ contextLength: { completion: completion ?? 0, chat: chat ?? 0 } }).filter((p) => !unknown.has(p.name.replace(/\.(accept|reject)$/, '')));
}

/** `--grep` selects properties by name: an exact name selects only that property, otherwise a substring. */
export function selectProperties(all: FuzzProperty[], filter: ProgrammaticContext['filter'], suiteName: string): FuzzProperty[] {
  if (filter?.tags?.length && !filter.tags.some((t) => t === FUZZ_SUITE || t === suiteName)) return [];
  const g = filter?.grep?.toLowerCase();
  if (!g) return all;
  const exact = all.filter((p) => p.name.toLowerCase() === g);
  return exact.length ? exact : all.filter((p) => p.name.toLowerCase().includes(g) || p.title.toLowerCase().includes(g));
}


export function fuzzSuites(opts: FuzzOptions): ProgrammaticSuite[] {
  // What the shards balance: the requests an area sends, its properties' runs (fine-tune ones are capped), each
  // property at most what its time budget lets through against a live target (~16 requests of 0.3 s in 5 s). A
  // flat weight put fuzz-images (45 s against the reference server) and fuzz-files (4 s) level.
  const all = buildProperties({ contextLength: { completion: 2049, chat: 4096 } });
  const cost = (area: Area) => all.filter((p) => p.area === area).reduce((sum, p) => sum + 1 + Math.min(opts.runs, p.maxRuns ?? Infinity, 16), 0);
  return AREAS_WITH_LIMITS.map((area) => ({
    name: `${FUZZ_SUITE}-${area}`,
    area,
    tags: [FUZZ_SUITE],
    cost: cost(area),
    selects: (filter, profile) => selectProperties(propertiesFor(profile).filter((p) => p.area === area), filter, `${FUZZ_SUITE}-${area}`).length > 0,
    run: (ctx) => runArea(area, ctx, opts),
  }));
}

async function runArea(area: Area, ctx: ProgrammaticContext, opts: FuzzOptions): Promise<void> {
  const suiteName = `${FUZZ_SUITE}-${area}`;
  const props = selectProperties(propertiesFor(ctx.profile).filter((p) => p.area === area), ctx.filter, suiteName);
  if (props.length === 0) return;
  const timeoutMs = Math.max(1, Math.min(ctx.profile.timeouts.requestMs, opts.budgetMs));
  const env = createEnv({ transport: ctx.transport, profile: ctx.profile, registry: ctx.registry, schemas: ctx.schemas, seed: ctx.seed, timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  const needsFiles = props.some((p) => ENDPOINTS[p.endpoint].needs === 'training-files');
  let uploaded: string[] = [];
  try {
    if (needsFiles) {
      const setup = await setUpTrainingFiles(env);
      uploaded = setup.ids;
      if (setup.error) {
        // The target refused the training files: one failure of the upload rule, and the properties that needed them are blocked.
        const root: CheckResult = { suite: suiteName, case: 'fine-tunes.setup', caseTitle: 'upload the training files the fine-tune properties use', check: 'setup', requirements: ['FILE-UPLOAD'], severity: 'must', status: setup.answered ? 'fail' : 'error', message: `set-up failed: ${setup.error}`, source: 'src/fuzz/suite.ts (setUpTrainingFiles)' };
        ctx.emitCase(root.case, [root]);
        for (const p of props) ctx.emitCase(p.name, [{ ...setupError(p, setup.error), status: 'blocked', message: `blocked by setup of ${root.case}: ${setup.error}`, blockedBy: { suite: suiteName, case: root.case, check: 'setup' } }]);
        return;
      }
    }
    const baselines = await checkBaselines(env, props, ctx);
    const runnable = props.filter((p) => !baselines.blocks(p));
    for (const p of props) { const r = baselines.blocks(p); if (r) ctx.emitCase(p.name, [r]); }
    await runAll(runnable, opts.concurrency ?? 1, (p) => runProperty(env, p, opts).then((o) => o.result), (p, r) => ctx.emitCase(p.name, [r]));
  } finally {
    for (const id of uploaded) await send(env, RESOURCES.file.undo(id));
  }
}

/**
 * Send each endpoint's base request once, before its properties (see baseline.ts): a refused base request
 * blocks every property of the endpoint, a misshapen answer blocks its accept properties.
 */
async function checkBaselines(env: FuzzEnv, props: FuzzProperty[], ctx: ProgrammaticContext): Promise<{ blocks(p: FuzzProperty): CheckResult | undefined }> {
  const roots = new Map<EndpointId, { result: CheckResult; refused: boolean }>();
  for (const endpoint of [...new Set(props.map((p) => p.endpoint))]) {
    if (env.signal?.aborted) break;
    const first = props.find((p) => p.endpoint === endpoint)!;
    const rules = BASELINES[endpoint];
    const probe: FuzzProperty = {
      ...first, name: `${endpoint}.baseline`, title: `${endpoint}: the base request of its fuzz properties is accepted with a valid answer`,
      expect: 'accept', requirements: [rules.operation], severity: 'must', side: { ...first.side, patches: () => [] },
    };
    const outcome = await runCase(env, probe, undefined);
    if (outcome.aborted) break;
    const status = outcome.status;
    const refused = status === undefined || status < 200 || status >= 300;
    const suite = `${FUZZ_SUITE}-${first.area}`;
    const result: CheckResult = {
      suite, case: probe.name, caseTitle: probe.title, check: 'baseline', severity: 'must', source: `src/fuzz/limits.ts (${endpoint})`,
      requirements: outcome.ok || refused ? [rules.operation] : (outcome.cites ?? [rules.resource]),
      status: outcome.ok ? 'pass' : outcome.buildError ? 'error' : 'fail',
      message: outcome.ok ? `the base request was accepted with a valid answer (${status})` : outcome.problems[0]?.message ?? 'the base request failed',
      ...(outcome.ok ? {} : { findings: outcome.problems }),
      ...(outcome.exchange && !outcome.ok ? { request: outcome.exchange.request, response: responseExcerpt(outcome.exchange) } : {}),
    };
    // No answer within the fuzz cap: nothing judged (its properties say for themselves what they could judge).
    if (outcome.unanswered !== undefined) {
      ctx.emitCase(probe.name, [{ suite, case: probe.name, caseTitle: probe.title, check: 'baseline', severity: 'must', source: result.source, requirements: [rules.operation], status: 'skip', message: `not judged: the base request got no answer in time: ${outcome.unanswered}` }]);
      continue;
    }
    ctx.emitCase(probe.name, [result]);
    if (!outcome.ok) roots.set(endpoint, { result, refused });
  }
  return {
    blocks(p) {
      const root = roots.get(p.endpoint);
      if (!root || (p.expect === 'reject' && !root.refused)) return undefined;
      const why = root.refused ? 'the endpoint refused its base request, so no parameter value can be judged' : 'the answer to the base request already has the wrong shape';
      return {
        suite: root.result.suite, case: p.name, caseTitle: p.title, check: 'fuzz', requirements: p.requirements, severity: p.severity, status: 'blocked',
        message: `blocked by baseline of ${root.result.case}: ${why}`, blockedBy: { suite: root.result.suite, case: root.result.case, check: 'baseline' }, source: `src/fuzz/limits.ts (${p.name})`,
      };
    },
  };
}

/** Runs with bounded concurrency; results are emitted in property order. */
async function runAll<T, R>(items: T[], concurrency: number, run: (item: T) => Promise<R>, emit: (item: T, r: R) => void): Promise<void> {
  const results = new Array<R | undefined>(items.length);
  let next = 0;
  let emitted = 0;
  const flush = () => {
    while (emitted < items.length && results[emitted] !== undefined) {
      emit(items[emitted]!, results[emitted]!);
      emitted++;
    }
  };
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]!);
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  flush();
}

function setupError(p: FuzzProperty, message: string): CheckResult {
  return { suite: `${FUZZ_SUITE}-${p.area}`, case: p.name, caseTitle: p.title, check: 'fuzz', requirements: p.requirements, severity: p.severity, status: 'error', message: `set-up failed: ${message}` };
}

async function send(env: FuzzEnv, spec: RequestSpec) {
  return env.transport.send(buildRequest(spec, env.profile, 'fuzz/setup').outgoing, { timeoutMs: env.profile.timeouts.requestMs, ...(env.signal ? { signal: env.signal } : {}) });
}

/** Uploads disjoint training and validation files (JSONL, purpose fine-tune) and sets `fuzz.training_file` / `fuzz.validation_file`. */
export async function setUpTrainingFiles(env: FuzzEnv): Promise<{ ids: string[]; error?: string; answered?: boolean }> {
  const ids: string[] = [];
  for (const [name, offset] of [['train', 0], ['valid', 100]] as const) {
    const lines = Array.from({ length: 12 }, (_, i) => ({ prompt: `example ${offset + i} ->`, completion: i % 2 ? ' yes\n' : ' no\n' }));
    const ex = await send(env, { method: 'POST', path: '/v1/files', multipart: { fields: { purpose: 'fine-tune' }, files: [{ field: 'file', filename: `fuzz-${name}.jsonl`, jsonl: lines }] } });
    const id = (ex.response?.json as { id?: unknown } | undefined)?.id;
    if (!ex.response || ex.response.status >= 300 || typeof id !== 'string') {
      return { ids, error: `uploading the ${name} file answered ${ex.response?.status ?? ex.error?.message ?? 'nothing'}`, answered: ex.response !== undefined };
    }
    ids.push(id);
  }
  env.scope.fuzz = { training_file: ids[0], validation_file: ids[1] };
  return { ids };
}

