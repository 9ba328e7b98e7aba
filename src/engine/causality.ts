// The engine's causality rules across cases: one root cause gives one failure, and what depends on it is blocked.

import type { CheckRegistry } from '../checks/registry.ts';
import type { CaseSpec } from '../suite/types.ts';
import type { Exchange } from '../transport/types.ts';
import { resolvePointer } from '../util/pointer.ts';
import { blockedMessage, type Root } from '../judge/results.ts';
import { type CheckResult } from './types.ts';
import { type CaseRun } from './case/run-case.ts';

/** How many default-key cases expecting a 2xx must all be refused with 401/403 before the key is blamed, not the target. */
export const AUTH_REFUSALS_TO_STOP = 3;

/**
 * A rejection says something only when the endpoint accepts a valid request: a case that expects a 4xx with the
 * run's key is blocked when the first earlier case on the same endpoint expecting a 2xx failed its gate (a
 * target that refuses everything would otherwise "pass" every rejection case).
 */
export function endpointBaseline(c: CaseSpec, index: number, firstSuccess: ReadonlyMap<string, { index: number; id: string }>, caseRoots: ReadonlyMap<string, Root>, registry: CheckRegistry): Root | undefined {
  if (!expectsRejection(c, registry) || (c.request.auth ?? 'default') !== 'default') return undefined;
  const base = firstSuccess.get(`${c.request.method} ${c.request.path}`);
  return base && base.index < index ? caseRoots.get(base.id) : undefined;
}

/** How a case's answer failed its gate: with this status, or with none in time (an endpoint that hangs). */
export type FailedAnswer = number | 'no answer in time';

export function failedAnswer(ran: CaseRun): FailedAnswer | undefined {
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
export function sameAnswerAsFailedBaseline(c: CaseSpec, index: number, ran: CaseRun, firstSuccess: ReadonlyMap<string, { index: number; id: string }>, caseRoots: ReadonlyMap<string, Root>, failedStatus: ReadonlyMap<string, FailedAnswer>): Root | undefined {
  if (!expectsSuccessWithOwnKey(c) || ran.root?.by.case !== c.id) return undefined;
  const base = firstSuccess.get(`${c.request.method} ${c.request.path}`);
  if (!base || base.index >= index) return undefined;
  const answered = failedAnswer(ran);
  return answered !== undefined && failedStatus.get(base.id) === answered ? caseRoots.get(base.id) : undefined;
}

/** The case's results with its own root failure blocked by `base`, and what it blocked re-pointed there. */
export function reroot(results: readonly CheckResult[], own: Root, base: Root): CheckResult[] {
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
export function firstSuccessByEndpoint(cases: readonly CaseSpec[]): Map<string, { index: number; id: string }> {
  const first = new Map<string, { index: number; id: string }>();
  cases.forEach((c, index) => {
    const key = `${c.request.method} ${c.request.path}`;
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
  const success = expected === undefined || expected === '2xx' || (typeof expected === 'number' && expected >= 200 && expected < 300) || (Array.isArray(expected) && expected.every((s) => s >= 200 && s < 300));
  return auth === 'default' && (c.request.organization ?? 'default') === 'default' && success;
}

/**
 * Bind a case's captures. A value that is missing or null is not a value: the name is unbound, and the root
 * that explains why (the case's failed gate, else its first failure) is remembered for the cases using it.
 */
export function bindCaptures(c: CaseSpec, exchange: Exchange | undefined, scope: Record<string, unknown>, captureRoots: Map<string, Root>, root: Root | undefined, unusable: boolean): void {
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
