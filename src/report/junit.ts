// junit.xml for CI: fail → <failure>, error → <error>, skip → <skipped>, warn → passing case with a note.

import { join } from 'node:path';
import type { CheckResult } from '../engine/types.ts';
import { writeFileAtomicFromParts } from '../util/atomic-write.ts';
import { groupBySuite } from './group.ts';
import { renderFailure } from './render-failure.ts';
import type { Report } from './types.ts';
import { xmlAttr, xmlText } from './xml.ts';

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

/** `file:line:col` → the file and line attributes CI systems link to. */
function location(source: string | undefined): string {
  const m = source ? /^(.*):(\d+):\d+$/.exec(source) : null;
  return m ? ` file="${xmlAttr(m[1]!)}" line="${m[2]}"` : '';
}

function testcase(r: CheckResult, name: string): string {
  const attrs = `classname="${xmlAttr(r.suite)}" name="${xmlAttr(name)}" time="${seconds(r.durationMs ?? 0)}"${location(r.source)}`;
  const inner: string[] = [];
  if (r.requirements.length > 0) {
    inner.push(
      `      <properties><property name="requirements" value="${xmlAttr(r.requirements.join(','))}"/></properties>`,
    );
  }
  const body = () => xmlText(renderFailure(r, { color: false, markdown: false }));
  switch (r.status) {
    case 'fail':
      inner.push(`      <failure message="${xmlAttr(r.message)}" type="${xmlAttr(r.severity)}">${body()}</failure>`);
      break;
    case 'error':
      inner.push(`      <error message="${xmlAttr(r.message)}" type="error">${body()}</error>`);
      break;
    case 'skip':
      inner.push(`      <skipped message="${xmlAttr(r.message)}"/>`);
      break;
    case 'blocked':
      // Neither a pass nor a failure: the root failure is reported once, where it happened.
      inner.push(`      <skipped message="${xmlAttr(r.message)}"/>`);
      break;
    case 'not-exercised':
      inner.push(`      <skipped message="${xmlAttr(r.message)}"/>`);
      break;
    case 'warn': {
      // The first rendered line repeats the rule; the note replaces it.
      const detail = renderFailure(r, { color: false, markdown: false }).split('\n').slice(1).join('\n');
      inner.push(`      <system-out>${xmlText(`WARNING (should): ${r.check}: ${r.message}\n${detail}`)}</system-out>`);
      break;
    }
    case 'pass':
      break;
  }
  if (inner.length === 0) return `    <testcase ${attrs}/>`;
  return `    <testcase ${attrs}>\n${inner.join('\n')}\n    </testcase>`;
}

export function renderJunit(report: Report): string {
  return [...renderJunitParts(report)].join('');
}

/** The document line by line: what writeJunit streams to the file. */
export function* renderJunitParts(report: Report): Generator<string> {
  const s = report.summary;
  const name = `${report.tool.name} ${report.spec}`;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites name="${xmlAttr(name)}" tests="${s.total}" failures="${s.failed}" errors="${s.errors}" skipped="${s.skipped + s.blocked + s.notExercised}" time="${seconds(report.durationMs)}" timestamp="${xmlAttr(report.startedAt)}">\n`;
  for (const g of groupBySuite(report)) {
    const c = g.counts;
    const tests = Object.values(c).reduce((a, b) => a + b, 0);
    const skipped = c.skip + c.blocked + c['not-exercised'];
    yield `  <testsuite name="${xmlAttr(g.suite)}" tests="${tests}" failures="${c.fail}" errors="${c.error}" skipped="${skipped}" time="${seconds(g.outcome?.durationMs ?? 0)}"${g.outcome ? ` file="${xmlAttr(g.outcome.file)}"` : ''}>\n`;
    yield `    <properties><property name="area" value="${xmlAttr(g.area)}"/></properties>\n`;
    // Names are unique within a suite (a check can run twice in one case, e.g. on two fetched documents).
    const seen = new Map<string, number>();
    for (const r of g.results) {
      const base = `${r.case} › ${r.check}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      yield `${testcase(r, n === 1 ? base : `${base} (${n})`)}\n`;
    }
    yield '  </testsuite>\n';
  }
  yield '</testsuites>\n';
}

export async function writeJunit(dir: string, report: Report): Promise<string> {
  const path = join(dir, 'junit.xml');
  await writeFileAtomicFromParts(path, renderJunitParts(report));
  return path;
}
