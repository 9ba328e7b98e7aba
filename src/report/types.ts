// The report a run writes (schemas/report.schema.json describes report.json).

import type { CheckResult, RunProblem, SuiteOutcome } from '../engine/types.ts';

/**
 * A requirement is `passed` only when some check evaluated it non-vacuously and none failed. `blocked`: every
 * result citing it was blocked by another failure. `not-exercised`: nothing evaluated it (or only vacuously).
 */
export type CoverageStatus = 'passed' | 'failed' | 'warned' | 'skipped' | 'errored' | 'blocked' | 'not-exercised' | 'untestable';

export interface CoverageEntry {
  area: string;
  severity: string;
  status: CoverageStatus;
  /** How many check results cited the requirement, by result status. */
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  error: number;
  blocked: number;
  /** Results that ran but could not exercise the rule (vacuous passes). */
  'not-exercised': number;
  /** True when some check evaluated the requirement non-vacuously (pass, fail, warn or error). */
  exercised: boolean;
  /** Why untestable, or why skipped / not exercised (first reason seen). */
  reason?: string;
}

export interface Coverage {
  totals: Record<CoverageStatus, number> & { requirements: number; testable: number; exercised: number };
  requirements: Record<string, CoverageEntry>;
}

export interface Summary {
  /** Check results that passed. */
  passed: number;
  /** `must` checks that failed: any makes the run fail. */
  failed: number;
  /** `should` checks that failed: reported, never fail the run. */
  warnings: number;
  skipped: number;
  /** Checks that could not be evaluated (the harness or a check threw): these fail the run too. */
  errors: number;
  /** Results whose precondition failed elsewhere: neither passes nor failures. */
  blocked: number;
  /** Checks that ran but whose exchange could not exercise their rule: not passes. */
  notExercised: number;
  total: number;
}

export interface Report {
  version: 1;
  tool: { name: string; version: string };
  spec: string;
  /** `faults`: the embedded reference server's, when the target is it (a fault set is a different target). */
  target: { baseUrl: string; pluginUrl?: string; transport: string; models: Record<string, string>; areas: string[]; faults?: string[] };
  startedAt: string;
  durationMs: number;
  seed: number;
  interrupted: boolean;
  /**
   * `pass` when failed = 0, errors = 0, no run problem and the run was not interrupted; `error` when a problem
   * of the run (not of the target) stopped it; else `fail`.
   */
  verdict: 'pass' | 'fail' | 'error';
  summary: Summary;
  /** When the run was one shard of a split selection (`--shard I/N`): what `conformance merge` checks. */
  /** `filter`: the run's --grep/--tag, part of the selection every shard must share; `fuzzRuns` too (it decides the fuzz cases). */
  shard?: { index: number; count: number; suites: string[]; selection: string[]; filter?: { grep?: string; tags?: string[] }; fuzzRuns?: number };
  /** Requests retried after 429 (or 503 with Retry-After) or a connection reset unanswered, and the time waited: kept apart from verdicts. */
  retries?: { count: number; waitedMs: number; byStatus: Record<string, number> };
  /** Problems of the run (unreachable target, refused key, missing cassette): with any, the verdict is `error`. */
  problems: RunProblem[];
  suites: SuiteOutcome[];
  results: CheckResult[];
  coverage: Coverage;
}

export interface ReportPaths {
  json: string;
  junit: string;
  markdown: string;
  html: string;
}
