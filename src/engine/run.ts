// plan × transport → events and results. The engine returns data; only the CLI prints.

import type { CheckRegistry } from '../checks/registry.ts';
import type { CheckContext, PlannedRequestView } from '../checks/types.ts';
import { statusMatches } from '../checks/expectations.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { TargetProfile } from '../profile/types.ts';
import { ROLES } from '../profile/types.ts';
import { contextLengthOf, GENERATION_MS_PER_ITEM, GENERATION_MS_PER_TOKEN } from '../profile/profile.ts';
import { holdsTemplate, render, renderPath, referencedNames, TemplateError, type Scope } from '../suite/template.ts';
import type { Assertion, CaseSpec, CheckUse, FollowEachSpec, NEEDS, PollSpec, RequestSpec, SuitePlan } from '../suite/types.ts';
import { assertionCheck } from '../checks/assert/assertion.ts';
import type { AnswerHead, Exchange, FollowedAnswer, FollowedItems, OutgoingRequest, SendOptions, Transport } from '../transport/types.ts';
import { nextTurn } from '../transport/next-turn.ts';
import { resolvePointer, resolveWildcard } from '../util/pointer.ts';
import { buildRequest, RequestBuildError } from './request.ts';
import { judge } from '../judge/judge.ts';
import { builtinCitation, type SeverityOf } from '../judge/citation.ts';
import { responseExcerpt } from '../judge/excerpt.ts';
import { feedStreamFolds, startStreamFolds, type StreamFold } from '../judge/stream-folds.ts';
import { blockedCase, blockedMessage, isFailure, rootOf, skippedCase, type CaseIdentity, type Root } from '../judge/results.ts';
import { endpointKey } from './endpoint-key.ts';
import { deadlineFlag, deadlineProblem, ProblemWatch, unjudged, type StillAnswers } from './problems.ts';
import { pollDelay } from './poll.ts';
import { ResourceLedger } from './ledger.ts';
import { emptyCounts, type CheckResult, type ResultStatus, type RunListener, type RunProblem, type RunResult, type SuiteOutcome } from './types.ts';
import type { ProgrammaticSuite } from './programmatic.ts';
import { suiteCost } from './shard.ts';

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
  /** How many suites run at once (cases inside a suite stay sequential); default 1. */
  jobs?: number;
  /** Keep the request and a response excerpt of passing results too (--report-passes). */
  reportPasses?: boolean;
  /** Live runs: asked when a request timed out with nothing answered meanwhile; false stops the run (problems.ts). */
  stillAnswers?: StillAnswers;
}

const BUILTIN_VARIABLES = ['models', 'context', 'organization', 'other_organization', 'run_id', 'seed', 'base_url', 'plugin_url'] as const;
export const builtinVariableNames: ReadonlySet<string> = new Set(BUILTIN_VARIABLES);

export function builtinScope(profile: TargetProfile, seed: number): Record<string, unknown> {
  // Unknown context lengths are null: cases at the context boundary are skipped for them (skipReason).
  const context: Record<string, number | null> = {};
  for (const role of ROLES) context[role] = contextLengthOf(profile, profile.models[role]) ?? null;
  return {
    models: { ...profile.models, ...profile.optionalModels },
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

export async function runSuites(options: EngineOptions): Promise<RunResult> {
  const started = Date.now();
  const results: CheckResult[] = [];
  const suites: SuiteOutcome[] = [];
  const emit = options.listener ?? (() => {});
  const watch = new ProblemWatch(options.transport, (problem) => emit({ type: 'problem', problem }), options.stillAnswers, options.profile.timeouts.requestMs);
  const opts: EngineOptions & { watch: ProblemWatch } = { ...options, transport: watch, watch };
  emit({ type: 'run-start', suites: opts.plans.length + (opts.programmatic?.length ?? 0), target: opts.profile.baseUrl, seed: opts.seed });
  // Suites in selection order; with --jobs N, up to N run at once, the costliest (polling) first. Each sends
  // through its own view of the watch and keeps its own results, joined in selection order at the end, so
  // the reports of --jobs 8 are those of --jobs 1.
  const tasks: Array<{ name: string; cost: number; run: (o: WatchedOptions, sink: CheckResult[]) => Promise<SuiteOutcome> }> = [
    ...opts.plans.map((plan) => ({ name: plan.spec.name, cost: suiteCost(plan), run: (o: WatchedOptions, sink: CheckResult[]) => runSuite(plan, o, sink) })),
    ...(opts.programmatic ?? []).map((suite) => ({ name: suite.name, cost: suiteCost(suite), run: (o: WatchedOptions, sink: CheckResult[]) => runProgrammatic(suite, o, sink) })),
  ];
  const jobs = Math.max(1, Math.min(opts.jobs ?? 1, tasks.length));
  const order = jobs > 1 ? tasks.map((_, i) => i).sort((a, b) => tasks[b]!.cost - tasks[a]!.cost || a - b) : tasks.map((_, i) => i);
  const done: Array<{ outcome: SuiteOutcome; results: CheckResult[] } | undefined> = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: jobs }, async () => {
    while (next < order.length && !opts.signal?.aborted) {
      const index = order[next++]!;
      const task = tasks[index]!;
      const sink: CheckResult[] = [];
      const outcome = await task.run({ ...opts, transport: watch.view(task.name) }, sink);
      done[index] = { outcome, results: sink };
      emit({ type: 'suite-end', outcome });
    }
  }));
  for (const d of done) {
    if (!d) continue;
    results.push(...d.results);
    suites.push(d.outcome);
  }
  const interrupted = opts.signal?.aborted ?? false;
  const durationMs = Date.now() - started;
  emit({ type: 'run-end', durationMs, interrupted });
  return { results, suites, durationMs, interrupted, seed: opts.seed, problems: watch.problems };
}

/** How many default-key cases expecting a 2xx must all be refused with 401/403 before the key is blamed, not the target. */
const AUTH_REFUSALS_TO_STOP = 3;

type WatchedOptions = EngineOptions & { watch?: ProblemWatch };

