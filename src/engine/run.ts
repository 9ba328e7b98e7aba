// plan × transport → events and results. The engine returns data; only the CLI prints.

import type { CheckRegistry } from '../checks/registry.ts';
import type { CheckContext, PlannedRequestView } from '../checks/types.ts';
import { statusMatches } from '../checks/expectations.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { TargetProfile } from '../profile/types.ts';
import { ROLES } from '../profile/types.ts';
import { contextLengthOf } from '../profile/profile.ts';
import { render, referencedNames, TemplateError, type Scope } from '../suite/template.ts';
import type { CaseSpec, CheckUse, PollSpec, RequestSpec, SuitePlan } from '../suite/types.ts';
import type { Exchange, OutgoingRequest, Transport } from '../transport/types.ts';
import { resolvePointer, resolveWildcard } from '../util/pointer.ts';
import { buildRequest, RequestBuildError } from './request.ts';
import { builtinCitation, evaluateCase, feedStreamFolds, skippedCase, startStreamFolds, type CaseIdentity, type SeverityOf, type StreamFold } from './evaluate.ts';
import { ResourceLedger } from './ledger.ts';
import { emptyCounts, type CheckResult, type ResultStatus, type RunListener, type RunResult, type SuiteOutcome } from './types.ts';
import type { ProgrammaticSuite } from './programmatic.ts';

export interface CaseFilter {
  grep?: string;
  tags?: string[];
}

export interface EngineOptions {
  plans: SuitePlan[];
  transport: Transport;
  profile: TargetProfile;
  registry: CheckRegistry;
  schemas: SchemaRegistry;
  seed: number;
  filter?: CaseFilter;
  listener?: RunListener;
  signal?: AbortSignal;
  /** Builds the command line that reruns one case. */
  reproduce: (suite: string, caseId: string) => string;
  /** Extra data recorders store with each suite (e.g. tool version). */
  suiteMeta?: Record<string, unknown>;
  /** Severity of catalogue requirements: built-in expectations of a case citing only `should` IDs are warnings. */
  severityOf?: SeverityOf;
  /** Suites written in code (fuzzing, plugin checker), run after the YAML suites. */
  programmatic?: ProgrammaticSuite[];
}

const BUILTIN_VARIABLES = ['models', 'context', 'organization', 'other_organization', 'run_id', 'seed', 'base_url', 'plugin_url'] as const;
export const builtinVariableNames: ReadonlySet<string> = new Set(BUILTIN_VARIABLES);

export function builtinScope(profile: TargetProfile, seed: number): Record<string, unknown> {
  const context: Record<string, number> = {};
  for (const role of ROLES) context[role] = contextLengthOf(profile, profile.models[role]);
  return {
    models: { ...profile.models },
    context,
    organization: profile.credentials.organization ?? null,
    other_organization: profile.credentials.otherOrganization ?? null,
    run_id: runIdFor(seed),
    seed,
    base_url: profile.baseUrl,
    plugin_url: profile.pluginUrl ?? null,
  };
}

/** Short and deterministic in the seed, so replays send what the recording sent. */
export function runIdFor(seed: number): string {
  return 'r' + (seed >>> 0).toString(36);
}

export async function runSuites(opts: EngineOptions): Promise<RunResult> {
  const started = Date.now();
  const results: CheckResult[] = [];
  const suites: SuiteOutcome[] = [];
  const emit = opts.listener ?? (() => {});
  emit({ type: 'run-start', suites: opts.plans.length + (opts.programmatic?.length ?? 0), target: opts.profile.baseUrl, seed: opts.seed });
  for (const plan of opts.plans) {
    if (opts.signal?.aborted) break;
    const outcome = await runSuite(plan, opts, results);
    suites.push(outcome);
    emit({ type: 'suite-end', outcome });
  }
  for (const suite of opts.programmatic ?? []) {
    if (opts.signal?.aborted) break;
    const outcome = await runProgrammatic(suite, opts, results);
    suites.push(outcome);
    emit({ type: 'suite-end', outcome });
  }
  const interrupted = opts.signal?.aborted ?? false;
  const durationMs = Date.now() - started;
  emit({ type: 'run-end', durationMs, interrupted });
  return { results, suites, durationMs, interrupted, seed: opts.seed, problems: [] };
}

