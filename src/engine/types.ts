// Results are plain JSON data: the JSON report is the results themselves.

import type { Finding, Severity } from '../checks/types.ts';
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

export interface CheckResult {
  suite: string;
  case: string;
  caseTitle: string;
  /** `status`, `schema`, `header:<name>`, `transport`, `poll`, `capture:<name>`, `assert[i]`, or a registered check name. */
  check: string;
  requirements: string[];
  severity: Severity;
  status: ResultStatus;
  message: string;
  findings?: Finding[];
  request?: ExchangeRequest;
  response?: ResponseExcerpt;
  /** A command that reruns exactly this case. */
  reproduce?: string;
  /** Where the case is written, `file:line:col`. */
  source?: string;
  /** Present exactly when status is `blocked`: the failed (or errored) result this one depends on. */
  blockedBy?: BlockedBy;
  /** How long the exchange this result judged took (ms). */
  durationMs?: number;
}

export interface SuiteOutcome {
  suite: string;
  area: string;
  file: string;
  durationMs: number;
  counts: Record<ResultStatus, number>;
  /** A problem of the run stopped this suite: nothing after it was judged (its message; the run's verdict is error). */
  stopped?: string;
}

export type RunEvent =
  | { type: 'run-start'; suites: number; target: string; seed: number }
  | { type: 'suite-start'; suite: string; area: string; cases: number }
  | { type: 'case-end'; suite: string; case: string; results: CheckResult[] }
  /** A case waits (a poll whose condition does not hold yet): what it waits for, for live progress. */
  | { type: 'waiting'; suite: string; case: string; detail: string }
  | { type: 'suite-end'; outcome: SuiteOutcome }
  | { type: 'cleanup'; suite: string; message: string; ok: boolean }
  | { type: 'problem'; problem: RunProblem }
  | { type: 'run-end'; durationMs: number; interrupted: boolean };

export type RunListener = (event: RunEvent) => void;

/**
 * A problem of the run, not of the target: unreachable host, refused key, missing cassette, unmatched replay
 * request, rate limit that never cleared. Never a verdict; the CLI exits 3 when there is one.
 */
export interface RunProblem {
  kind: 'unreachable' | 'tls' | 'auth-refused' | 'cassette-missing' | 'unmatched' | 'rate-limited' | 'unresponsive' | 'deadline' | 'harness';
  /** The suite it stopped, when it stopped one suite rather than the whole run. */
  suite?: string;
  /** One line: what happened. */
  message: string;
  /** One line: what to do about it. */
  hint?: string;
}

export interface RunResult {
  results: CheckResult[];
  suites: SuiteOutcome[];
  durationMs: number;
  interrupted: boolean;
  seed: number;
  /** Problems of the run itself; a run with any is not a verdict on the target. */
  problems: RunProblem[];
}