async function runSuite(plan: SuitePlan, opts: WatchedOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
  const { spec } = plan;
  const started = Date.now();
  const emit = opts.listener ?? (() => {});
  const selected = selectCases(spec.cases, opts.filter, spec.tags);
  emit({ type: 'suite-start', suite: spec.name, area: spec.area, cases: selected.size });
  const suiteResults: CheckResult[] = [];
  const record = (caseId: string, rs: CheckResult[]): void => {
    suiteResults.push(...rs);
    emit({ type: 'case-end', suite: spec.name, case: caseId, results: rs });
  };
  const identity = (c: CaseSpec, i: number): CaseIdentity => {
    const p = plan.casePositions[i];
    const asserts = plan.assertPositions?.[i]?.map((a) => `${a.file}:${a.line}:${a.col}`);
    return { suite: spec.name, case: c, source: p ? `${p.file}:${p.line}:${p.col}` : plan.file, reproduce: opts.reproduce(spec.name, c.id), ...(asserts ? { assertSources: asserts } : {}) };
  };

  if (!opts.profile.areas.has(spec.area)) {
    // Begun and ended like any suite, though it sends nothing: a recording then holds it (an empty cassette), and
    // its replay reports the same skipped cases as the live run did.
    await opts.transport.beginSuite?.(spec.name);
    spec.cases.forEach((c, i) => { if (selected.has(c.id)) record(c.id, [skippedCase(identity(c, i), `area "${spec.area}" is not claimed by the target`)]); });
    await opts.transport.endSuite?.(spec.name, { seed: opts.seed, ...opts.suiteMeta, complete: !opts.signal?.aborted });
    sink.push(...suiteResults);
    return outcome(plan, suiteResults, started);
  }

  await opts.transport.beginSuite?.(spec.name);
  const ledger = new ResourceLedger();
  const scope: Record<string, unknown> = builtinScope(opts.profile, opts.seed);
  const history = new Map<string, Exchange>();
  const remembered = casesNamedByChecks(spec.cases);
  const firstSuccess = firstSuccessByEndpoint(spec.cases);
  // Causality as data: the root that makes a case's answer unusable, and the root behind each capture that
  // did not bind. Later cases and checks that depend on them are blocked by that root, never failed again.
  const caseRoots = new Map<string, Root>();
  /**
   * The answer of each case whose own status (or transport) check failed: its status, or no answer in time. A later
   * case answered the same way shares its cause.
   */
  const failedStatus = new Map<string, FailedAnswer>();
  const captureRoots = new Map<string, Root>();
  const refusals: string[] = [];
  let accepted = false;
  let stoppedAt: { problem: RunProblem; caseId: string } | undefined;
  /** Endpoints that answered a request of this suite with success: a refusal proves a rejection only on those. */
  const served = new Set<string>();
  // Whether every selected case ran: a recorder writes only a suite that completed (never a partial one over a good cassette).
  let complete = false;
  // The next case's request, sent while this case is judged (see lookahead()); consumed by that case's runCase.
  let ahead: Ahead | undefined;
  /**
   * Once a case's last answer is in, the next selected case's request may go while this one is judged: the target
   * still sees one request after the other, in order, and the same requests. Only a case whose request, and
   * whether it runs at all, cannot depend on the verdict being computed: no templates (nothing captured feeds
   * it), no poll, follow or stream, and not blocked by this case as its endpoint's baseline. Never after an
   * answer that may stop the suite (a run problem, or a refusal before any request was accepted).
   */
  const lookahead = (i: number, status: number | undefined): boolean => {
    if (opts.signal?.aborted || opts.watch?.stoppedBy(spec.name)) return false;
    if (!accepted && !(status !== undefined && status >= 200 && status < 300)) return false;
    let n = i + 1;
    while (n < spec.cases.length && !selected.has(spec.cases[n]!.id)) n++;
    const c = spec.cases[n];
    if (!c || !independentRequest(c)) return false;
    const base = expectsRejection(c, opts.registry) && (c.request.auth ?? 'default') === 'default' ? firstSuccess.get(`${c.request.method} ${c.request.path}`) : undefined;
    if (base && base.index >= i && base.index < n) return false;
    if (endpointBaseline(c, n, firstSuccess, caseRoots, opts.registry) || dependencyOf(c, opts.profile, scope, captureRoots)) return false;
    let built: ReturnType<typeof buildRequest>;
    try {
      built = buildRequest(c.request, opts.profile, `${spec.name}/${c.id}`);
    } catch {
      return false; // the case reports why when its turn comes
    }
    // Its own answer may send the case after it as soon as its body is read (SendOptions.onBody).
    const answer: Answer = {};
    ahead = { index: n, built, answer, exchange: opts.transport.send(built.outgoing, { ...sendOptions(c, built.outgoing, opts, false), onBody: (head) => answerOnce(answer, n, head.status) }) };
    return true;
  };
  /**
   * A case's answer, once: whether the suite was stopped when it came (read before a request goes ahead: a
   * problem that request meets is the next case's), and the lookahead. Called as soon as the body of a case's
   * only request is read (before it is parsed), else once its last answer is in. An answer that comes while the
   * case before it is still being judged (a request sent ahead, answered at once) is taken when its own case's
   * turn comes: what the lookahead reads (captures, baselines, refusals) is not settled before.
   */
  let current = -1;
  const answerOnce = (answer: Answer, i: number, status: number | undefined): boolean => {
    if (i !== current || answer.stopped) return false;
    answer.stopped = { by: opts.watch?.stoppedBy(spec.name) };
    return lookahead(i, status);
  };
  try {
    for (const [name, value] of Object.entries(spec.variables ?? {})) scope[name] = render(value, scope);
    for (const [i, c] of spec.cases.entries()) {
      if (!selected.has(c.id)) continue;
      const id = identity(c, i);
      if (opts.signal?.aborted) break;
      const baseline = endpointBaseline(c, i, firstSuccess, caseRoots, opts.registry);
      if (baseline) { record(c.id, [blockedCase(id, baseline)]); continue; }
      const dependency = dependencyOf(c, opts.profile, scope, captureRoots);
      if (dependency?.blocked) { caseRoots.set(c.id, dependency.blocked); record(c.id, [blockedCase(id, dependency.blocked)]); continue; }
      if (dependency?.skip) { record(c.id, [skippedCase(id, dependency.skip)]); continue; }
      const sent = ahead?.index === i ? ahead : undefined;
      ahead = undefined;
      current = i;
      const answer = sent?.answer ?? {};
      const ran = await runCase(id, c, scope, history, remembered, ledger, opts, (caseId) => caseRoots.get(caseId), {
        ...(sent ? { ahead: sent } : {}),
        answered: (status) => answerOnce(answer, i, status),
        served,
      });
      const problem = answer.stopped ? answer.stopped.by : opts.watch?.stoppedBy(spec.name);
      if (problem) { stoppedAt = { problem, caseId: c.id }; record(c.id, unjudged(ran.results, problem, undefined)); break; }
      const sameCause = sameAnswerAsFailedBaseline(c, i, ran, firstSuccess, caseRoots, failedStatus);
      if (sameCause) {
        ran.results = reroot(ran.results, ran.root!, sameCause);
        ran.root = sameCause;
      } else if (ran.root?.by.case === c.id && (ran.root.by.check === 'status' || ran.root.by.check === 'transport')) {
        const answered = failedAnswer(ran);
        if (answered !== undefined) failedStatus.set(c.id, answered);
      }
      record(c.id, ran.results);
      if (ran.root) caseRoots.set(c.id, ran.root);
      bindCaptures(c, ran.exchange, scope, captureRoots, ran.root ?? ran.cause, ran.root !== undefined);
      // A key the target refuses is a problem of the run: three cases in a row that expect a 2xx with the run's
      // own key, answered 401/403 before anything was accepted, stop the suite with one clear message.
      const status = ran.exchange?.response?.status;
      if (status !== undefined && status >= 200 && status < 300) accepted = true;
      if (!accepted && expectsSuccessWithOwnKey(c) && (status === 401 || status === 403)) {
        refusals.push(c.id);
        if (refusals.length >= AUTH_REFUSALS_TO_STOP) {
          const problem: RunProblem = { kind: 'auth-refused', suite: spec.name, message: `every request of suite ${spec.name} with the run's key was refused (${status})`, hint: 'check --api-key / CONFORMANCE_API_KEY and --organization' };
          opts.watch?.report(problem);
          stoppedAt = { problem, caseId: refusals[0]! };
          break;
        }
      }
    }
    complete = !stoppedAt && !opts.signal?.aborted;
  } finally {
    // A request sent ahead whose case never ran (an interrupt): what it created is still seen, and deleted.
    if (ahead) {
      const c = spec.cases[ahead.index]!;
      ledger.observe(c.request.method, c.request.path, c.request.organization === 'other' ? 'other' : 'default', await ahead.exchange);
    }
    await cleanUp(spec.name, ledger, opts);
    await opts.transport.endSuite?.(spec.name, { seed: opts.seed, ...opts.suiteMeta, complete });
  }
  const final = stoppedAt ? unjudged(suiteResults, stoppedAt.problem, stoppedAt.caseId) : suiteResults;
  sink.push(...final);
  return { ...outcome(plan, final, started), ...(stoppedAt ? { stopped: stoppedAt.problem.message } : {}) };
}

