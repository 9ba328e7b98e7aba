// Requirement coverage: how each catalogue requirement fared across the run's check results.

import type { Catalogue } from '../catalogue/types.ts';
import { emptyCounts, type CheckResult, type ResultStatus } from '../engine/types.ts';
import type { Coverage, CoverageEntry, CoverageStatus } from './types.ts';

export const COVERAGE_STATUSES: readonly CoverageStatus[] = [
  'passed',
  'failed',
  'warned',
  'skipped',
  'errored',
  'blocked',
  'not-exercised',
  'untestable',
];

export function computeCoverage(results: readonly CheckResult[], catalogue: Catalogue): Coverage {
  const counts = new Map<string, Record<ResultStatus, number>>();
  const skipReasons = new Map<string, string>();
  for (const r of results) {
    for (const id of r.requirements) {
      if (!catalogue.byId.has(id)) continue; // unknown IDs are caught elsewhere
      let c = counts.get(id);
      if (!c) {
        c = emptyCounts();
        counts.set(id, c);
      }
      c[r.status]++;
      if ((r.status === 'skip' || r.status === 'not-exercised') && !skipReasons.has(id)) skipReasons.set(id, r.message);
    }
  }

  const totals = {
    passed: 0,
    failed: 0,
    warned: 0,
    skipped: 0,
    errored: 0,
    blocked: 0,
    'not-exercised': 0,
    untestable: 0,
    requirements: 0,
    testable: 0,
    exercised: 0,
  } satisfies Coverage['totals'];
  const requirements: Record<string, CoverageEntry> = {};

  for (const req of catalogue.list) {
    const c = counts.get(req.id) ?? emptyCounts();
    let status: CoverageStatus;
    let reason: string | undefined;
    if (req.severity === 'untestable') {
      status = 'untestable';
      reason = req.reason;
    } else if (c.fail > 0) status = 'failed';
    else if (c.error > 0) status = 'errored';
    else if (c.warn > 0) status = 'warned';
    else if (c.pass > 0) status = 'passed';
    else if (c.blocked > 0) status = 'blocked';
    else if (c.skip > 0) {
      status = 'skipped';
      reason = skipReasons.get(req.id);
    } else {
      status = 'not-exercised';
      reason = skipReasons.get(req.id);
    }

    const exercised = c.pass + c.fail + c.warn + c.error > 0;
    const entry: CoverageEntry = { area: req.area, severity: req.severity, status, ...c, exercised };
    if (reason !== undefined) entry.reason = reason;
    requirements[req.id] = entry;

    totals[status]++;
    totals.requirements++;
    if (status !== 'untestable') totals.testable++;
    if (status === 'passed' || status === 'failed' || status === 'warned' || status === 'errored') totals.exercised++;
  }
  return { totals, requirements };
}
