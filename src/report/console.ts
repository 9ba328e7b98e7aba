// Console reporter: one calm line per suite while running, then failures in full and a summary.

import type { CheckResult, ResultStatus, RunEvent } from '../engine/types.ts';
import type { OutputReporter } from './reporter.ts';
import type { ReportPaths } from './types.ts';
import { caseLabel, renderFailure } from './render-failure.ts';
import { formatDuration, retriesSentence, sanitize, style, type Style } from './text.ts';
import type { Report } from './types.ts';
import type { Progress } from './progress.ts';

export interface ConsoleOptions {
  /** ANSI colour and ✔/✖ marks; off under CI=true or when output is not a TTY. */
  color: boolean;
  /** Also print each non-passing check as its case ends. */
  verbose?: boolean;
  /** Live progress (status lines on a terminal, heartbeats in CI); none when omitted. */
  progress?: Progress;
  /** A line under the failures about their reproduce commands (e.g. credentials they do not carry). */
  reproduceHint?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function countsLine(c: Record<ResultStatus, number>, s: Style): string {
  const parts = [
    `${c.pass} passed`,
    c.fail > 0 ? s.red(`${c.fail} failed`) : `${c.fail} failed`,
    c.warn > 0 ? s.yellow(plural(c.warn, 'warning', 'warnings')) : plural(c.warn, 'warning', 'warnings'),
    `${c.skip} skipped`,
  ];
  if (c.blocked > 0) parts.push(`${c.blocked} blocked`);
  if (c['not-exercised'] > 0) parts.push(`${c['not-exercised']} not exercised`);
  if (c.error > 0) parts.push(s.red(plural(c.error, 'error', 'errors')));
  return parts.join(' · ');
}

export class ConsoleReporter implements OutputReporter {
  readonly kind = 'output';
  readonly name = 'console';
  /** With --verbose it prints each non-passing check as its case ends; else it only counts cases. */
  readonly readsCaseResults: boolean;
  private readonly s: Style;
  private readonly cleanupFailures: string[] = [];
  /** Suites the selection (--grep, --tag) left no case of: one line for all of them, not a PASS each. */
  private readonly emptySuites: string[] = [];
  private interrupted = false;

  constructor(
    private readonly out: { write(s: string): unknown },
    private readonly opts: ConsoleOptions,
  ) {
    this.s = style(opts.color);
    this.readsCaseResults = opts.verbose ?? false;
  }

  private line(text = ''): void {
    this.opts.progress?.beforeLine();
    this.out.write(`${text}\n`);
    this.opts.progress?.afterLine();
  }

  onEvent(event: RunEvent): void {
    const s = this.s;
    if (event.type === 'run-start') this.opts.progress?.start();
    if (event.type === 'run-end') this.opts.progress?.stop();
    this.opts.progress?.onEvent(event);
    switch (event.type) {
      case 'suite-end': {
        const o = event.outcome;
        if (o.stopped === undefined && Object.values(o.counts).every((n) => n === 0)) {
          this.emptySuites.push(sanitize(o.suite));
          break;
        }
        const bad = o.counts.fail > 0 || o.counts.error > 0;
        // A suite a problem of the run stopped passed nothing: it says so, not PASS (the problem follows the summary).
        const mark = o.stopped !== undefined ? (this.opts.color ? s.red('■') : 'STOP') : this.opts.color ? (bad ? s.red('✖') : s.green('✔')) : bad ? 'FAIL' : 'PASS';
        const stopped = o.stopped !== undefined ? `  ${s.red('stopped by a problem of the run (below)')}` : '';
        this.line(`${mark} ${s.bold(sanitize(o.suite))}  ${countsLine(o.counts, s)}${stopped}  ${s.dim(`(${formatDuration(o.durationMs)})`)}`);
        break;
      }
      case 'case-end':
        if (this.opts.verbose) {
          for (const r of event.results) {
            if (r.status !== 'pass') this.line(`    ${s.dim(this.oneLine(r))}`);
          }
        }
        break;
      case 'cleanup':
        if (!event.ok) this.cleanupFailures.push(`${sanitize(event.suite)}: ${sanitize(event.message)}`);
        break;
      case 'run-end':
        this.interrupted = event.interrupted;
        break;
      case 'run-start':
      case 'suite-start':
      case 'waiting':
        break;
    }
  }