/**
 * A rejection says something only when the endpoint accepts a valid request: a case that expects a 4xx with the
 * run's key is blocked when the first earlier case on the same endpoint expecting a 2xx failed its gate (a
 * target that refuses everything would otherwise "pass" every rejection case).
 */
function endpointBaseline(c: CaseSpec, index: number, firstSuccess: ReadonlyMap<string, { index: number; id: string }>, caseRoots: ReadonlyMap<string, Root>, registry: CheckRegistry): Root | undefined {
  if (!expectsRejection(c, registry) || (c.request.auth ?? 'default') !== 'default') return undefined;
  const base = firstSuccess.get(`${c.request.method} ${c.request.path}`);
  return base && base.index < index ? caseRoots.get(base.id) : undefined;
}

/** How a case's answer failed its gate: with this status, or with none in time (an endpoint that hangs). */
type FailedAnswer = number | 'no answer in time';
function failedAnswer(ran: CaseRun): FailedAnswer | undefined {
  const status = ran.exchange?.response?.status;
  if (status !== undefined) return ran.root?.by.check === 'status' ? status : undefined;
  return ran.root?.by.check === 'transport' && ran.exchange?.error?.kind === 'timeout' ? 'no answer in time' : undefined;
}

/**
 * A case expecting a 2xx whose status check failed with the very status its endpoint's baseline (the first case
 * of that method and path expecting a 2xx with the run's key) failed with, or that got no answer in time as the
 * baseline did: one cause (a target that answers 422 to every chat request gave 26 must-failures; one whose
 * completions hang, 40). Its failure is the baseline's; what it blocked, the baseline blocks.
 */
function sameAnswerAsFailedBaseline(c: CaseSpec, index: number, ran: CaseRun, firstSuccess: ReadonlyMap<string, { index: number; id: string }>, caseRoots: ReadonlyMap<string, Root>, failedStatus: ReadonlyMap<string, FailedAnswer>): Root | undefined {
  if (!expectsSuccessWithOwnKey(c) || ran.root?.by.case !== c.id) return undefined;
  const base = firstSuccess.get(`${c.request.method} ${c.request.path}`);
  if (!base || base.index >= index) return undefined;
  const answered = failedAnswer(ran);
  return answered !== undefined && failedStatus.get(base.id) === answered ? caseRoots.get(base.id) : undefined;
}

/** The case's results with its own root failure blocked by `base`, and what it blocked re-pointed there. */
function reroot(results: readonly CheckResult[], own: Root, base: Root): CheckResult[] {
  const blockedBy = base.by;
  const message = blockedMessage({ by: blockedBy, reason: `the same answer — ${base.reason}` });
  return results.map((r) => {
    const isRoot = r.check === own.by.check && (r.status === 'fail' || r.status === 'warn');
    const behindRoot = r.status === 'blocked' && r.blockedBy?.case === own.by.case && r.blockedBy.check === own.by.check;
    if (!isRoot && !behindRoot) return r;
    const { findings: _findings, ...rest } = r;
    return { ...rest, status: 'blocked', blockedBy, message };
  });
}

