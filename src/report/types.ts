// The report a run writes (schemas/report.schema.json describes report.json).

import type { CheckResult, SuiteOutcome } from '../engine/types.ts';

export type CoverageStatus = 'passed' | 'failed' | 'warned' | 'skipped' | 'errored' | 'not-exercised' | 'untestable';

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
  /** Why untestable, or why skipped (first reason seen). */
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
  total: number;
}

export interface Report {
  version: 1;
  tool: { name: string; version: string };
  spec: string;
  target: { baseUrl: string; pluginUrl?: string; transport: string; models: Record<string, string>; areas: string[] };
  startedAt: string;
  durationMs: number;
  seed: number;
  interrupted: boolean;
  /** `pass` when failed = 0, errors = 0 and the run was not interrupted. */
  verdict: 'pass' | 'fail';
  summary: Summary;
  suites: SuiteOutcome[];
  results: CheckResult[];
  coverage: Coverage;
}
