// Results are plain JSON data: the JSON report is the results themselves. The judge makes them; the engine,
// the reporters and the diff read them.

import type { Check, Finding, Severity } from '../checks/types.ts';
import type { CaseSpec } from '../suite/types.ts';
import type { ExchangeRequest } from '../transport/types.ts';

/**
 * - `pass`: the check evaluated its rule on this exchange and the rule held.
 * - `not-exercised`: the check ran but the exchange could not show its rule (no stop sequence was hit, the
 *   file had no multi-byte character): neither a pass nor a failure, and it never counts as coverage.
 * - `fail` / `warn`: a `must` / `should` rule was broken.
 * - `skip`: the case or check does not apply here (area not claimed, credentials missing, not a stream).
 * - `blocked`: a precondition failed elsewhere (`blockedBy` names that root result); neither pass nor failure.
 * - `error`: the check or the harness could not evaluate it; fails the run like a must-failure.
 */
export type ResultStatus = 'pass' | 'fail' | 'warn' | 'skip' | 'error' | 'blocked' | 'not-exercised';

/** Every status, in the order reporters show them. Add a status here and in the type; nowhere else lists them. */
export const RESULT_STATUSES: readonly ResultStatus[] = ['fail', 'error', 'warn', 'blocked', 'not-exercised', 'skip', 'pass'];

export function emptyCounts(): Record<ResultStatus, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0, blocked: 0, 'not-exercised': 0 };
}

/** The root result a blocked result depends on. */
export interface BlockedBy {
  suite: string;
  case: string;
  check: string;
}

export interface ResponseExcerpt {
  status?: number;
  contentType?: string;
  /** First bytes of the body, for humans. */
  excerpt?: string;
  /** The server's own message about the answer (`error.message`, `message`, or a problem's `detail`), kept whole up to a bound. */
  message?: string;
  /** Transport failure, when there was no (complete) response. */
  error?: string;
}

interface ResultBase {
  suite: string;
  case: string;
  caseTitle: string;
  /** `status`, `schema`, `header:<name>`, `transport`, `poll`, `capture:<name>`, `assert[i]`, or a registered check name. */
  check: string;
  requirements: string[];
  severity: Severity;
  message: string;
  findings?: Finding[];
  request?: ExchangeRequest;
  response?: ResponseExcerpt;
  /** A command that reruns exactly this case. */
  reproduce?: string;
  /** Where the case is written, `file:line:col`. */
  source?: string;
  /** How long the exchange this result judged took (ms). */
  durationMs?: number;
}

/** A result that is not blocked: it names no root. */
export interface JudgedResult extends ResultBase {
  status: Exclude<ResultStatus, 'blocked'>;
  blockedBy?: never;
}

/** A blocked result always names the failed (or errored) result it depends on: `blocked` without it does not compile. */
export interface BlockedResult extends ResultBase {
  status: 'blocked';
  blockedBy: BlockedBy;
}

export type CheckResult = JudgedResult | BlockedResult;

export interface CaseIdentity {
  suite: string;
  case: CaseSpec;
  source: string;
  reproduce: string;
  /** The case's inline assertions, as checks (templates rendered), judged after its registered checks. */
  assertions?: readonly Check[];
  /** Where each inline assertion is written, `file:line:col`. */
  assertSources?: readonly string[];
}

/** A root result that later results can be blocked by, with a short reason for their messages. */
export interface Root {
  by: BlockedBy;
  reason: string;
}

/** The one way a blocked result says what blocks it. Read by people only: causes travel as `Root` values. */
export function blockedMessage(root: Root): string {
  return `blocked by ${root.by.check} of ${root.by.case}: ${root.reason}`;
}

/** A result that breaks a rule, or could not be judged: what later results are blocked by. */
export function isFailure(status: ResultStatus): status is 'fail' | 'warn' | 'error' {
  return status === 'fail' || status === 'warn' || status === 'error';
}

/** The root a failed result is to what depends on it. */
export function rootOf(r: CheckResult, reason: string = r.message): Root {
  return { by: { suite: r.suite, case: r.case, check: r.check }, reason };
}

export function skippedCase(id: CaseIdentity, reason: string): CheckResult {
  return { suite: id.suite, case: id.case.id, caseTitle: id.case.title, check: 'case', requirements: [...id.case.requirements], severity: 'must', status: 'skip', message: reason, source: id.source };
}

export function blockedCase(id: CaseIdentity, root: Root): CheckResult {
  return {
    suite: id.suite, case: id.case.id, caseTitle: id.case.title, check: 'case', requirements: [...id.case.requirements], severity: 'must',
    status: 'blocked', message: blockedMessage(root), source: id.source, blockedBy: root.by,
  };
}