/** Per endpoint (method and path as written), the first case expecting a 2xx with the run's own key. */
function firstSuccessByEndpoint(cases: readonly CaseSpec[]): Map<string, { index: number; id: string }> {
  const first = new Map<string, { index: number; id: string }>();
  cases.forEach((c, index) => {
    const key = `${c.request.method} ${c.request.path}`;
    if (!first.has(key) && expectsSuccessWithOwnKey(c)) first.set(key, { index, id: c.id });
  });
  return first;
}

/** The case judges a refusal: it expects a 4xx, or (with no status expectation) every check it uses judges the status itself. */
function expectsRejection(c: CaseSpec, registry: CheckRegistry): boolean {
  const s = c.expect?.status;
  if (s !== undefined) return s === '4xx' || (typeof s === 'number' && s >= 400 && s < 500) || (Array.isArray(s) && s.length > 0 && s.every((x) => x >= 400 && x < 500));
  const checks = (c.expect?.checks ?? []).map((u) => registry.get(typeof u === 'string' ? u : u.name));
  return checks.length > 0 && checks.every((k) => k !== undefined && (k.appliesTo === 'any' || k.appliesTo === '4xx' || k.requirements.every((r) => r.startsWith('ERR-'))));
}

function expectsSuccessWithOwnKey(c: CaseSpec): boolean {
  const auth = c.request.auth ?? 'default';
  const expected = c.expect?.status;
  const success = expected === undefined || expected === '2xx' || (typeof expected === 'number' && expected >= 200 && expected < 300) || (Array.isArray(expected) && expected.every((s) => s >= 200 && s < 300));
  return auth === 'default' && (c.request.organization ?? 'default') === 'default' && success;
}

/**
 * Bind a case's captures. A value that is missing or null is not a value: the name is unbound, and the root
 * that explains why (the case's failed gate, else its first failure) is remembered for the cases using it.
 */
function bindCaptures(c: CaseSpec, exchange: Exchange | undefined, scope: Record<string, unknown>, captureRoots: Map<string, Root>, root: Root | undefined, unusable: boolean): void {
  for (const [name, pointer] of Object.entries(c.capture ?? {})) {
    const value = unusable ? undefined : resolvePointer(exchange?.response?.json, pointer);
    if (value !== undefined && value !== null) {
      scope[name] = value;
      captureRoots.delete(name);
      continue;
    }
    delete scope[name];
    if (root) captureRoots.set(name, root);
    else captureRoots.delete(name);
  }
}

async function runProgrammatic(suite: ProgrammaticSuite, opts: WatchedOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
  const started = Date.now();
  const emit = opts.listener ?? (() => {});
  emit({ type: 'suite-start', suite: suite.name, area: suite.area, cases: 0 });
  const suiteResults: CheckResult[] = [];
  const emitCase = (caseId: string, rs: CheckResult[]): void => {
    // Once a run problem stopped the suite, nothing it goes on to report is a verdict.
    const problem = opts.watch?.stoppedBy(suite.name);
    const judged = problem ? unjudged(rs, problem, undefined) : rs;
    suiteResults.push(...judged);
    emit({ type: 'case-end', suite: suite.name, case: caseId, results: judged });
  };
  if (!opts.profile.areas.has(suite.area)) {
    // Recorded too (an empty cassette), as a YAML suite of an unclaimed area is: its replay reports the same skip.
    await opts.transport.beginSuite?.(suite.name);
    emitCase('area', [{ suite: suite.name, case: 'area', caseTitle: suite.name, check: 'case', requirements: [], severity: 'must', status: 'skip', message: `area "${suite.area}" is not claimed by the target` }]);
    await opts.transport.endSuite?.(suite.name, { seed: opts.seed, ...opts.suiteMeta, complete: !opts.signal?.aborted });
  } else {
    await opts.transport.beginSuite?.(suite.name);
    let complete = false;
    try {
      await suite.run({
        transport: opts.transport, profile: opts.profile, registry: opts.registry, schemas: opts.schemas, seed: opts.seed, emitCase,
        ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.filter ? { filter: opts.filter } : {}),
      });
      complete = !opts.signal?.aborted && !opts.watch?.stoppedBy(suite.name);
    } catch (e) {
      emitCase('harness', [{ suite: suite.name, case: 'harness', caseTitle: suite.name, check: 'harness', requirements: [], severity: 'must', status: 'error', message: `the ${suite.name} suite broke: ${e instanceof Error ? e.stack ?? e.message : String(e)}` }]);
    } finally {
      await opts.transport.endSuite?.(suite.name, { seed: opts.seed, ...opts.suiteMeta, complete });
    }
  }
  // A problem met in the middle of the suite: what it reported before is not a verdict either.
  const problem = opts.watch?.stoppedBy(suite.name);
  const final = problem ? unjudged(suiteResults, problem, undefined) : suiteResults;
  sink.push(...final);
  const counts: Record<ResultStatus, number> = emptyCounts();
  for (const r of final) counts[r.status]++;
  // As for a YAML suite: the console says STOP, not PASS, and report.json's outcome says what stopped it.
  return { suite: suite.name, area: suite.area, file: `(built-in: ${suite.name})`, durationMs: Date.now() - started, counts, ...(problem ? { stopped: problem.message } : {}) };
}

interface CaseRun {
  results: CheckResult[];
  /** The last exchange (absent when the request could not be built). */
  exchange?: Exchange;
  /** The failed gate (poll, transport, status) that makes this case's answer unusable to later cases. */
  root?: Root;
  /** The root, else the first failure of any result, else what the first blocked result is blocked by. */
  cause?: Root;
}

/** A case's request sent while the case before it was judged (runSuite's lookahead). */
interface Ahead {
  index: number;
  built: { outgoing: OutgoingRequest; view: PlannedRequestView };
  exchange: Promise<Exchange>;
  /** Filled when its answer comes (runSuite's answerOnce). */
  answer: Answer;
}

/** Whether a case's own answers stopped the suite; set once, when the case is answered. */
interface Answer {
  stopped?: { by: RunProblem | undefined };
}

/** Whether a case's request is fixed by its plan alone: nothing rendered from captures, no poll, follow or stream. */
function independentRequest(c: CaseSpec): boolean {
  return factsOf(c) === NO_FACTS && !c.poll && !c.follow && !c.request.stream;
}

