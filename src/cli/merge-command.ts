// `conformance merge REPORT...`: the report.json files of the shards of one run (`--shard I/N` on N machines)
// become one report — the same reports a single run writes. It refuses, with exit 2 and the reason, shards that
// do not belong together (tool version, spec, seed, target, selection) or do not cover the selection exactly once.

import { resolve } from 'node:path';
import { loadCatalogue } from '../catalogue/load.ts';
import type { CheckResult, SuiteOutcome } from '../engine/types.ts';
import { computeCoverage } from '../report/coverage.ts';
import { summarize, verdictOf } from '../report/build.ts';
import { Reporting } from '../report/index.ts';
import { NO_SECRETS } from '../util/redact.ts';
import type { Report } from '../report/types.ts';
import { parseFlags } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import type { Io } from '../run/io.ts';
import { UsageError } from '../run/usage-error.ts';
import { readReport } from '../run/read-report.ts';

export const MERGE_FLAGS = { 'report-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export const MERGE_HELP = `Usage: conformance merge REPORT... [--report-dir DIR]

Merges the report.json files of the shards of one run (conformance run --shard I/N on N machines) into one
report.json, junit.xml and summary.md in DIR (default ./reports). The shards must come from the same tool
version, spec, seed, target and selection, and cover the selection exactly once; otherwise nothing is written
and the exit code is 2.`;

export async function mergeCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, MERGE_FLAGS);
  if (flags.help) { io.out.write(MERGE_HELP + '\n'); return EXIT.ok; }
  if (positionals.length === 0) throw new UsageError('give the report.json files of the shards (conformance merge REPORT...)');
  const reports = positionals.map((p) => readReport(p));
  const merged = merge(reports, positionals);
  // The merge job is where a matrix run's verdict belongs on the CI page. The shards' reports were redacted.
  const reporting = new Reporting({ dir: resolve(flags['report-dir'] ?? 'reports'), catalogue: loadCatalogue(), out: io.out, env: io.env }, ['github'], NO_SECRETS);
  const { files: paths } = await reporting.end(merged);
  const s = merged.summary;
  io.out.write(`merged ${reports.length} shards: ${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings, ${s.skipped} skipped, ${s.blocked} blocked, ${s.notExercised} not exercised, ${s.errors} errors — verdict ${merged.verdict.toUpperCase()}\nreports: ${paths.json}, ${paths.junit}, ${paths.markdown}, ${paths.html}\n`);
  return merged.verdict === 'pass' ? EXIT.ok : merged.verdict === 'error' ? EXIT.runtime : EXIT.failed;
}

/**
 * What makes two shards' targets the same: `https://host/v1` is `https://host` (paths are resolved the same way),
 * and the faults of an embedded target are a set, whatever order the flags gave them in.
 */
function sameTargetKey(target: Report['target']): unknown {
  const base = (url: string) => url.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { ...target, baseUrl: base(target.baseUrl), ...(target.faults ? { faults: [...target.faults].sort() } : {}) };
}

/** One report from the shards of a run, or a UsageError that says why they do not make one. */
export function merge(reports: Report[], names: readonly string[]): Report {
  const first = reports[0]!;
  const same = (what: string, get: (r: Report) => unknown): void => {
    reports.forEach((r, i) => {
      if (JSON.stringify(get(r)) !== JSON.stringify(get(first))) throw new UsageError(`${names[i]} is not a shard of the same run as ${names[0]}: its ${what} differs (${JSON.stringify(get(r))} vs ${JSON.stringify(get(first))})`);
    });
  };
  reports.forEach((r, i) => { if (!r.shard) throw new UsageError(`${names[i]} is not a shard (it was not run with --shard)`); });
  // An interrupted shard covers part of its suites: merged, the rest would silently drop out of the report.
  reports.forEach((r, i) => { if (r.interrupted) throw new UsageError(`${names[i]} is the report of an interrupted run (shard ${r.shard!.index}/${r.shard!.count}): run that shard again`); });
  same('tool version', (r) => `${r.tool.name}@${r.tool.version}`);
  same('spec', (r) => r.spec);
  same('seed', (r) => r.seed);
  same('target', (r) => sameTargetKey(r.target));
  same('shard count', (r) => r.shard!.count);
  same('selection', (r) => r.shard!.selection);
  same('case selection (--grep, --tag)', (r) => r.shard!.filter ?? {});
  // The fuzz cases a property tries: shards with other --fuzz-runs are another run (older reports do not say).
  same('--fuzz-runs', (r) => r.shard!.fuzzRuns ?? null);
  const count = first.shard!.count;
  const indexes = reports.map((r) => r.shard!.index).sort((a, b) => a - b);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.includes(i));
  const twice = indexes.filter((x, i) => indexes.indexOf(x) !== i);
  if (twice.length) throw new UsageError(`shard ${[...new Set(twice)].join(', ')} of ${count} is given twice`);
  if (missing.length) throw new UsageError(`shard ${missing.join(', ')} of ${count} is missing: the merge would not cover the selection`);
  const selection = first.shard!.selection;
  const covered = reports.flatMap((r) => r.shard!.suites);
  const doubled = covered.filter((s, i) => covered.indexOf(s) !== i);
  const uncovered = selection.filter((s) => !covered.includes(s));
  if (doubled.length || uncovered.length || covered.length !== selection.length) {
    throw new UsageError(`the shards do not cover the selection exactly once (${doubled.length ? `twice: ${doubled.join(', ')}` : ''}${uncovered.length ? ` missing: ${uncovered.join(', ')}` : ''})`);
  }
  reports.forEach((r, i) => { const why = inconsistency(r); if (why) throw new UsageError(`${names[i]} does not hold what its shard ran: ${why}`); });
  // In the selection's order, as a single run reports them.
  const order = (suite: string) => selection.indexOf(suite);
  const suites: SuiteOutcome[] = reports.flatMap((r) => r.suites).sort((a, b) => order(a.suite) - order(b.suite));
  const results: CheckResult[] = selection.flatMap((s) => reports.flatMap((r) => r.results.filter((x) => x.suite === s)));
  const summary = summarize(results);
  const problems = reports.flatMap((r) => r.problems ?? []);
  const interrupted = reports.some((r) => r.interrupted);
  const { shard: _shard, retries: _retries, ...rest } = first;
  const retries = sumRetries(reports);
  return {
    ...rest,
    ...(retries ? { retries } : {}),
    startedAt: reports.map((r) => r.startedAt).sort()[0]!,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    interrupted,
    verdict: verdictOf(problems.length, summary, interrupted),
    summary,
    problems,
    suites,
    results,
    coverage: computeCoverage(results, loadCatalogue()),
  };
}

/**
 * Why a shard's results are not those of the suites it says it ran, if they are not: a result of a suite outside
 * them, a suite without its outcome, or results that do not add up to the outcome's counts (a report cut short,
 * or edited). Merged, such a report would drop or double-count results while every check above passed.
 */
function inconsistency(r: Report): string | undefined {
  const ran = new Set(r.shard!.suites);
  const stray = r.results.find((x) => !ran.has(x.suite));
  if (stray) return `a result of suite ${stray.suite}, which the shard did not run`;
  for (const suite of ran) {
    const outcome = r.suites.find((o) => o.suite === suite);
    if (!outcome) return `no outcome of suite ${suite}`;
    const expected = Object.values(outcome.counts).reduce((a, b) => a + b, 0);
    const held = r.results.filter((x) => x.suite === suite);
    if (held.length !== expected) return `suite ${suite} has ${held.length} results, its outcome counts ${expected}`;
    // Status by status too: a result edited from fail to pass keeps the total.
    for (const [status, count] of Object.entries(outcome.counts)) {
      const n = held.filter((x) => x.status === status).length;
      if (n !== count) return `suite ${suite} has ${n} ${status} results, its outcome counts ${count}`;
    }
  }
  // And the run's summary is its results' (summarize counts warnings, blocked and the rest the same way).
  const again = summarize(r.results);
  const differs = (Object.keys(again) as Array<keyof typeof again>).find((k) => again[k] !== r.summary[k]);
  if (differs) return `its summary counts ${r.summary[differs]} ${differs}, its results ${again[differs]}`;
  return undefined;
}

/** Every shard's retries and waits: the run's, as one run would count them. */
function sumRetries(reports: readonly Report[]): Report['retries'] {
  const all = reports.flatMap((r) => (r.retries ? [r.retries] : []));
  if (all.length === 0) return undefined;
  const byStatus: Record<string, number> = {};
  for (const r of all) for (const [status, n] of Object.entries(r.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
  return { count: all.reduce((a, r) => a + r.count, 0), waitedMs: all.reduce((a, r) => a + r.waitedMs, 0), byStatus };
}
