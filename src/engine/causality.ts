// The engine's causality rules across the cases of a suite: one root cause gives one failure, and what depends
// on it is blocked. Each rule is a named function of what it reads (the suite's causal state, the case, its run)
// with its own unit test (test/engine/causality.test.ts). A new rule goes here, with a test and a reference-server
// fault that it keeps from being counted twice, and one line in run-suite.ts.

import type { CheckRegistry } from '../checks/registry.ts';
import type { CaseSpec } from '../suite/types.ts';
import { resolvePointer } from '../util/pointer.ts';
import { blockedMessage, type CheckResult, type Root } from '../judge/results.ts';
import type { CaseRun } from './case/context.ts';
import type { RunProblem } from './types.ts';
import { isSuccess } from '../util/status.ts';

/** A case and its position in its suite. */
export interface Placed {
  spec: CaseSpec;
  index: number;
}

/** How a case's answer failed its gate: with this status, or with none in time (an endpoint that hangs). */
export type FailedAnswer = number | 'no answer in time';

/** What the rules read of a suite. */
export interface CausalState {
  readonly registry: CheckRegistry;
  /** Per endpoint (method and path as written), the first case expecting a 2xx with the run's own key: its baseline. */
  readonly firstSuccess: ReadonlyMap<string, { index: number; id: string }>;
  /** The root that makes a case's answer unusable to later cases. */
  readonly caseRoots: ReadonlyMap<string, Root>;
  /** How each case whose own status (or transport) check failed was answered. */
  readonly failedStatus: ReadonlyMap<string, FailedAnswer>;
}

/** How many default-key cases expecting a 2xx must all be refused with 401/403 before the key is blamed, not the target. */
export const AUTH_REFUSALS_TO_STOP = 3;

/**
 * Rule "a rejection needs an accepting endpoint": a rejection says something only when the endpoint accepts a
 * valid request. A case that expects a 4xx with the run's key is blocked when the first earlier case on the same
 * endpoint expecting a 2xx (its baseline) failed its gate: a target that refuses everything would otherwise
 * "pass" every rejection case.
 */
export function endpointBaseline(state: CausalState, at: Placed): Root | undefined {
  const c = at.spec;
  if (!expectsRejection(c, state.registry) || (c.request.auth ?? 'default') !== 'default') return undefined;
  const base = state.firstSuccess.get(endpointOf(c));
  return base && base.index < at.index ? state.caseRoots.get(base.id) : undefined;
}

/**
 * Rule "a hanging endpoint is asked once": when an endpoint's baseline got no answer in time, a later case on the
 * endpoint, whatever it expects, would wait the same --timeout only to be blocked by it (36 chat cases against a
 * hanging chat endpoint waited 18 minutes at the default timeout). It is blocked by the baseline without being sent.
 */
export function hangingEndpoint(state: CausalState, at: Placed): Root | undefined {
  const base = state.firstSuccess.get(endpointOf(at.spec));
  if (!base || base.index >= at.index || state.failedStatus.get(base.id) !== 'no answer in time') return undefined;
  return state.caseRoots.get(base.id);
}

/**
 * The same rule, seen from a request about to go ahead (the pipeline): a rejection case whose baseline is the case
 * being judged now, or a case between the two, must wait for that baseline's verdict.
 */
export function awaitsBaseline(state: CausalState, next: Placed, judging: number): boolean {
  const c = next.spec;
  if (!expectsRejection(c, state.registry) || (c.request.auth ?? 'default') !== 'default') return false;
  const base = state.firstSuccess.get(endpointOf(c));
  return base !== undefined && base.index >= judging && base.index < next.index;
}

/**
 * Rule "one cause per endpoint": a case expecting a 2xx whose status check failed with the very status its
 * endpoint's baseline failed with, or that got no answer in time as the baseline did, shares the baseline's cause
 * (a target that answers 422 to every chat request gave 26 must-failures; one whose completions hang, 40). Its
 * failure is the baseline's; what it blocked, the baseline blocks.
 */
export function sameAnswerAsFailedBaseline(state: CausalState, at: Placed, ran: CaseRun): Root | undefined {
  const c = at.spec;
  if (!expectsSuccessWithOwnKey(c) || ran.root?.by.case !== c.id) return undefined;
  const base = state.firstSuccess.get(endpointOf(c));
  if (!base || base.index >= at.index) return undefined;
  const answered = failedAnswer(ran);
  return answered !== undefined && state.failedStatus.get(base.id) === answered ? state.caseRoots.get(base.id) : undefined;
}

/** How a case's own gate failed, for the rule above: its status, or no answer in time. */
export function failedAnswer(ran: CaseRun): FailedAnswer | undefined {
  const status = ran.exchange?.response?.status;
  if (status !== undefined) return ran.root?.by.check === 'status' ? status : undefined;
  return ran.root?.by.check === 'transport' && ran.exchange?.error?.kind === 'timeout' ? 'no answer in time' : undefined;
}