function sendOptions(c: CaseSpec, outgoing: OutgoingRequest, opts: EngineOptions, polls: boolean): SendOptions {
  const t = opts.profile.timeouts;
  // Pace is the target's business: a stream that lasts as long as a job waits as long as a poll would, silences
  // included; a long generation gets time for every token it asks for (a non-streamed one sends its headers last).
  const generation = generationAllowanceMs(c.request);
  if (c.request.lasts === 'job') return { timeoutMs: t.pollDeadlineMs, headersTimeoutMs: t.requestMs, idleTimeoutMs: t.pollDeadlineMs, retry: polls ? 'rate-limit' : true };
  return {
    timeoutMs: (outgoing.stream ? t.streamTotalMs : t.requestMs) + generation,
    headersTimeoutMs: t.requestMs + (outgoing.stream ? 0 : generation),
    // A stream asked for and a body answered: bounded as a body is.
    ...(outgoing.stream ? { wholeTimeoutMs: t.requestMs + generation } : {}),
    idleTimeoutMs: t.streamIdleMs,
    // A rate limit answered with 429 is retried by the transport, unless the case is about that status; a poll
    // waits for a 503 (a model loading) itself, never for a 429, which is no state it waits for.
    retry: /\b(429|503)\b/.test(JSON.stringify(c.expect?.status ?? '')) ? false : polls ? 'rate-limit' : true,
    // No interrupt signal here: a request in flight finishes (bounded by its timeout), so what it creates is
    // seen by the ledger and deleted at cleanup instead of leaking.
  };
}

/** A request's templates rendered, its path parameters percent-encoded (template.ts, renderPath). */
function renderRequest(spec: RequestSpec, scope: Record<string, unknown>): RequestSpec {
  const rendered = render(spec, scope) as RequestSpec;
  return holdsTemplate(spec.path) ? { ...rendered, path: renderPath(spec.path, scope) } : rendered;
}

/**
 * Extra time for what a request asks to generate: max_tokens × n (× best_of candidates) at GENERATION_MS_PER_TOKEN;
 * without max_tokens (an image, a chat answer of unbounded length) GENERATION_MS_PER_ITEM for each of the n asked for.
 */
export function generationAllowanceMs(request: Pick<RequestSpec, 'json' | 'multipart'>): number {
  const json = request.json !== null && typeof request.json === 'object' && !Array.isArray(request.json) ? request.json as Record<string, unknown> : {};
  const fields = request.multipart?.fields ?? {};
  const count = (v: unknown) => { const n = Number(v); return Number.isFinite(n) && n > 0 ? Math.min(n, 1_000_000) : 1; };
  const n = Math.max(count(json.n ?? fields.n), count(json.best_of));
  const tokens = typeof json.max_tokens === 'number' && Number.isFinite(json.max_tokens) && json.max_tokens > 0 ? Math.min(json.max_tokens, 1_000_000) : 0;
  if (tokens > 0) return tokens * n * GENERATION_MS_PER_TOKEN;
  // A chat answer of unbounded length, or an image (a prompt without a model): time per item asked for.
  const unbounded = json.messages !== undefined || (json.model === undefined && fields.model === undefined && (json.prompt !== undefined || fields.prompt !== undefined));
  return unbounded ? n * GENERATION_MS_PER_ITEM : 0;
}

