// GitHub Actions: when GITHUB_ACTIONS=true, a compact step summary ($GITHUB_STEP_SUMMARY) and workflow-command
// annotations that point at the YAML line of each failing case. Both are bounded: a big failing run stays
// readable, and GitHub's own annotation limits are respected.

import { appendFileSync } from 'node:fs';
import type { CheckResult } from '../engine/types.ts';
import { groupBySuite } from './group.ts';
import { retriesSentence, sanitize } from './text.ts';
import type { Report } from './types.ts';

/** GitHub shows at most 10 error and 10 warning annotations per step; a few more are kept for the log. */
export const MAX_ANNOTATIONS = { error: 20, warning: 20 } as const;
export const MAX_SUMMARY_FAILURES = 50;

/** `::error file=…,line=…,col=…,title=…::message`, escaped as the workflow-command format requires. */
export function annotations(report: Report): string[] {
  const out: string[] = [];
  for (const [status, level] of [['fail', 'error'], ['warn', 'warning']] as const) {
    const unique = new Map<string, CheckResult>();
    for (const r of report.results) if (r.status === status) unique.set(`${r.suite}|${r.case}|${r.check}|${r.message}`, unique.get(`${r.suite}|${r.case}|${r.check}|${r.message}`) ?? r);
    const list = [...unique.values()];
    for (const r of list.slice(0, MAX_ANNOTATIONS[level])) out.push(`::${level} ${properties(r)}::${escapeData(`${r.check}: ${r.message}${r.reproduce ? `\nreproduce: ${r.reproduce}` : ''}`)}`);
    if (list.length > MAX_ANNOTATIONS[level]) out.push(`::notice::${escapeData(`${list.length - MAX_ANNOTATIONS[level]} more ${level === 'error' ? 'failures' : 'warnings'}: see the step summary and report.json`)}`);
  }
  return out;
}

function properties(r: CheckResult): string {
  const m = r.source ? /^(.*):(\d+):(\d+)$/.exec(r.source) : null;
  const title = `${r.suite} › ${r.case} (${r.requirements.join(', ') || 'uncatalogued'})`;
  return [m ? `file=${escapeProperty(m[1]!)},line=${m[2]},col=${m[3]}` : '', `title=${escapeProperty(title)}`].filter(Boolean).join(',');
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The step summary: verdict and counts first, then failures (bounded, with where to find the rest), then areas. */
export function stepSummary(report: Report, artifactUrl?: string): string {
  const s = report.summary;
  const verdict = report.verdict === 'pass' ? '✅ PASS' : report.verdict === 'error' ? '⚠️ ERROR (a problem of the run, not a verdict)' : '❌ FAIL';
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : '';
  const out = [`## Conformance: ${verdict}${shard}`, '', `**${s.failed}** failed · **${s.errors}** errors · ${s.warnings} warnings · ${s.passed} passed · ${s.blocked} blocked · ${s.notExercised} not exercised · ${s.skipped} skipped — target ${cell(report.target.baseUrl)}, seed ${report.seed}`, ''];
  if (report.retries) out.push(`${cell(retriesSentence(report.retries))}.`, '');
  for (const p of report.problems ?? []) out.push(`> **Problem of the run:** ${cell(p.message)}${p.hint ? ` — ${cell(p.hint)}` : ''}`, '');
  const failures = report.results.filter((r) => r.status === 'fail' || r.status === 'error');
  if (failures.length > 0) {
    out.push('| | case | check | what went wrong | where |', '|---|---|---|---|---|');
    for (const r of failures.slice(0, MAX_SUMMARY_FAILURES)) out.push(`| ${r.status === 'fail' ? '❌' : '💥'} | ${cell(`${r.suite} › ${r.case}`)} | ${cell(r.check)} | ${cell(r.message.slice(0, 300))} | ${cell(r.source ?? '')} |`);
    if (failures.length > MAX_SUMMARY_FAILURES) out.push('', `… and ${failures.length - MAX_SUMMARY_FAILURES} more${artifactUrl ? `: [the full report](${artifactUrl})` : ' in report.json'}.`);
    out.push('');
  }
  out.push('| area | passed | failed | warnings | blocked | skipped |', '|---|---|---|---|---|---|');
  const areas = new Map<string, number[]>();
  for (const g of groupBySuite(report)) {
    const a = areas.get(g.area) ?? [0, 0, 0, 0, 0];
    [g.counts.pass, g.counts.fail + g.counts.error, g.counts.warn, g.counts.blocked, g.counts.skip].forEach((v, i) => (a[i]! += v));
    areas.set(g.area, a);
  }
  for (const [area, a] of areas) out.push(`| ${cell(area)} | ${a.join(' | ')} |`);
  return `${out.join('\n')}\n`;
}

/**
 * Inert text in a table cell: a target's words (\`</details><img src=…> [click](…)\`) must not become markup on the
 * CI page. Every character that opens markup is backslash-escaped (CommonMark), control characters are shown,
 * and newlines become spaces. Cut before escaping, so no cut leaves half an escape.
 */
function cell(s: string): string {
  return sanitize(s).replace(/[\\`*_[\]()<>!|~#]/g, '\\$&').replace(/\r?\n/g, ' ');
}

/** Under GitHub Actions: append the step summary, and return the annotations for the log. */
export function reportToGithub(report: Report, env: NodeJS.ProcessEnv): string[] {
  if (env.GITHUB_ACTIONS !== 'true') return [];
  const url = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined;
  const out = annotations(report);
  // The step summary is a courtesy of the CI page: a path that cannot be written is said in the log, and the
  // run's own exit code stands (its reports are written already).
  try {
    if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(report, url));
  } catch (e) {
    out.unshift(`::warning::${escapeData(`the step summary was not written to ${env.GITHUB_STEP_SUMMARY}: ${(e as Error).message}`)}`);
  }
  return out;
}