/** The case's results with its own root failure blocked by `base`, and what it blocked re-pointed there. */
export function reroot(results: readonly CheckResult[], own: Root, base: Root): CheckResult[] {
  const blockedBy = base.by;
  const message = blockedMessage({ by: blockedBy, reason: `the same answer — ${base.reason}` });
  return results.map((r) => {
    const isRoot = r.check === own.by.check && (r.status === 'fail' || r.status === 'warn');
    const behindRoot = r.status === 'blocked' && r.blockedBy.case === own.by.case && r.blockedBy.check === own.by.check;
    if (!isRoot && !behindRoot) return r;
    const { findings: _findings, ...rest } = r;
    return { ...rest, status: 'blocked', blockedBy, message };
  });
}

/** What the rule "a refused key stops the suite" keeps: whether any request was accepted, and the refusals before. */
export interface KeyRefusals {
  accepted: boolean;
  refusals: string[];
}

/**
 * Rule "a refused key stops the suite": a key the target refuses is a problem of the run. Three cases in a row
 * that expect a 2xx with the run's own key, answered 401/403 before anything was accepted, stop the suite with
 * one clear message; the problem returned is to be reported, and the suite stopped from its first refusal.
 */
export function refusedKeyStopsSuite(keys: KeyRefusals, at: { suite: string; spec: CaseSpec }, status: number | undefined): RunProblem | undefined {
  if (isSuccess(status)) keys.accepted = true;
  if (keys.accepted || !expectsSuccessWithOwnKey(at.spec) || (status !== 401 && status !== 403)) return undefined;
  keys.refusals.push(at.spec.id);
  if (keys.refusals.length < AUTH_REFUSALS_TO_STOP) return undefined;
  return { kind: 'auth-refused', suite: at.suite, message: `every request of suite ${at.suite} with the run's key was refused (${status})`, hint: 'check --api-key / CONFORMANCE_API_KEY and --organization' };
}

/** Per endpoint (method and path as written), the first case expecting a 2xx with the run's own key. */
export function firstSuccessByEndpoint(cases: readonly CaseSpec[]): Map<string, { index: number; id: string }> {
  const first = new Map<string, { index: number; id: string }>();
  cases.forEach((c, index) => {
    const key = endpointOf(c);
    if (!first.has(key) && expectsSuccessWithOwnKey(c)) first.set(key, { index, id: c.id });
  });
  return first;
}

/** The case judges a refusal: it expects a 4xx, or (with no status expectation) every check it uses judges the status itself. */
export function expectsRejection(c: CaseSpec, registry: CheckRegistry): boolean {
  const s = c.expect?.status;
  if (s !== undefined) return s === '4xx' || (typeof s === 'number' && s >= 400 && s < 500) || (Array.isArray(s) && s.length > 0 && s.every((x) => x >= 400 && x < 500));
  const checks = (c.expect?.checks ?? []).map((u) => registry.get(typeof u === 'string' ? u : u.name));
  return checks.length > 0 && checks.every((k) => k !== undefined && (k.appliesTo === 'any' || k.appliesTo === '4xx' || k.requirements.every((r) => r.startsWith('ERR-'))));
}

export function expectsSuccessWithOwnKey(c: CaseSpec): boolean {
  const auth = c.request.auth ?? 'default';
  const expected = c.expect?.status;
  const success = expected === undefined || expected === '2xx' || (typeof expected === 'number' && isSuccess(expected)) || (Array.isArray(expected) && expected.every((s) => isSuccess(s)));
  return auth === 'default' && (c.request.organization ?? 'default') === 'default' && success;
}

/**
 * Rule "a missing capture carries its cause": bind a case's captures. A value that is missing or null is not a
 * value: the name is unbound, and the root that explains why (the case's failed gate, else its first failure) is
 * remembered for the cases using it, which are then blocked by it.
 */
export function bindCaptures(into: { scope: Record<string, unknown>; captureRoots: Map<string, Root> }, c: CaseSpec, ran: CaseRun): void {
  const unusable = ran.root !== undefined;
  const root = ran.root ?? ran.cause;
  for (const [name, pointer] of Object.entries(c.capture ?? {})) {
    const value = unusable ? undefined : resolvePointer(ran.exchange?.response?.json, pointer);
    if (value !== undefined && value !== null) {
      into.scope[name] = value;
      into.captureRoots.delete(name);
      continue;
    }
    delete into.scope[name];
    if (root) into.captureRoots.set(name, root);
    else into.captureRoots.delete(name);
  }
}

function endpointOf(c: CaseSpec): string {
  return `${c.request.method} ${c.request.path}`;
}