async function runCase(
  caseId: CaseIdentity, c: CaseSpec, scope: Record<string, unknown>, history: Map<string, Exchange>, remembered: ReadonlySet<string>,
  ledger: ResourceLedger, opts: WatchedOptions, rootOfCase: (caseId: string) => Root | undefined,
  flow: { ahead?: Ahead; answered?: (status: number | undefined) => boolean; served?: Set<string> } = {},
): Promise<CaseRun> {
  let request: RequestSpec;
  let built: { outgoing: OutgoingRequest; view: PlannedRequestView };
  let id = caseId;
  // What cannot be rendered from this run's values (a template error the loader could not see, such as
  // middle() of a text the target answered too short) leaves the case unexercised: skipped, saying why.
  let step = 'build the request';
  try {
    // A request sent ahead is this case's plan as it stands (independentRequest: no templates in it).
    request = flow.ahead ? c.request : renderRequest(c.request, scope);
    built = flow.ahead?.built ?? buildRequest(request, opts.profile, `${id.suite}/${c.id}`);
    if (c.expect?.assert?.length) {
      step = 'render the assertions';
      const cite = builtinCitation(c, opts.severityOf).requirements;
      const assertions = (render(c.expect.assert, scope) as Assertion[]).map((a, j) => assertionCheck(a, j, id.assertSources?.[j] ?? id.source, cite));
      id = { ...id, assertions };
    }
  } catch (e) {
    if (e instanceof TemplateError || e instanceof RequestBuildError) return { results: [skippedCase(id, `cannot ${step}: ${e.message}`)] };
    throw e;
  }
  const params = (use: CheckUse) => (use.with ? (render(use.with, scope) as Record<string, unknown>) : {});
  const ctxFor = (use: CheckUse): CheckContext => ({ request: built.view, profile: opts.profile, vars: scope, schemas: opts.schemas, params: params(use), history });

  const poll = c.poll ? (render(c.poll, scope) as PollSpec) : undefined;
  const deadlineMs = poll?.deadline_ms ?? (poll?.deadline === 'model-load' ? opts.profile.timeouts.modelLoadMs : opts.profile.timeouts.pollDeadlineMs);
  const deadline = Date.now() + deadlineMs;
  // The deadline bounds a poll; the backoff (up to 5 s apart) keeps it from hammering the target. A request count
  // would end a slow live job's poll long before its deadline.
  const maxRequests = poll?.max_requests ?? Infinity;
  // Offline, the recording fixes how many attempts there were: waiting between them changes nothing.
  const replaying = opts.transport.name === 'replay';
  let pollVerdict: CheckResult | undefined;
  let hopeless = false;
  let exchange: Exchange;
  let folds: StreamFold[];
  // A case of one request (no poll, no follow) is answered as soon as its body is read: the next case's request
  // may go before this one's body is even parsed.
  const answered = flow.answered;
  const onBody = answered && !poll && !c.follow && !built.outgoing.stream ? (head: AnswerHead) => answered(head.status) : undefined;
  for (let attempt = 0; ; attempt++) {
    folds = built.outgoing.stream ? startStreamFolds(c, opts.registry, ctxFor, id.assertions) : [];
    const current = folds;
    exchange = flow.ahead && attempt === 0 ? await flow.ahead.exchange : await opts.transport.send(built.outgoing, {
      ...sendOptions(c, built.outgoing, opts, poll !== undefined),
      onEvent: (event, index) => feedStreamFolds(current, event, index, ctxFor),
      ...(onBody ? { onBody } : {}),
    });
    ledger.observe(request.method, request.path, request.organization === 'other' ? 'other' : 'default', exchange);
    if (c.request.lasts === 'job' && (exchange.error?.kind === 'timeout' || exchange.error?.kind === 'stall')) {
      // Still open at the poll deadline: the job is still running, which is no verdict on the target.
      opts.watch?.report(deadlineProblem(id.suite, `${c.id}: the stream of ${pathOf(built.outgoing.url)} was still open at ${deadlineFlag(undefined)} (${opts.profile.timeouts.pollDeadlineMs} ms): the job had not finished`, undefined));
    }
    if (!poll) break;
    const met = pollConditionMet(poll, exchange);
    if (met === true) {
      pollVerdict = pollResult(id, poll, 'pass', `condition met after ${attempt + 1} request(s)`, undefined, opts);
      break;
    }
    if (opts.signal?.aborted) break; // interrupted before the condition held: skipped below, not blamed on the target
    if (exchange.error?.kind === 'unmatched' || exchange.error?.kind === 'not-sent') break;
    // A resource that cannot be read, or reads as no valid resource, will not reach the condition by waiting:
    // stop, and let the broken answer be the case's failure (the poll is blocked by it).
    if ('pointer' in poll.until && answerCannotMeet(exchange, c.expect?.schema, opts.schemas)) { hopeless = true; break; }
    opts.listener?.({ type: 'waiting', suite: id.suite, case: c.id, detail: `${c.id}, ${built.outgoing.method} ${pathOf(built.outgoing.url)}: ${met}` });
    const wait = replaying ? 0 : pollDelay(poll.interval_ms ?? 1000, attempt, exchange.response?.headers['retry-after']);
    if (attempt + 1 >= maxRequests) {
      pollVerdict = pollResult(id, poll, 'fail', `condition not met within ${maxRequests} requests: ${met}`, exchange, opts);
      break;
    }
    if (Date.now() + wait > deadline) {
      // The target still answers with a resource on its way to the condition (a job still running), or says it is
      // not ready yet (a 5xx, no answer in time: a model still loading): it is slow, which the spec allows. Running
      // out of time is the run's problem, never a verdict. A refusal (a 4xx) until the end is the target's answer.
      if (poll.while ? pollConditionMet({ until: poll.while }, exchange) === true : stillWorking(exchange)) opts.watch?.report(deadlineProblem(id.suite, `${c.id}: ${built.outgoing.method} ${pathOf(built.outgoing.url)} not finished within ${deadlineFlag(poll)} (${deadlineMs} ms, ${attempt + 1} request(s)): ${met}`, poll));
      pollVerdict = pollResult(id, poll, 'fail', `condition not met within ${deadlineMs} ms (${attempt + 1} request(s)): ${met}`, exchange, opts);
      break;
    }
    if (wait > 0) await sleep(wait, opts.signal);
  }
  const pollCutShort = poll !== undefined && pollVerdict === undefined;
  if (opts.signal?.aborted && (pollCutShort || exchange.error !== undefined)) {
    return { results: [skippedCase(id, `interrupted before the case could be judged${exchange.error ? `: ${exchange.error.message}` : ''}`)], exchange };
  }
  if (c.follow && 'urls' in c.follow) await followUrls(c.follow.urls, exchange, opts);
  if (c.follow && 'each' in c.follow && exchange.response) exchange.followed = await followEach(c.follow, exchange, built.outgoing, scope, opts);
  // Every request of this case has been answered (unless it was, from its body, already): the next case's may go
  // while this one is judged, once the event loop has turned so undici writes it (next-turn.ts).
  if (flow.answered?.(exchange.response?.status)) await nextTurn();
  const endpoint = endpointKey(built.outgoing.method, built.outgoing.url);
  const endpointServed = flow.served ? flow.served.has(endpoint) : undefined;
  const status = exchange.response?.status;
  if (status !== undefined && status >= 200 && status < 300) flow.served?.add(endpoint);
  const judged = judge(exchange, id, { registry: opts.registry, ctxFor, folds, schemas: opts.schemas, ...(opts.severityOf ? { severityOf: opts.severityOf } : {}), evidence: { ...(pollVerdict ? { poll: pollVerdict } : {}), rootOfCase, ...(opts.reportPasses ? { keepPassEvidence: true } : {}), ...(endpointServed !== undefined ? { endpointServed } : {}) } });
  const { results } = judged;
  // A poll whose answer could never meet its condition goes first; when it failed on its own, it is the root.
  const unreachable = hopeless && poll ? blockedPoll(id, poll, results, exchange, opts) : undefined;
  if (unreachable) results.unshift(unreachable.result);
  if (remembered.has(c.id)) history.set(c.id, forHistory(exchange));
  // The answer is unusable to later cases when a gate failed, or when the poll never reached its condition
  // (then the root is what the poll was blocked by: the answer is not the state the case was waiting for).
  const root: Root | undefined = unreachable && isFailure(unreachable.result.status) ? rootOf(unreachable.result) : judged.root ?? unreachable?.root;
  const cause = root ?? judged.cause;
  return { results, exchange, ...(root ? { root } : {}), ...(cause ? { cause } : {}) };
}

function answerCannotMeet(exchange: Exchange, schema: string | undefined, schemas: SchemaRegistry): boolean {
  const status = exchange.response?.status;
  if (status === undefined || status < 200 || status >= 300) return true;
  return schema !== undefined && (exchange.response?.json === undefined || schemas.validate(schema, exchange.response.json).length > 0);
}

