// summary.md: a readable run summary for PR comments and CI job summaries.

import { join } from 'node:path';
import type { Catalogue } from '../catalogue/types.ts';
import type { CheckResult, ResultStatus } from '../engine/types.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { COVERAGE_STATUSES } from './coverage.ts';
import { emptyCounts, groupBySuite } from './group.ts';
import { renderFailure } from './render-failure.ts';
import { formatDuration, retriesSentence, sanitize, truncate } from './text.ts';
import type { CoverageEntry, Report } from './types.ts';

/** Escape a table cell: pipes, newlines, and characters that would open markup. */
export function mdCell(value: string | number): string {
  return sanitize(String(value))
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/\r?\n/g, '<br>');
}

function table(header: string[], rows: (string | number)[][]): string {
  const lines = [`| ${header.map(mdCell).join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.map(mdCell).join(' | ')} |`);
  return lines.join('\n');
}

/** Most failures (or warnings) shown in full: a big failing run keeps a summary a person can read. */
export const SUMMARY_MAX_SHOWN = 50;

function section(title: string, results: CheckResult[], empty: string): string[] {
  const out = [`## ${title} (${results.length})`, ''];
  if (results.length === 0) out.push(empty, '');
  for (const r of results.slice(0, SUMMARY_MAX_SHOWN)) out.push(renderFailure(r, { color: false, markdown: true }), '');
  if (results.length > SUMMARY_MAX_SHOWN) out.push(`… and ${results.length - SUMMARY_MAX_SHOWN} more: report.json holds them all.`, '');
  return out;
}

export function renderMarkdown(report: Report, catalogue: Catalogue): string {
  const s = report.summary;
  const t = report.target;
  const out: string[] = [];
  out.push(`# Conformance: ${report.verdict === 'pass' ? 'PASS' : report.verdict === 'error' ? 'ERROR (a problem of the run, not a verdict)' : 'FAIL'}${report.interrupted ? ' (interrupted)' : ''}`, '');
  out.push(
    `- **Target:** ${mdCell(t.baseUrl)}${t.pluginUrl ? ` (plugin: ${mdCell(t.pluginUrl)})` : ''} via ${mdCell(t.transport)}${t.faults?.length ? ` with faults ${mdCell(t.faults.join(', '))}` : ''}`,
  );
  const models = Object.entries(t.models);
  if (models.length > 0) out.push(`- **Models:** ${models.map(([k, v]) => `${mdCell(k)}=${mdCell(v)}`).join(', ')}`);
  out.push(`- **Areas claimed:** ${t.areas.length > 0 ? t.areas.map(mdCell).join(', ') : 'none'}`);
  out.push(`- **Spec:** ${mdCell(report.spec)} · **Tool:** ${mdCell(`${report.tool.name} ${report.tool.version}`)}`);
  out.push(`- **Seed:** ${report.seed} · **Started:** ${mdCell(report.startedAt)} · **Duration:** ${formatDuration(report.durationMs)}`);
  if (report.retries) out.push(`- **Retries:** ${mdCell(retriesSentence(report.retries))}`);
  out.push(
    `- **Checks:** ${s.passed} passed, ${s.failed} failed, ${s.warnings} ${s.warnings === 1 ? 'warning' : 'warnings'}, ${s.skipped} skipped, ${s.blocked} blocked, ${s.notExercised} not exercised, ${s.errors} ${s.errors === 1 ? 'error' : 'errors'} (${s.total} total)`,
    '',
  );

  // What a reader needs first: problems of the run, then failures, then warnings; the tables come after.
  for (const p of report.problems ?? []) out.push(`> **Problem of the run${p.suite ? ` (suite ${mdCell(p.suite)})` : ''}:** ${mdCell(p.message)}${p.hint ? ` — ${mdCell(p.hint)}` : ''}`, '');
  const of = (status: ResultStatus) => report.results.filter((r) => r.status === status);
  out.push(...section('Failures (must)', of('fail'), 'No failures.'));
  out.push(...section('Errors', of('error'), 'No errors.'));
  out.push(...section('Warnings (should)', of('warn'), 'No warnings.'));

  // Results by area.
  const areas = new Map<string, { suites: number; counts: Record<ResultStatus, number> }>();
  for (const g of groupBySuite(report)) {
    let a = areas.get(g.area);
    if (!a) {
      a = { suites: 0, counts: emptyCounts() };
      areas.set(g.area, a);
    }
    a.suites++;
    for (const k of Object.keys(g.counts) as ResultStatus[]) a.counts[k] += g.counts[k];
  }
  out.push('## Results by area', '');
  out.push(
    table(
      ['Area', 'Suites', 'Passed', 'Failed', 'Warnings', 'Skipped', 'Blocked', 'Not exercised', 'Errors'],
      [...areas].map(([area, a]) => [area, a.suites, a.counts.pass, a.counts.fail, a.counts.warn, a.counts.skip, a.counts.blocked, a.counts['not-exercised'], a.counts.error]),
    ),
    '',
  );

  // Coverage.
  const ct = report.coverage.totals;
  out.push('## Requirement coverage', '');
  out.push(
    `${ct.exercised}/${ct.testable} testable requirements exercised (${ct.requirements} in the catalogue, ${ct.untestable} untestable).`,
    '',
  );
  out.push('<details><summary>Every requirement, by area</summary>', '');
  out.push(table([...COVERAGE_STATUSES], [COVERAGE_STATUSES.map((k) => ct[k])]), '');

  const byArea = new Map<string, [string, CoverageEntry][]>();
  const ordered: string[] = [
    ...catalogue.list.map((r) => r.id).filter((id) => id in report.coverage.requirements),
    ...Object.keys(report.coverage.requirements).filter((id) => !catalogue.byId.has(id)),
  ];
  for (const id of ordered) {
    const e = report.coverage.requirements[id];
    if (!e) continue;
    const list = byArea.get(e.area) ?? [];
    list.push([id, e]);
    byArea.set(e.area, list);
  }
  for (const [area, entries] of byArea) {
    out.push(`### ${mdCell(area)}`, '');
    out.push(
      table(
        ['ID', 'Area', 'Severity', 'Status', 'Pass', 'Fail', 'Warn', 'Skip', 'Error', 'Note'],
        entries.map(([id, e]) => [
          id,
          e.area,
          e.severity,
          e.status,
          e.pass,
          e.fail,
          e.warn,
          e.skip,
          e.error,
          truncate(e.reason ?? '', 160),
        ]),
      ),
      '',
    );
  }

  out.push('</details>', '');
  return `${out.join('\n').trimEnd()}\n`;
}

export async function writeMarkdown(dir: string, report: Report, catalogue: Catalogue): Promise<string> {
  const path = join(dir, 'summary.md');
  await writeFileAtomic(path, renderMarkdown(report, catalogue));
  return path;
}
