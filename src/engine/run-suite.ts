// One YAML suite: its cases in order, their causality, captures and cleanup.

import { render } from '../suite/template.ts';
import type { CaseSpec, SuitePlan } from '../suite/types.ts';
import type { Exchange, SendOptions } from '../transport/types.ts';
import { buildRequest } from './request.ts';
import { blockedCase, skippedCase, type CaseIdentity, type Root } from '../judge/results.ts';
import { unjudged } from './problems.ts';
import { ResourceLedger } from './ledger.ts';
import { emptyCounts, type CheckResult, type ResultStatus, type RunProblem, type SuiteOutcome } from './types.ts';
import { type WatchedOptions } from './options.ts';
import { builtinScope } from './scope.ts';
import { selectCases, casesNamedByChecks } from './select.ts';
import { independentRequest, dependencyOf } from './admission.ts';
import { AUTH_REFUSALS_TO_STOP, endpointBaseline, type FailedAnswer, failedAnswer, sameAnswerAsFailedBaseline, reroot, firstSuccessByEndpoint, expectsRejection, expectsSuccessWithOwnKey, bindCaptures } from './causality.ts';
import { cleanUp } from './cleanup.ts';
import { sendOptions } from './case/send-options.ts';
import { type Ahead, type Answer, runCase } from './case/run-case.ts';

export async function runSuite(plan: SuitePlan, opts: WatchedOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
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

export function outcome(plan: SuitePlan, results: CheckResult[], started: number): SuiteOutcome {
  const counts: Record<ResultStatus, number> = emptyCounts();
  for (const r of results) counts[r.status]++;
  return { suite: plan.spec.name, area: plan.spec.area, file: plan.file, durationMs: Date.now() - started, counts };
}