/** The poll of a case whose answer could never meet the condition: blocked by the failure that says why (its root). */
function blockedPoll(id: CaseIdentity, poll: PollSpec, results: readonly CheckResult[], exchange: Exchange, opts: EngineOptions): { result: CheckResult; root?: Root } {
  const failed = results.find((r) => ['transport', 'status', 'schema'].includes(r.check) && isFailure(r.status));
  if (!failed) return { result: pollResult(id, poll, 'fail', `the answer can never meet the condition: status ${exchange.response?.status ?? 'none'}`, exchange, opts) };
  const root = rootOf(failed, `the answer cannot meet the poll's condition (${failed.message})`);
  const base = pollResult(id, poll, 'pass', '', undefined, opts);
  return { result: { ...base, status: 'blocked', message: blockedMessage(root), blockedBy: root.by }, root };
}

/** The path and query of a URL: what a waiting line names (the base URL is in the run's header line). */
function pathOf(url: string): string {
  try { const u = new URL(url); return u.pathname + u.search; } catch { return url; }
}

/** A poll's last answer says the target is still on its way: a resource short of the condition, a 5xx, no answer. */
function stillWorking(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status === undefined || status >= 500 || (status >= 200 && status < 300);
}

/**
 * Checks read earlier exchanges by case id, always named in their `with:` parameters
 * (e.g. `with: { create: create-job }`): only those cases' exchanges are kept, so a suite of thousands
 * of cases does not hold every response until its end.
 */