async function runSuite(plan: SuitePlan, opts: EngineOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
  const { spec } = plan;
  const started = Date.now();
  const emit = opts.listener ?? (() => {});
  const selected = selectCases(spec.cases, opts.filter, spec.tags);
  emit({ type: 'suite-start', suite: spec.name, area: spec.area, cases: selected.size });
  const suiteResults: CheckResult[] = [];
  const record = (caseId: string, rs: CheckResult[]): void => {
    suiteResults.push(...rs);
    sink.push(...rs);
    emit({ type: 'case-end', suite: spec.name, case: caseId, results: rs });
  };
  const identity = (c: CaseSpec, i: number): CaseIdentity => {
    const p = plan.casePositions[i];
    return { suite: spec.name, case: c, source: p ? `${p.file}:${p.line}:${p.col}` : plan.file, reproduce: opts.reproduce(spec.name, c.id) };
  };

  if (!opts.profile.areas.has(spec.area)) {
    spec.cases.forEach((c, i) => { if (selected.has(c.id)) record(c.id, [skippedCase(identity(c, i), `area "${spec.area}" is not claimed by the target`)]); });
    return outcome(plan, suiteResults, started);
  }

  await opts.transport.beginSuite?.(spec.name);
  const ledger = new ResourceLedger();
  const scope: Record<string, unknown> = builtinScope(opts.profile, opts.seed);
  const history = new Map<string, Exchange>();
  const remembered = casesNamedByChecks(spec.cases);
  try {
    for (const [name, value] of Object.entries(spec.variables ?? {})) scope[name] = render(value, scope);
    for (const [i, c] of spec.cases.entries()) {
      if (!selected.has(c.id)) continue;
      const id = identity(c, i);
      if (opts.signal?.aborted) break;
      const skip = skipReason(c, opts.profile, scope);
      if (skip) { record(c.id, [skippedCase(id, skip)]); continue; }
      record(c.id, await runCase(id, c, scope, history, remembered, ledger, opts));
    }
  } finally {
    await cleanUp(spec.name, ledger, opts);
    await opts.transport.endSuite?.(spec.name, { seed: opts.seed, ...opts.suiteMeta });
  }
  return outcome(plan, suiteResults, started);
}

async function runProgrammatic(suite: ProgrammaticSuite, opts: EngineOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
  const started = Date.now();
  const emit = opts.listener ?? (() => {});
  emit({ type: 'suite-start', suite: suite.name, area: suite.area, cases: 0 });
  const suiteResults: CheckResult[] = [];
  const emitCase = (caseId: string, rs: CheckResult[]): void => {
    suiteResults.push(...rs);
    sink.push(...rs);
    emit({ type: 'case-end', suite: suite.name, case: caseId, results: rs });
  };
  if (!opts.profile.areas.has(suite.area)) {
    emitCase('area', [{ suite: suite.name, case: 'area', caseTitle: suite.name, check: 'case', requirements: [], severity: 'must', status: 'skip', message: `area "${suite.area}" is not claimed by the target` }]);
  } else {
    await opts.transport.beginSuite?.(suite.name);
    try {
      await suite.run({
        transport: opts.transport, profile: opts.profile, registry: opts.registry, schemas: opts.schemas, seed: opts.seed, emitCase,
        ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.filter ? { filter: opts.filter } : {}),
      });
    } catch (e) {
      emitCase('harness', [{ suite: suite.name, case: 'harness', caseTitle: suite.name, check: 'harness', requirements: [], severity: 'must', status: 'error', message: `the ${suite.name} suite broke: ${e instanceof Error ? e.stack ?? e.message : String(e)}` }]);
    } finally {
      await opts.transport.endSuite?.(suite.name, { seed: opts.seed, ...opts.suiteMeta });
    }
  }
  const counts: Record<ResultStatus, number> = emptyCounts();
  for (const r of suiteResults) counts[r.status]++;
  return { suite: suite.name, area: suite.area, file: `(built-in: ${suite.name})`, durationMs: Date.now() - started, counts };
}

