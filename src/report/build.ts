// Assemble the Report from a run's results.

import type { Catalogue } from '../catalogue/types.ts';
import type { CheckResult, RunResult } from '../engine/types.ts';
import { computeCoverage } from './coverage.ts';
import type { Report, Summary } from './types.ts';

export interface ReportMeta {
  tool: { name: string; version: string };
  spec: string;
  target: Report['target'];
  startedAt: Date;
}

export function summarize(results: readonly CheckResult[]): Summary {
  const s: Summary = { passed: 0, failed: 0, warnings: 0, skipped: 0, errors: 0, blocked: 0, notExercised: 0, total: 0 };
  for (const r of results) {
    s.total++;
    switch (r.status) {
      case 'pass': s.passed++; break;
      case 'fail': s.failed++; break;
      case 'warn': s.warnings++; break;
      case 'skip': s.skipped++; break;
      case 'error': s.errors++; break;
      case 'blocked': s.blocked++; break;
      case 'not-exercised': s.notExercised++; break;
    }
  }
  return s;
}

export function buildReport(run: RunResult, meta: ReportMeta, catalogue: Catalogue): Report {
  const summary = summarize(run.results);
  return {
    version: 1,
    tool: { name: meta.tool.name, version: meta.tool.version },
    spec: meta.spec,
    target: meta.target,
    startedAt: meta.startedAt.toISOString(),
    durationMs: run.durationMs,
    seed: run.seed,
    interrupted: run.interrupted,
    verdict: verdictOf(run.problems.length, summary, run.interrupted),
    summary,
    problems: run.problems,
    suites: run.suites,
    results: run.results,
    coverage: computeCoverage(run.results, catalogue),
  };
}

/**
 * A problem of the run: error. A failure it saw: fail (true, however far the run got). An interrupted run with
 * none is neither a pass (a gate must not trust what did not run) nor a verdict on the target: error.
 */
export function verdictOf(problems: number, summary: Pick<Summary, 'failed' | 'errors'>, interrupted: boolean): Report['verdict'] {
  if (problems > 0) return 'error';
  if (summary.failed > 0 || summary.errors > 0) return 'fail';
  return interrupted ? 'error' : 'pass';
}
