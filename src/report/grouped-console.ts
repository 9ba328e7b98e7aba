// The console in grouped mode, for `conformance plugin`: one line per check group as it ends (a plugin author
// reads a short list, not suites), then every failure and warning in full, the verdict, and where the files are.

import { emptyCounts, type CheckResult, type ResultStatus, type RunEvent } from '../engine/types.ts';
import type { OutputReporter } from './reporter.ts';
import { renderFailure } from './render-failure.ts';
import { style, type Style } from './text.ts';
import type { Report, ReportPaths } from './types.ts';

export class GroupedConsoleReporter implements OutputReporter {
  readonly kind = 'output';
  readonly name = 'console-grouped';
  /** Each group's line counts its results and names the requirements it failed. */
  readonly readsCaseResults = true;
  readonly #out: { write(s: string): unknown };
  readonly #color: boolean;
  readonly #s: Style;

  constructor(out: { write(s: string): unknown }, color: boolean) {
    this.#out = out;
    this.#color = color;
    this.#s = style(color);
  }

  onEvent(e: RunEvent): void {
    if (e.type !== 'case-end') return;
    this.#out.write(groupLine(e.case, e.results[0]?.caseTitle ?? e.case, e.results, this.#s) + '\n');
  }

  end(report: Report, files: ReportPaths): void {
    const s = this.#s;
    const problems = report.results.filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'warn');
    if (problems.length) {
      this.#out.write('\n');
      for (const r of problems.sort((a, b) => rank(a.status) - rank(b.status))) this.#out.write(renderFailure(r, { color: this.#color, markdown: false }) + '\n\n');
    }
    const sum = report.summary;
    const verdict = report.verdict === 'pass' ? s.green('PASS') : report.verdict === 'error' ? s.red('ERROR (a problem of the run, not a verdict on the plugin)') : s.red('FAIL');
    this.#out.write(`\n${verdict} · ${sum.passed} passed · ${sum.failed} failed · ${sum.warnings} warnings · ${sum.skipped} skipped · ${sum.errors} errors\n`);
    this.#out.write(s.dim(`reports: ${files.json} · ${files.junit} · ${files.markdown} · ${files.html}`) + '\n');
  }
}

function rank(status: ResultStatus): number {
  return status === 'error' ? 0 : status === 'fail' ? 1 : 2;
}

/** One line per check group: a mark, the group, its counts and the requirement IDs it failed. */
export function groupLine(id: string, title: string, results: readonly CheckResult[], s: Style): string {
  const c: Record<ResultStatus, number> = emptyCounts();
  for (const r of results) c[r.status]++;
  const mark = c.fail || c.error ? s.red('✗') : c.warn ? s.yellow('!') : c.pass ? s.green('✓') : s.dim('-');
  const parts = [c.pass && `${c.pass} passed`, c.fail && s.red(`${c.fail} failed`), c.error && s.red(`${c.error} errors`), c.warn && s.yellow(`${c.warn} warnings`), c.skip && `${c.skip} skipped`].filter(Boolean);
  const failed = [...new Set(results.filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'warn').flatMap((r) => r.requirements))];
  const skipNote = results.length === 1 && results[0]!.status === 'skip' ? ` — ${results[0]!.message}` : '';
  return `${mark} ${id.padEnd(14)} ${title}: ${parts.join(', ')}${failed.length ? ` [${failed.join(', ')}]` : ''}${skipNote}`;
}
