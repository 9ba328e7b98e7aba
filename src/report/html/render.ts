// report.html: one self-contained page (inline CSS and JS, no network), readable without JavaScript, with
// filters when it runs. Order: verdict and counts; problems of the run; must-failures grouped by root cause (what
// they blocked folded under them); warnings; the coverage grid; every result, folded per suite.
// Everything from a target is escaped: a response body is data, never markup.

import type { Catalogue } from '../../catalogue/types.ts';
import type { CheckResult, ResultStatus } from '../../engine/types.ts';
import type { Report } from '../types.ts';
import { formatDuration } from '../text.ts';
import { PAGE_SCRIPT } from './script.ts';
import { PAGE_STYLE } from './styles.ts';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** A report of thousands of passes escapes tens of thousands of strings, nearly all of them with nothing to escape. */
const esc = (s: unknown): string => {
  const text = String(s ?? '');
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ENTITIES[c]!) : text;
};

/** Status words and marks: colour is never the only signal. */
export const STATUS_LABEL: Record<ResultStatus, { mark: string; word: string }> = {
  pass: { mark: '✔', word: 'pass' },
  fail: { mark: '✖', word: 'FAIL' },
  warn: { mark: '⚠', word: 'warn' },
  skip: { mark: '↷', word: 'skip' },
  error: { mark: '‼', word: 'ERROR' },
  blocked: { mark: '‖', word: 'blocked' },
  'not-exercised': { mark: '∅', word: 'not exercised' },
};

const COVERAGE_LABEL: Record<string, { mark: string; cls: ResultStatus }> = {
  passed: { mark: '✔', cls: 'pass' },
  failed: { mark: '✖', cls: 'fail' },
  warned: { mark: '⚠', cls: 'warn' },
  skipped: { mark: '↷', cls: 'skip' },
  errored: { mark: '‼', cls: 'error' },
  blocked: { mark: '‖', cls: 'blocked' },
  'not-exercised': { mark: '∅', cls: 'not-exercised' },
  untestable: { mark: '·', cls: 'skip' },
};

const resultId = (r: CheckResult) => `r-${r.suite}-${r.case}-${r.check}`.replace(/[^A-Za-z0-9_-]/g, '_');
const areaOf = (r: CheckResult, catalogue: Catalogue) => catalogue.byId.get(r.requirements[0] ?? '')?.area ?? r.suite;

function attrs(r: CheckResult, catalogue: Catalogue): string {
  const text = `${r.suite} ${r.case} ${r.check} ${r.requirements.join(' ')} ${r.message}`.toLowerCase();
  return `data-area="${esc(areaOf(r, catalogue))}" data-severity="${esc(r.severity)}" data-status="${esc(r.status)}" data-text="${esc(text.slice(0, 600))}"`;
}

function badge(status: ResultStatus): string {
  const l = STATUS_LABEL[status];
  return `<span class="badge s-${status}"><span aria-hidden="true">${l.mark}</span> ${esc(l.word)}</span>`;
}

function requestBlock(r: CheckResult): string {
  if (!r.request) return '';
  const headers = Object.entries(r.request.headers).map(([k, v]) => `${esc(k)}: ${esc(v)}`).join('\n');
  const body = r.request.body.kind === 'none' ? '' : `\n\n${esc(JSON.stringify(r.request.body.kind === 'multipart' ? { fields: r.request.body.fields, files: r.request.body.files.map((f) => `${f.filename} (${f.contentType}, ${f.size} bytes)`) } : r.request.body.value, null, 1).slice(0, 4000))}`;
  return `<details><summary>request: ${esc(r.request.method)} ${esc(r.request.url)}</summary><pre>${headers}${body}</pre></details>`;
}

function responseBlock(r: CheckResult): string {
  const x = r.response;
  if (!x) return '';
  const head = x.error ? `no complete response: ${esc(x.error)}` : `${esc(x.status)} ${esc(x.contentType ?? '')}`;
  return `<details><summary>response: ${head}</summary>${x.message ? `<p class="said">the server said: ${esc(x.message)}</p>` : ''}${x.excerpt ? `<pre>${esc(x.excerpt)}</pre>` : ''}</details>`;
}

