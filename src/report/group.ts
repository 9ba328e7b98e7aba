// Group results by suite, in the order the run reported its suites.

export { emptyCounts } from '../engine/types.ts';
import { emptyCounts, type CheckResult, type ResultStatus, type SuiteOutcome } from '../engine/types.ts';
import type { Report } from './types.ts';

export interface SuiteGroup {
  suite: string;
  area: string;
  outcome?: SuiteOutcome;
  results: CheckResult[];
  counts: Record<ResultStatus, number>;
}


export function groupBySuite(report: Pick<Report, 'suites' | 'results'>): SuiteGroup[] {
  const groups = new Map<string, SuiteGroup>();
  for (const outcome of report.suites) {
    groups.set(outcome.suite, { suite: outcome.suite, area: outcome.area, outcome, results: [], counts: emptyCounts() });
  }
  for (const r of report.results) {
    let g = groups.get(r.suite);
    if (!g) {
      // A suite cut short (interrupted run) may have results but no outcome.
      g = { suite: r.suite, area: '(unknown)', results: [], counts: emptyCounts() };
      groups.set(r.suite, g);
    }
    g.results.push(r);
    g.counts[r.status]++;
  }
  return [...groups.values()];
}
