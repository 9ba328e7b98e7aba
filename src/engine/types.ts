// Results are plain JSON data: the JSON report is the results themselves.

import type { CheckResult, ResultStatus } from '../judge/results.ts';

// The results' own types live with the judge, which makes them; the engine's consumers read them from here too.
export { emptyCounts, RESULT_STATUSES } from '../judge/results.ts';
export type { BlockedBy, CheckResult, ResponseExcerpt, ResultStatus } from '../judge/results.ts';

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
  kind: 'unreachable' | 'tls' | 'auth-refused' | 'cassette-missing' | 'unmatched' | 'rate-limited' | 'unresponsive' | 'deadline' | 'nothing-judged' | 'harness';
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