function findingsTable(r: CheckResult): string {
  if (!r.findings?.length) return '';
  // "" is the whole document in RFC 6901; "/" would be its member named "" (the console says "(root)" too).
  const rows = r.findings.slice(0, 50).map((f) => `<tr><td><code>${esc(f.pointer || '(root)')}</code></td><td>${esc(f.message)}</td><td><code>${esc(JSON.stringify(f.expected))}</code></td><td><code>${esc(JSON.stringify(f.actual))}</code></td></tr>`).join('');
  return `<table class="findings"><thead><tr><th scope="col">at</th><th scope="col">what</th><th scope="col">expected</th><th scope="col">actual</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function rules(r: CheckResult, catalogue: Catalogue): string {
  const items = r.requirements.map((id) => {
    const req = catalogue.byId.get(id);
    return `<li><a href="#req-${esc(id)}"><code>${esc(id)}</code></a>${req ? ` <span class="sev">(${esc(req.severity)})</span> — <q>${esc(req.text)}</q>` : ''}</li>`;
  });
  return items.length ? `<ul class="rules">${items.join('')}</ul>` : '<p class="rules">cites no requirement (uncatalogued)</p>';
}

function failureCard(r: CheckResult, blocked: readonly CheckResult[], catalogue: Catalogue): string {
  const folded = blocked.length
    ? `<details class="blocked"><summary>${blocked.length} result${blocked.length === 1 ? '' : 's'} blocked by this (not judged)</summary><ul>${blocked.slice(0, 200).map((b) => `<li>${badge(b.status)} ${esc(b.suite)} › ${esc(b.case)} · ${esc(b.check)}</li>`).join('')}</ul></details>`
    : '';
  return `<article class="card" id="${resultId(r)}" ${attrs(r, catalogue)}>
<h3>${badge(r.status)} ${esc(r.message)}</h3>
<p class="where">${esc(r.suite)} › <strong>${esc(r.case)}</strong> — ${esc(r.caseTitle)} · check <code>${esc(r.check)}</code> · ${esc(r.severity)}${r.source ? ` · <code>${esc(r.source)}</code>` : ''}</p>
${rules(r, catalogue)}
${findingsTable(r)}
${requestBlock(r)}
${responseBlock(r)}
${r.reproduce ? `<p class="repro"><code>${esc(r.reproduce)}</code> <button type="button" class="copy" data-copy="${esc(r.reproduce)}">copy</button></p>` : ''}
${folded}
</article>`;
}

function coverageGrid(report: Report, catalogue: Catalogue): string {
  const byArea = new Map<string, Array<[string, string]>>();
  for (const [id, entry] of Object.entries(report.coverage.requirements)) {
    const area = catalogue.byId.get(id)?.area ?? 'other';
    if (!byArea.has(area)) byArea.set(area, []);
    byArea.get(area)!.push([id, entry.status]);
  }
  const legend = Object.entries(COVERAGE_LABEL).map(([k, v]) => `<span class="cell s-${v.cls}"><span aria-hidden="true">${v.mark}</span> ${esc(k)}</span>`).join(' ');
  // By area name: a bare sort() compared each entry as a string, its whole list of requirements with it, at
  // every comparison (5 ms of a report's rendering).
  // Only a requirement some result cites has results to link to (allResultsParts anchors each at its first); an
  // untestable or unexercised one is a cell without a link, not a link to nowhere.
  const cited = new Set(report.results.flatMap((r) => r.requirements));
  const rows = [...byArea].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([area, reqs]) => {
    const cells = reqs.map(([id, status]) => {
      const l = COVERAGE_LABEL[status] ?? { mark: '?', cls: 'skip' as ResultStatus };
      const req = catalogue.byId.get(id);
      const [open, close] = cited.has(id) ? [`a href="#results-${esc(id)}"`, 'a'] : ['span', 'span'];
      return `<${open} class="cell s-${l.cls}" id="req-${esc(id)}" title="${esc(`${id}: ${status}${req ? ` — ${req.statement}` : ''}`)}" data-area="${esc(area)}" data-status="${esc(l.cls)}" data-text="${esc(`${id} ${req?.statement ?? ''}`.toLowerCase())}"><span aria-hidden="true">${l.mark}</span><span class="sr">${esc(id)} ${esc(status)}</span></${close}>`;
    }).join('');
    return `<tr><th scope="row">${esc(area)}</th><td>${cells}</td></tr>`;
  }).join('');
  return `<p class="legend">${legend}</p><table class="grid"><tbody>${rows}</tbody></table>`;
}

/** Every result, folded per suite: yielded row by row (a run of thousands of results is a page of megabytes). */
function* allResultsParts(report: Report, catalogue: Catalogue): Generator<string> {
  const bySuite = new Map<string, CheckResult[]>();
  for (const r of report.results) {
    if (!bySuite.has(r.suite)) bySuite.set(r.suite, []);
    bySuite.get(r.suite)!.push(r);
  }
  // Anchors for the coverage grid: the first result citing each requirement.
  const anchored = new Set<string>();
  let first = true;
  for (const [suite, rs] of bySuite) {
    if (!first) yield '\n';
    first = false;
    const counts = rs.reduce<Record<string, number>>((c, r) => ((c[r.status] = (c[r.status] ?? 0) + 1), c), {});
    yield `<details class="suite"><summary><strong>${esc(suite)}</strong> — ${Object.entries(counts).map(([k, n]) => `${n} ${esc(STATUS_LABEL[k as ResultStatus]?.word ?? k)}`).join(' · ')}</summary>
<table class="results"><thead><tr><th scope="col">status</th><th scope="col">case</th><th scope="col">check</th><th scope="col">requirements</th><th scope="col">message</th></tr></thead><tbody>`;
    for (const r of rs) {
      const anchors = r.requirements.filter((id) => !anchored.has(id)).map((id) => (anchored.add(id), `<span id="results-${esc(id)}"></span>`)).join('');
      // With --report-passes a pass keeps what it looked at: shown folded under its message.
      const evidence = r.status === 'pass' && (r.request || r.response) ? `${requestBlock(r)}${responseBlock(r)}` : '';
      yield `<tr ${attrs(r, catalogue)}><td>${anchors}${badge(r.status)}</td><td>${esc(r.case)}</td><td><code>${esc(r.check)}</code></td><td>${esc(r.requirements.join(' '))}</td><td>${esc(r.message.slice(0, 300))}${evidence}</td></tr>`;
    }
    yield '</tbody></table></details>';
  }
}

function filters(report: Report, catalogue: Catalogue): string {
  const areas = [...new Set(report.results.map((r) => areaOf(r, catalogue)))].sort();
  const option = (v: string) => `<option value="${esc(v)}">${esc(v)}</option>`;
  return `<form class="filters" role="search" aria-label="filter results" onsubmit="return false">
<label>area <select name="area"><option value="">all</option>${areas.map(option).join('')}</select></label>
<label>severity <select name="severity"><option value="">all</option>${option('must')}${option('should')}</select></label>
<label>status <select name="status"><option value="">all</option>${Object.keys(STATUS_LABEL).map(option).join('')}</select></label>
<label>search <input type="search" name="q" placeholder="case, check, requirement, message"></label>
<output name="shown" aria-live="polite"></output>
</form>`;
}

export function renderHtml(report: Report, catalogue: Catalogue): string {
  return [...renderHtmlParts(report, catalogue)].join('');
}

/** The page in parts, in order: what writeHtml streams to the file. */
export function* renderHtmlParts(report: Report, catalogue: Catalogue): Generator<string> {
  const s = report.summary;
  const failures = report.results.filter((r) => r.status === 'fail' || r.status === 'error');
  const blockedBy = new Map<string, CheckResult[]>();
  for (const r of report.results) {
    if (r.status !== 'blocked' || !r.blockedBy) continue;
    const key = `${r.blockedBy.suite}/${r.blockedBy.case}/${r.blockedBy.check}`;
    if (!blockedBy.has(key)) blockedBy.set(key, []);
    blockedBy.get(key)!.push(r);
  }
  const warnings = report.results.filter((r) => r.status === 'warn');
  const verdict = report.verdict === 'pass' ? ['pass', '✔ PASS'] : report.verdict === 'error' ? ['error', '‼ ERROR — a problem of the run, not a verdict on the target'] : ['fail', '✖ FAIL'];
  const counts: Array<[ResultStatus, number]> = [['pass', s.passed], ['fail', s.failed], ['warn', s.warnings], ['skip', s.skipped], ['blocked', s.blocked], ['not-exercised', s.notExercised], ['error', s.errors]];
  const t = report.target;
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>conformance ${esc(report.verdict.toUpperCase())} — ${esc(t.baseUrl)}</title>
<style>${PAGE_STYLE}</style></head>
<body>
<header>
<h1 class="verdict v-${verdict[0]}">${esc(verdict[1])}</h1>
<p class="counts">${counts.map(([k, n]) => `<span class="badge s-${k}"><span aria-hidden="true">${STATUS_LABEL[k].mark}</span> ${n} ${esc(STATUS_LABEL[k].word)}</span>`).join(' ')}</p>
<dl class="meta"><dt>target</dt><dd>${esc(t.baseUrl)} (${esc(t.transport)})${t.faults?.length ? `, with faults ${esc(t.faults.join(', '))}` : ''}</dd><dt>tool</dt><dd>${esc(report.tool.name)} ${esc(report.tool.version)}</dd><dt>seed</dt><dd>${esc(report.seed)}</dd><dt>duration</dt><dd>${esc(formatDuration(report.durationMs))}</dd><dt>started</dt><dd>${esc(report.startedAt)}</dd><dt>coverage</dt><dd>${report.coverage.totals.exercised}/${report.coverage.totals.testable} testable requirements exercised, ${report.coverage.totals.failed} failed</dd>${report.retries ? `<dt>retries</dt><dd>${report.retries.count} after ${esc(Object.keys(report.retries.byStatus).join(', '))}, ${esc(formatDuration(report.retries.waitedMs))} waited</dd>` : ''}</dl>
</header>
<nav aria-label="sections"><a href="#failures">failures (${failures.length})</a> · <a href="#warnings">warnings (${warnings.length})</a> · <a href="#coverage">coverage</a> · <a href="#results">all results (${report.results.length})</a></nav>
${filters(report, catalogue)}
<main>
${report.problems.length ? `<section id="problems"><h2>Problems of the run</h2><ul>${report.problems.map((p) => `<li><strong>${esc(p.kind)}</strong>: ${esc(p.message)}${p.hint ? ` — ${esc(p.hint)}` : ''}</li>`).join('')}</ul></section>` : ''}
<section id="failures"><h2>Failures (${failures.length})</h2>
${failures.length ? failures.map((r) => failureCard(r, blockedBy.get(`${r.suite}/${r.case}/${r.check}`) ?? [], catalogue)).join('\n') : '<p>No must-rule was broken.</p>'}
</section>
<section id="warnings"><h2>Warnings (${warnings.length}) — should-rules; they never fail a run</h2>
${warnings.length ? warnings.map((r) => failureCard(r, [], catalogue)).join('\n') : '<p>None.</p>'}
</section>
<section id="coverage"><h2>Coverage: requirement × status, by area</h2>${coverageGrid(report, catalogue)}</section>
<section id="results"><h2>All results</h2>`;
  yield* allResultsParts(report, catalogue);
  yield `</section>
</main>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
