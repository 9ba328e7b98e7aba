// Results are plain JSON data: the JSON report is the results themselves.

import type { Finding, Severity } from '../checks/types.ts';
import type { ExchangeRequest } from '../transport/types.ts';

export type ResultStatus = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

export interface ResponseExcerpt {
  status?: number;
  contentType?: string;
  /** First bytes of the body, for humans. */
  excerpt?: string;
  /** Transport failure, when there was no (complete) response. */
  error?: string;
}

export interface CheckResult {
  suite: string;
  case: string;
  caseTitle: string;
  /** `status`, `schema`, `header:<name>`, `transport`, `poll`, or a registered check name. */
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
}

export interface SuiteOutcome {
  suite: string;
  area: string;
  file: string;
  durationMs: number;
  counts: Record<ResultStatus, number>;
}

export type RunEvent =
  | { type: 'run-start'; suites: number; target: string; seed: number }
  | { type: 'suite-start'; suite: string; area: string; cases: number }
  | { type: 'case-end'; suite: string; case: string; results: CheckResult[] }
  | { type: 'suite-end'; outcome: SuiteOutcome }
  | { type: 'cleanup'; suite: string; message: string; ok: boolean }
  | { type: 'run-end'; durationMs: number; interrupted: boolean };

export type RunListener = (event: RunEvent) => void;

export interface RunResult {
  results: CheckResult[];
  suites: SuiteOutcome[];
  durationMs: number;
  interrupted: boolean;
  seed: number;
}
