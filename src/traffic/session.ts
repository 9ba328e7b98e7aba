// What the proxy and `conformance judge` share: a judge of traffic made from the harness's rules, the report of
// what it judged (the files a run writes, one suite per cassette), and the exit code `--fail-on` asks for.

import { loadCatalogue } from '../catalogue/load.ts';
import type { Catalogue } from '../catalogue/types.ts';
import { defaultRegistry } from '../checks/index.ts';
import type { CheckResult } from '../judge/results.ts';
import { emptyCounts } from '../judge/results.ts';
import { buildProfile } from '../profile/profile.ts';
import { buildReport } from '../report/build.ts';
import type { Report, Summary } from '../report/types.ts';
import type { RunProblem } from '../engine/types.ts';
import { SchemaRegistry } from '../schema/registry.ts';
import { TrafficJudge } from './judge-traffic.ts';

export type FailOn = 'must' | 'should';

export interface TrafficSession {
  judge: TrafficJudge;
  catalogue: Catalogue;
}

/** A judge for traffic to `baseUrl`, with the built-in rules. */
export function trafficSession(baseUrl: string): TrafficSession {
  const catalogue = loadCatalogue();
  const profile = buildProfile({}, { baseUrl });
  return { catalogue, judge: new TrafficJudge({ registry: defaultRegistry(), schemas: SchemaRegistry.load(), catalogue, profile }) };
}

/**
 * The report of judged traffic: one suite per cassette (or HAR file), each exchange a case. Traffic of which no
 * rule judged anything (no exchange, or only answers no rule applies to: 5xx, no answer at all) is no pass: it is
 * a problem of the run, as a suite that ran nothing is.
 */
export function trafficReport(results: readonly CheckResult[], meta: { target: string; transport: string; tool: { name: string; version: string }; spec: string; startedAt: Date; durationMs: number; judgeable: number }, catalogue: Catalogue): Report {
  const suites = new Map<string, ReturnType<typeof emptyCounts>>();
  for (const r of results) {
    const counts = suites.get(r.suite) ?? emptyCounts();
    counts[r.status]++;
    suites.set(r.suite, counts);
  }
  return buildReport(
    {
      results: [...results], durationMs: meta.durationMs, interrupted: false, seed: 0, problems: meta.judgeable > 0 && !results.some(judgedSomething) ? [NOTHING_JUDGED] : [],
      suites: [...suites].map(([suite, counts]) => ({ suite, area: 'traffic', file: suite, durationMs: 0, counts })),
    },
    { tool: meta.tool, spec: meta.spec, target: { baseUrl: meta.target, transport: meta.transport, models: {}, areas: [] }, startedAt: meta.startedAt },
    catalogue,
  );
}

const judgedSomething = (r: CheckResult): boolean => r.status === 'pass' || r.status === 'fail' || r.status === 'warn' || r.status === 'error';

const NOTHING_JUDGED: RunProblem = {
  kind: 'nothing-judged',
  message: 'no exchange was judged: none had an answer a rule of the spec applies to (5xx answers, or no answer from the upstream)',
  hint: 'each exchange\'s line above says what it got; through the proxy, check that --upstream names the service',
};

/**
 * The last line of `proxy` and `judge`: what the report holds. Errors (a check that could not be evaluated) are
 * named when there are any: they fail the run as failures do, and a line saying "0 failed" beside exit 1 misleads.
 */
export function trafficSummaryLine(s: Summary, html: string): string {
  const errors = s.errors > 0 ? `, ${s.errors} error${s.errors === 1 ? '' : 's'}` : '';
  return `${s.total} results: ${s.failed} failed${errors}, ${s.warnings} warnings, ${s.passed} passed, ${s.notExercised} not exercised · ${html}\n`;
}

/** 1 when a must rule broke (or, with `should`, any rule), else 0. */
export function exitCodeFor(results: readonly CheckResult[], failOn: FailOn): 0 | 1 {
  const broken = results.some((r) => r.status === 'fail' || r.status === 'error' || (failOn === 'should' && r.status === 'warn'));
  return broken ? 1 : 0;
}