  private oneLine(r: CheckResult): string {
    return `${r.status.toUpperCase()} ${sanitize(r.check)}  ${sanitize(caseLabel(r))}: ${sanitize(r.message).replace(/\n/g, ' ')}`;
  }

  end(report: Report, paths?: ReportPaths): void {
    const s = this.s;
    const blocking = report.results.filter((r) => r.status === 'fail' || r.status === 'error');
    const warnings = report.results.filter((r) => r.status === 'warn');

    if (blocking.length > 0) {
      this.line();
      blocking.forEach((r, i) => {
        this.line(`${i + 1}) ${renderFailure(r, { color: this.opts.color, markdown: false })}`);
        this.line();
      });
      if (this.opts.reproduceHint && blocking.some((r) => r.reproduce)) {
        this.line(s.yellow(this.opts.reproduceHint));
        this.line();
      }
    }
    if (warnings.length > 0) {
      if (blocking.length === 0) this.line();
      this.line(s.yellow(`Warnings (should; they never fail the run):`));
      for (const r of warnings) {
        this.line(`  ${sanitize(r.check)}  ${sanitize(caseLabel(r))}: ${sanitize(r.message).replace(/\n/g, ' ')}`);
      }
      this.line();
    }
    if (this.cleanupFailures.length > 0) {
      this.line(s.yellow('Cleanup failures (resources may be left on the target):'));
      for (const c of this.cleanupFailures) this.line(`  ${c}`);
      this.line();
    }
    if (report.interrupted || this.interrupted) this.line(s.yellow('Run interrupted: results are partial.'));

    if (this.emptySuites.length > 0) this.line(s.dim(`${plural(this.emptySuites.length, 'suite', 'suites')} with no case in the selection: ${this.emptySuites.join(', ')}`));
    const m = report.summary;
    const verdict = report.verdict === 'pass' ? s.green('PASS') : report.verdict === 'error' ? s.red('ERROR (a problem of the run, not a verdict on the target)') : s.red('FAIL');
    const extra = [m.blocked > 0 ? `${m.blocked} blocked` : '', m.notExercised > 0 ? `${m.notExercised} not exercised` : ''].filter(Boolean).map((x) => `, ${x}`).join('');
    this.line(
      `${m.passed} passed, ${m.failed} failed, ${plural(m.warnings, 'warning', 'warnings')}, ${m.skipped} skipped${extra}, ${plural(m.errors, 'error', 'errors')} — verdict ${verdict}  ${s.dim(`(${formatDuration(report.durationMs)}, seed ${report.seed})`)}`,
    );
    const c = report.coverage.totals;
    const errored = c.errored > 0 ? `, ${c.errored} errored` : '';
    // A run of part of the harness (--only, --suite, --grep) is measured against what its cases cite, not the catalogue.
    const cited = Object.values(report.coverage.requirements).filter((e) => e.status !== 'untestable' && e.pass + e.fail + e.warn + e.skip + e.error + e.blocked + e['not-exercised'] > 0).length;
    const scope = cited < c.testable ? `${c.exercised}/${cited} requirements this run's cases cite exercised (${c.testable} testable in the catalogue)` : `${c.exercised}/${c.testable} testable requirements exercised`;
    this.line(`coverage: ${scope}; ${c.failed} failed${errored}`);
    if (report.retries) this.line(retriesSentence(report.retries));
    if (paths) this.line(s.dim(`reports: ${paths.json}, ${paths.junit}, ${paths.markdown}, ${paths.html}`));
  }
}