function casesNamedByChecks(cases: readonly CaseSpec[], among: readonly CaseSpec[] = cases): Set<string> {
  const ids = new Set(among.map((c) => c.id));
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

/**
 * A poll establishes one thing (the job finished, the model serves): it cites `poll.requirements`, by default
 * the case's first requirement, not every requirement of the case — those are judged, or blocked, on the answer.
 */
function pollResult(id: CaseIdentity, poll: PollSpec, outcome: 'pass' | 'fail', message: string, exchange: Exchange | undefined, opts: EngineOptions): CheckResult {
  const all = builtinCitation(id.case, opts.severityOf);
  const requirements = poll.requirements?.length ? [...poll.requirements] : all.requirements.slice(0, 1);
  const cite = { requirements, severity: requirements.some((r) => opts.severityOf?.(r) !== 'should') ? 'must' as const : 'should' as const };
  const status: ResultStatus = outcome === 'fail' && cite.severity === 'should' ? 'warn' : outcome;
  const r: CheckResult = { suite: id.suite, case: id.case.id, caseTitle: id.case.title, check: 'poll', requirements: cite.requirements, severity: cite.severity, status, message, source: id.source };
  if (outcome === 'fail' && exchange) {
    r.request = exchange.request;
    r.reproduce = id.reproduce;
    r.findings = [{ pointer: '', message, expected: 'the poll condition within the deadline', actual: 'not met' }];
    r.response = responseExcerpt(exchange);
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
      { timeoutMs: opts.profile.timeouts.requestMs, pointedTo: true, ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    exchange.attachments[value] = {
      status: got.response?.status ?? 0,
      contentType: got.response?.headers['content-type'] ?? '',
      ...(got.response?.bytes ? { bytes: got.response.bytes } : {}),
      ...(got.error ? { error: got.error.message } : {}),
    };
  }
}

/**
 * Send `follow.request` once per item the pointer selects in the answer (with `{{item}}` bound), within the
 * budget, sequentially; the answers go on the exchange for the case's checks. A request that cannot be built
 * is recorded as an answer with an error, not thrown: one odd item must not hide the others.
 */
async function followEach(follow: FollowEachSpec, exchange: Exchange, original: OutgoingRequest, scope: Scope, opts: EngineOptions): Promise<FollowedItems> {
  const items = resolveWildcard(exchange.response?.json, follow.each);
  const budget = Math.min(follow.limit ?? Number.POSITIVE_INFINITY, opts.profile.followBudget);
  const answers: FollowedAnswer[] = [];
  for (const { pointer, value } of items.slice(0, budget)) {
    if (opts.signal?.aborted) break;
    let outgoing: OutgoingRequest;
    try {
      outgoing = buildRequest(renderRequest(follow.request, { ...scope, item: value }), opts.profile, 'follow').outgoing;
    } catch (e) {
      answers.push({ at: pointer, item: value, status: 0, error: (e as Error).message });
      continue;
    }
    const got = await opts.transport.send(outgoing, { timeoutMs: opts.profile.timeouts.requestMs, ...(opts.signal ? { signal: opts.signal } : {}) });
    answers.push({
      at: pointer, item: value, status: got.response?.status ?? 0,
      ...(got.response?.json !== undefined ? { json: got.response.json } : {}),
      ...(got.error ? { error: got.error.message } : {}),
    });
  }
  await markGone(answers, follow, original, opts);
  return { selected: items.length, answers };
}

/**
 * A listed item that answers 404 may have been deleted after the list was read, by another suite of a --jobs
 * run (a fine-tuned model) or by anyone sharing the organization. The case's request is sent once more: items
 * that are no longer in that fresh answer are marked gone, and checks leave them out. An item still listed
 * and not retrievable remains a failure.
 */
async function markGone(answers: FollowedAnswer[], follow: FollowEachSpec, original: OutgoingRequest, opts: EngineOptions): Promise<void> {
  const missing = answers.filter((a) => a.status === 404);
  if (missing.length === 0 || opts.signal?.aborted) return;
  const again = await opts.transport.send(original, { timeoutMs: opts.profile.timeouts.requestMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  const status = again.response?.status ?? 0;
  if (status < 200 || status >= 300) return;
  const listed = new Set(resolveWildcard(again.response?.json, follow.each).map(({ value }) => JSON.stringify(value)));
  for (const a of missing) if (!listed.has(JSON.stringify(a.item))) a.gone = true;
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

/**
 * Whether a case can run: a reason to skip it (credentials the run lacks, a capture an earlier case did not
 * make without failing), or the root that blocks it (a capture whose case failed). Its request is never sent.
 */
function dependencyOf(c: CaseSpec, profile: TargetProfile, scope: Scope, captureRoots: ReadonlyMap<string, Root>): { skip: string; blocked?: undefined } | { blocked: Root; skip?: undefined } | undefined {
  const skip = skipReason(c, profile, scope);
  if (!skip) return undefined;
  const missing = factsOf(c).names.filter((n) => !(n in scope));
  const root = missing.map((n) => captureRoots.get(n)).find((r) => r !== undefined);
  return root && !c.skip && !(c.needs ?? []).some((n) => needUnmet(n, profile)) ? { blocked: root } : { skip };
}

/** What a case's templates refer to, found once per case (plans are never mutated). */
interface CaseFacts { contextRoles: string[]; namesNonChat: boolean; names: string[] }
const caseFacts = new WeakMap<CaseSpec, CaseFacts>();
const NO_FACTS: CaseFacts = { contextRoles: [], namesNonChat: false, names: [] };
function factsOf(c: CaseSpec): CaseFacts {
  let facts = caseFacts.get(c);
  if (facts) return facts;
  // Names, context lengths and models are read only through templates: a case without one refers to nothing.
  if (!holdsTemplate(c.request) && !holdsTemplate(c.expect) && !holdsTemplate(c.poll)) facts = NO_FACTS;
  else {
    const withPoll = JSON.stringify([c.request, c.expect ?? {}, c.poll ?? {}]);
    facts = {
      contextRoles: [...withPoll.matchAll(/\bcontext\.([a-z_]+)/g)].map((m) => m[1]!),
      namesNonChat: /\bmodels\.non_chat\b/.test(JSON.stringify([c.request, c.expect ?? {}])),
      names: referencedNames([c.request, c.expect ?? {}, c.poll ?? {}]),
    };
  }
  caseFacts.set(c, facts);
  return facts;
}

/** What each `needs:` entry asks of the profile, and what to pass when it is missing. */
const NEED_RULES: Readonly<Record<(typeof NEEDS)[number], { met: (p: TargetProfile) => boolean; hint: string }>> = {
  member_api_key: { met: (p) => !!p.credentials.memberApiKey, hint: 'needs --member-api-key or CONFORMANCE_MEMBER_API_KEY (a key of the same organization without the owner role)' },
  organization: { met: (p) => !!p.credentials.organization, hint: 'needs --organization or CONFORMANCE_ORGANIZATION (without it no Service-Organization header is sent)' },
  other_organization: { met: (p) => !!p.credentials.otherOrganization, hint: 'needs --other-organization or CONFORMANCE_OTHER_ORGANIZATION (a second organization of the key)' },
  api_key: { met: (p) => !!p.credentials.apiKey, hint: 'needs --api-key or CONFORMANCE_API_KEY' },
  plugin_url: { met: (p) => !!p.pluginUrl, hint: 'needs --plugin-url' },
};

function needUnmet(need: string, profile: TargetProfile): boolean {
  const rule = NEED_RULES[need as keyof typeof NEED_RULES];
  return rule !== undefined && !rule.met(profile);
}

function skipReason(c: CaseSpec, profile: TargetProfile, scope: Scope): string | undefined {
  if (c.skip) return c.skip;
  const unmet = (c.needs ?? []).find((need) => needUnmet(need, profile));
  if (unmet) return NEED_RULES[unmet as keyof typeof NEED_RULES].hint;
  const facts = factsOf(c);
  const context = scope['context'] as Record<string, number | null> | undefined;
  for (const role of facts.contextRoles) {
    if (context?.[role] === null) return `the context length of ${profile.models[role as keyof typeof profile.models] ?? role} (the ${role} model) is not known: add it to context_lengths in the config file`;
  }
  if (facts.namesNonChat && !profile.optionalModels.non_chat) return 'needs a model the target serves without chat support: --model non_chat=NAME (or models.non_chat in the config file)';
  const missing = facts.names.filter((n) => !(n in scope));
  if (missing.length) return `depends on ${missing.map((m) => `"${m}"`).join(', ')}, which an earlier case did not capture`;
  return undefined;
}

/**
 * Cases selected by --grep/--tag, plus every earlier case they depend on: the case that captures a value they use
 * (so that `--grep <case>` reproduces a case that needs a file uploaded first), and every earlier case that changes
 * the resource that value names (a request other than GET using it: a delete, a cancel). `deleted-not-listed`
 * judges the list after `delete-upload`; selected alone, the file was never deleted and a conformant target failed.
 */
export function selectCases(cases: CaseSpec[], filter: CaseFilter | undefined, suiteTags: readonly string[] = []): Set<string> {
  if (!filter?.grep && !filter?.tags?.length) return new Set(cases.map((c) => c.id));
  // A grep that is exactly a case's id selects that case alone (as a fuzz property's exact name does): the
  // reproduce command names the failed case so, and must not rerun every case whose id or title contains it.
  const g = filter.grep?.toLowerCase();
  const exactId = g !== undefined && cases.some((c) => c.id.toLowerCase() === g);
  const wanted = cases.filter((c) => matches(c, filter, suiteTags, exactId));
  const selected = new Set(wanted.map((c) => c.id));
  for (let i = cases.length - 1; i >= 0; i--) {
    const c = cases[i]!;
    if (!selected.has(c.id)) continue;
    const needs = new Set(referencedNames([c.request, c.expect ?? {}, c.poll ?? {}]));
    // Names whose resource the case reads: every earlier change to it matters, not only the nearest capture.
    const resources = new Set(needs);
    // Earlier cases its checks read by id (`with: { job: retrieve-job }`): their answers are what it compares with.
    const named = casesNamedByChecks([c], cases);
    for (let j = i - 1; j >= 0; j--) {
      const earlier = cases[j]!;
      if (named.has(earlier.id)) selected.add(earlier.id);
      const captures = Object.keys(earlier.capture ?? {}).some((n) => needs.has(n));
      const changes = earlier.request.method !== 'GET' && referencedNames([earlier.request]).some((n) => resources.has(n));
      if (captures || changes) {
        selected.add(earlier.id);
        for (const n of Object.keys(earlier.capture ?? {})) needs.delete(n);
        for (const n of referencedNames([earlier.request, earlier.poll ?? {}])) { needs.add(n); resources.add(n); }
      }
    }
  }
  return selected;
}

function matches(c: CaseSpec, filter: CaseFilter | undefined, suiteTags: readonly string[], exactId: boolean): boolean {
  if (filter?.tags?.length && !filter.tags.some((t) => c.tags?.includes(t) || suiteTags.includes(t))) return false;
  if (filter?.grep) {
    const g = filter.grep.toLowerCase();
    if (exactId) return c.id.toLowerCase() === g;
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