async function runCase(id: CaseIdentity, c: CaseSpec, scope: Record<string, unknown>, history: Map<string, Exchange>, remembered: ReadonlySet<string>, ledger: ResourceLedger, opts: EngineOptions): Promise<CheckResult[]> {
  let request: RequestSpec;
  let built: { outgoing: OutgoingRequest; view: PlannedRequestView };
  try {
    request = render(c.request, scope) as RequestSpec;
    built = buildRequest(request, opts.profile, `${id.suite}/${c.id}`);
  } catch (e) {
    if (e instanceof TemplateError || e instanceof RequestBuildError) return [skippedCase(id, `cannot build the request: ${e.message}`)];
    throw e;
  }
  const params = (use: CheckUse) => (use.with ? (render(use.with, scope) as Record<string, unknown>) : {});
  const ctxFor = (use: CheckUse): CheckContext => ({ request: built.view, profile: opts.profile, vars: scope, schemas: opts.schemas, params: params(use), history });

  const poll = c.poll ? (render(c.poll, scope) as PollSpec) : undefined;
  const deadline = Date.now() + (poll?.deadline_ms ?? opts.profile.timeouts.pollDeadlineMs);
  const extra: CheckResult[] = [];
  let exchange: Exchange;
  let folds: StreamFold[];
  for (let attempt = 0; ; attempt++) {
    folds = built.outgoing.stream ? startStreamFolds(c, opts.registry, ctxFor) : [];
    const current = folds;
    exchange = await opts.transport.send(built.outgoing, {
      timeoutMs: built.outgoing.stream ? opts.profile.timeouts.streamTotalMs : opts.profile.timeouts.requestMs,
      idleTimeoutMs: opts.profile.timeouts.streamIdleMs,
      onEvent: (event, index) => feedStreamFolds(current, event, index, ctxFor),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    ledger.observe(request.method, request.path, request.organization === 'other' ? 'other' : 'default', exchange);
    if (!poll) break;
    const met = pollConditionMet(poll, exchange);
    if (met === true) {
      extra.push(pollResult(id, 'pass', `condition met after ${attempt + 1} request(s)`, undefined, opts));
      break;
    }
    // Offline, the recording fixes how many attempts there were: waiting between them changes nothing,
    // and once the recorded answers run out no later attempt can succeed.
    const replaying = opts.transport.name === 'replay';
    const interval = replaying ? 0 : poll.interval_ms ?? 1000;
    if (opts.signal?.aborted) break; // interrupted before the condition held: skipped below, not blamed on the target
    if (Date.now() + interval > deadline || exchange.error?.kind === 'unmatched') {
      extra.push(pollResult(id, 'fail', `condition not met within ${poll.deadline_ms ?? opts.profile.timeouts.pollDeadlineMs} ms after ${attempt + 1} request(s): ${met}`, exchange, opts));
      break;
    }
    if (interval > 0) await sleep(interval, opts.signal);
  }
  const pollCutShort = poll !== undefined && !extra.some((r) => r.check === 'poll');
  if (opts.signal?.aborted && (pollCutShort || exchange.error !== undefined)) {
    return [skippedCase(id, `interrupted before the case could be judged${exchange.error ? `: ${exchange.error.message}` : ''}`)];
  }
  if (c.follow) await followUrls(c.follow.urls, exchange, opts);
  const results = [...evaluateCase(id, exchange, opts.registry, ctxFor, folds, opts.schemas, opts.severityOf), ...extra];
  if (remembered.has(c.id)) history.set(c.id, forHistory(exchange));
  for (const [name, pointer] of Object.entries(c.capture ?? {})) {
    const value = resolvePointer(exchange.response?.json, pointer);
    if (value !== undefined) scope[name] = value;
    else delete scope[name];
  }
  return results;
}

/**
 * Checks read earlier exchanges by case id, always named in their `with:` parameters
 * (e.g. `with: { create: create-job }`): only those cases' exchanges are kept, so a suite of thousands
 * of cases does not hold every response until its end.
 */
function casesNamedByChecks(cases: readonly CaseSpec[]): Set<string> {
  const ids = new Set(cases.map((c) => c.id));
  const named = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') { if (ids.has(v)) named.add(v); }
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(visit);
  };
  for (const c of cases) for (const use of c.expect?.checks ?? []) if (typeof use !== 'string') visit(use.with);
  return named;
}

/**
 * Later checks read earlier exchanges, but a suite of thousands of cases must not keep every body
 * three times over: keep the parsed JSON when there is one, else the text, else the bytes.
 */
function forHistory(exchange: Exchange): Exchange {
  const r = exchange.response;
  if (!r) return exchange;
  const { bytes, text, ...rest } = r;
  const slim = r.json !== undefined ? rest : text !== undefined ? { ...rest, text } : { ...rest, ...(bytes ? { bytes } : {}) };
  return { ...exchange, response: slim };
}

function pollConditionMet(poll: PollSpec, exchange: Exchange): true | string {
  const until = poll.until;
  if ('status' in until) {
    const s = exchange.response?.status;
    return s !== undefined && statusMatches(s, until.status) ? true : `status was ${s ?? exchange.error?.kind ?? 'none'}`;
  }
  const value = resolvePointer(exchange.response?.json, until.pointer);
  const shown = `${until.pointer} was ${JSON.stringify(value)}`;
  if (until.exists !== undefined && (value !== undefined) !== until.exists) return shown;
  if (until.equals !== undefined && JSON.stringify(value) !== JSON.stringify(until.equals)) return shown;
  if (until.not_equals !== undefined && JSON.stringify(value) === JSON.stringify(until.not_equals)) return shown;
  if (until.in !== undefined && !until.in.some((v) => JSON.stringify(v) === JSON.stringify(value))) return shown;
  return true;
}

function pollResult(id: CaseIdentity, outcome: 'pass' | 'fail', message: string, exchange: Exchange | undefined, opts: EngineOptions): CheckResult {
  const cite = builtinCitation(id.case, opts.severityOf);
  const status: ResultStatus = outcome === 'fail' && cite.severity === 'should' ? 'warn' : outcome;
  const r: CheckResult = { suite: id.suite, case: id.case.id, caseTitle: id.case.title, check: 'poll', requirements: cite.requirements, severity: cite.severity, status, message, source: id.source };
  if (outcome === 'fail' && exchange) {
    r.request = exchange.request;
    r.reproduce = id.reproduce;
    r.findings = [{ pointer: '', message, expected: 'the poll condition within the deadline', actual: 'deadline passed' }];
  }
  return r;
}

/** Follow URLs in the body (e.g. image URLs) without credentials: a signed URL must not receive the API key. */
async function followUrls(pointer: string, exchange: Exchange, opts: EngineOptions): Promise<void> {
  for (const { value } of resolveWildcard(exchange.response?.json, pointer)) {
    if (typeof value !== 'string' || exchange.attachments[value]) continue;
    let url: URL;
    try {
      url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not http(s): ${url.protocol}`);
    } catch (e) {
      exchange.attachments[value] = { status: 0, contentType: '', error: `not a fetchable URL: ${(e as Error).message}` };
      continue;
    }
    const got = await opts.transport.send(
      { method: 'GET', url: url.toString(), headers: { 'user-agent': 'model-api-conformance' }, bodySummary: { kind: 'none' }, stream: false },
      { timeoutMs: opts.profile.timeouts.requestMs, ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    exchange.attachments[value] = {
      status: got.response?.status ?? 0,
      contentType: got.response?.headers['content-type'] ?? '',
      ...(got.response?.bytes ? { bytes: got.response.bytes } : {}),
      ...(got.error ? { error: got.error.message } : {}),
    };
  }
}

async function cleanUp(suite: string, ledger: ResourceLedger, opts: EngineOptions): Promise<void> {
  const emit = opts.listener ?? (() => {});
  const send = async (method: 'GET' | 'POST' | 'DELETE', path: string, organization: 'default' | 'other'): Promise<Exchange> => {
    const { outgoing } = buildRequest({ method, path, organization }, opts.profile, `${suite}/cleanup`);
    // Cleanup runs even after an interrupt, so it gets its own bounded time instead of the run's signal.
    return opts.transport.send(outgoing, { timeoutMs: opts.profile.timeouts.requestMs });
  };
  // Cancelling a job can reveal what it produced (a job that finished since it was last seen has a
  // model and result files the ledger has never seen), so repeat until nothing new turns up.
  const tried = new Set<string>();
  for (let round = 0; round < 5; round++) {
    const todo = ledger.pending().filter((r) => !tried.has(`${r.action}:${r.kind}:${r.id}`));
    if (todo.length === 0) break;
    for (const r of todo) {
      tried.add(`${r.action}:${r.kind}:${r.id}`);
      const path = r.action === 'cancel' ? `/v1/fine-tunes/${encodeURIComponent(r.id)}/cancel` : `/v1/${r.kind === 'model' ? 'models' : 'files'}/${encodeURIComponent(r.id)}`;
      let ex: Exchange;
      try {
        ex = await send(r.action === 'cancel' ? 'POST' : 'DELETE', path, r.organization);
        if (r.action === 'cancel') {
          // The cancel answers the job (or is refused because the job already finished): look at the job
          // once more, so a model or result file it made in the meantime is deleted too.
          ledger.observe('POST', path, r.organization, ex);
          const job = await send('GET', `/v1/fine-tunes/${encodeURIComponent(r.id)}`, r.organization);
          ledger.observe('GET', `/v1/fine-tunes/${encodeURIComponent(r.id)}`, r.organization, job);
        }
      } catch (e) {
        emit({ type: 'cleanup', suite, ok: false, message: `cannot ${r.action} ${r.kind} ${r.id}: ${(e as Error).message}` });
        ledger.forget(r);
        continue;
      }
      const status = ex.response?.status;
      const ok = status !== undefined && ((status >= 200 && status < 300) || status === 404 || (r.action === 'cancel' && status === 400));
      ledger.forget(r);
      emit({ type: 'cleanup', suite, ok, message: `${r.action} ${r.kind} ${r.id}: ${status ?? ex.error?.message ?? 'no response'}` });
    }
  }
}

function skipReason(c: CaseSpec, profile: TargetProfile, scope: Scope): string | undefined {
  if (c.skip) return c.skip;
  for (const need of c.needs ?? []) {
    if (need === 'member_api_key' && !profile.credentials.memberApiKey) return 'needs --member-api-key (a key of the same organization without the owner role)';
    if (need === 'other_organization' && !profile.credentials.otherOrganization) return 'needs --other-organization (a second organization of the key)';
    if (need === 'api_key' && !profile.credentials.apiKey) return 'needs --api-key or CONFORMANCE_API_KEY';
    if (need === 'plugin_url' && !profile.pluginUrl) return 'needs --plugin-url';
  }
  const missing = referencedNames([c.request, c.expect ?? {}, c.poll ?? {}]).filter((n) => !(n in scope));
  if (missing.length) return `depends on ${missing.map((m) => `"${m}"`).join(', ')}, which an earlier case did not capture`;
  return undefined;
}

/**
 * Cases selected by --grep/--tag, plus every earlier case they depend on through captures,
 * so that `--grep <case>` reproduces a case that needs a file uploaded first.
 */
export function selectCases(cases: CaseSpec[], filter: CaseFilter | undefined, suiteTags: readonly string[] = []): Set<string> {
  if (!filter?.grep && !filter?.tags?.length) return new Set(cases.map((c) => c.id));
  const wanted = cases.filter((c) => matches(c, filter, suiteTags));
  const selected = new Set(wanted.map((c) => c.id));
  for (let i = cases.length - 1; i >= 0; i--) {
    const c = cases[i]!;
    if (!selected.has(c.id)) continue;
    const needs = new Set(referencedNames([c.request, c.expect ?? {}, c.poll ?? {}]));
    for (let j = i - 1; j >= 0; j--) {
      const earlier = cases[j]!;
      if (Object.keys(earlier.capture ?? {}).some((n) => needs.has(n))) {
        selected.add(earlier.id);
        for (const n of Object.keys(earlier.capture ?? {})) needs.delete(n);
        for (const n of referencedNames([earlier.request, earlier.poll ?? {}])) needs.add(n);
      }
    }
  }
  return selected;
}

function matches(c: CaseSpec, filter: CaseFilter | undefined, suiteTags: readonly string[]): boolean {
  if (filter?.tags?.length && !filter.tags.some((t) => c.tags?.includes(t) || suiteTags.includes(t))) return false;
  if (filter?.grep) {
    const g = filter.grep.toLowerCase();
    if (!c.id.toLowerCase().includes(g) && !c.title.toLowerCase().includes(g)) return false;
  }
  return true;
}

function outcome(plan: SuitePlan, results: CheckResult[], started: number): SuiteOutcome {
  const counts: Record<ResultStatus, number> = emptyCounts();
  for (const r of results) counts[r.status]++;
  return { suite: plan.spec.name, area: plan.spec.area, file: plan.file, durationMs: Date.now() - started, counts };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });
}
