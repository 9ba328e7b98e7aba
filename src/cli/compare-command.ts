// `conformance compare REPORT...`: several report.json files, each from another implementation, as one matrix:
// implementations × area and requirement, one status per cell, and the requirements on which they differ first.
// Written as compare.md and compare.html (self-contained) in --report-dir.

import { readReport } from '../run/read-report.ts';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadCatalogue } from '../catalogue/load.ts';
import type { Report } from '../report/types.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { parseFlags } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import type { Io } from '../run/io.ts';
import { UsageError } from '../run/usage-error.ts';

export const COMPARE_FLAGS = { 'report-dir': { type: 'string' }, name: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } } as const;

export const COMPARE_HELP = `Usage: conformance compare REPORT... [--name NAME]... [--report-dir DIR]

Compares the report.json files of several implementations: a matrix of implementations × area and
requirement (passed, failed, warned, skipped, blocked, not exercised per cell), with the requirements on which
they differ listed first. Writes compare.md and compare.html (self-contained) to DIR (default ./reports).
--name names the implementations in order (default: each report's target).`;

/** Cell marks: a status is always a mark and a word, never a colour alone. */
const MARK: Record<string, string> = { passed: '✔ pass', failed: '✖ FAIL', warned: '⚠ warn', skipped: '↷ skip', errored: '‼ error', blocked: '‖ blocked', 'not-exercised': '∅ not exercised', untestable: '· untestable' };
const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const cellOf = (r: Report, id: string) => r.coverage.requirements[id]?.status ?? 'absent';

interface Matrix { names: string[]; rows: Array<{ id: string; area: string; statement: string; cells: string[]; differs: boolean }> }

export function compareReports(reports: readonly Report[], names: readonly string[]): Matrix {
  const catalogue = loadCatalogue();
  const ids = [...new Set(reports.flatMap((r) => Object.keys(r.coverage.requirements)))];
  const rows = ids.map((id) => {
    const cells = reports.map((r) => cellOf(r, id));
    const req = catalogue.byId.get(id);
    return { id, area: req?.area ?? 'other', statement: req?.statement ?? '', cells, differs: new Set(cells).size > 1 };
  }).filter((row) => row.cells.some((c) => c !== 'untestable'));
  rows.sort((a, b) => a.area.localeCompare(b.area) || a.id.localeCompare(b.id));
  return { names: [...names], rows };
}

function markdown(m: Matrix, reports: readonly Report[]): string {
  const head = `| requirement | ${m.names.map((n) => n.replace(/\|/g, '\\|')).join(' | ')} |\n|---|${m.names.map(() => '---').join('|')}|`;
  const line = (row: Matrix['rows'][number]) => `| \`${row.id}\` | ${row.cells.map((c) => MARK[c] ?? c).join(' | ')} |`;
  const differing = m.rows.filter((r) => r.differs);
  const byArea = [...new Set(m.rows.map((r) => r.area))];
  return [
    `# Conformance compared: ${m.names.join(' · ')}`,
    '',
    `| implementation | verdict | passed | failed | warnings | blocked | not exercised |\n|---|---|---|---|---|---|---|`,
    ...reports.map((r, i) => `| ${m.names[i]} | ${r.verdict.toUpperCase()} | ${r.summary.passed} | ${r.summary.failed} | ${r.summary.warnings} | ${r.summary.blocked} | ${r.summary.notExercised} |`),
    '',
    `## Requirements on which they differ (${differing.length})`,
    '',
    differing.length ? `${head}\n${differing.map(line).join('\n')}` : 'None: every requirement has the same status everywhere.',
    '',
    '## All requirements, by area',
    '',
    ...byArea.flatMap((area) => [`<details><summary>${area}</summary>`, '', head, ...m.rows.filter((r) => r.area === area).map(line), '', '</details>', '']),
  ].join('\n');
}

function html(m: Matrix, reports: readonly Report[]): string {
  const cls = (c: string) => `c-${c.replace(/[^a-z-]/g, '')}`;
  const table = (rows: Matrix['rows']) => `<table><thead><tr><th scope="col">requirement</th>${m.names.map((n) => `<th scope="col">${esc(n)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr><th scope="row" title="${esc(r.statement)}"><code>${esc(r.id)}</code></th>${r.cells.map((c) => `<td class="${cls(c)}">${esc(MARK[c] ?? c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  const differing = m.rows.filter((r) => r.differs);
  const areas = [...new Set(m.rows.map((r) => r.area))];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>conformance compared</title><style>
body{font:14px/1.45 system-ui,sans-serif;max-width:1200px;margin:0 auto;padding:1rem 1.5rem}table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.2rem .5rem;text-align:left}
.c-passed{color:#1a7f37}.c-failed{color:#cf222e;font-weight:600}.c-warned{color:#9a6700}.c-blocked{color:#8250df}.c-not-exercised{color:#0969da}.c-skipped,.c-untestable,.c-absent{color:#6e7781}
</style></head><body><h1>Conformance compared</h1>
<table><thead><tr><th scope="col">implementation</th><th scope="col">verdict</th><th scope="col">passed</th><th scope="col">failed</th><th scope="col">warnings</th><th scope="col">blocked</th><th scope="col">not exercised</th></tr></thead><tbody>
${reports.map((r, i) => `<tr><th scope="row">${esc(m.names[i])}</th><td>${esc(r.verdict.toUpperCase())}</td><td>${r.summary.passed}</td><td>${r.summary.failed}</td><td>${r.summary.warnings}</td><td>${r.summary.blocked}</td><td>${r.summary.notExercised}</td></tr>`).join('')}
</tbody></table>
<h2>Requirements on which they differ (${differing.length})</h2>${differing.length ? table(differing) : '<p>None.</p>'}
<h2>All requirements, by area</h2>${areas.map((a) => `<details><summary>${esc(a)}</summary>${table(m.rows.filter((r) => r.area === a))}</details>`).join('')}
</body></html>
`;
}

export async function compareCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, COMPARE_FLAGS);
  if (flags.help) { io.out.write(COMPARE_HELP + '\n'); return EXIT.ok; }
  if (positionals.length < 2) throw new UsageError('give two or more report.json files (conformance compare REPORT REPORT...)');
  const reports = positionals.map((p) => readReport(p));
  if (flags.name && flags.name.length !== reports.length) throw new UsageError(`--name is given ${flags.name.length} times for ${reports.length} reports`);
  const names = flags.name ?? reports.map((r, i) => `${r.target.baseUrl}${reports.filter((o) => o.target.baseUrl === r.target.baseUrl).length > 1 ? ` #${i + 1}` : ''}`);
  const m = compareReports(reports, names);
  const dir = resolve(flags['report-dir'] ?? 'reports');
  await mkdir(dir, { recursive: true });
  const [md, page] = [join(dir, 'compare.md'), join(dir, 'compare.html')];
  await writeFileAtomic(md, markdown(m, reports));
  await writeFileAtomic(page, html(m, reports));
  io.out.write(`${reports.length} implementations, ${m.rows.length} requirements, ${m.rows.filter((r) => r.differs).length} on which they differ\nwritten: ${md}, ${page}\n`);
  return EXIT.ok;
}
