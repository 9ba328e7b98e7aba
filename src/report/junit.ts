// junit.xml for CI: fail → <failure>, error → <error>, skip → <skipped>, warn → passing case with a note.

import { join } from 'node:path';
import type { CheckResult } from '../engine/types.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { groupBySuite } from './group.ts';
import { renderFailure } from './render-failure.ts';
import type { Report } from './types.ts';
import { xmlAttr, xmlText } from './xml.ts';

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function testcase(r: CheckResult): string {
  const attrs = `classname="${xmlAttr(r.suite)}" name="${xmlAttr(`${r.case} › ${r.check}`)}"`;
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
  const s = report.summary;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const name = `${report.tool.name} ${report.spec}`;
  out.push(
    `<testsuites name="${xmlAttr(name)}" tests="${s.total}" failures="${s.failed}" errors="${s.errors}" skipped="${s.skipped}" time="${seconds(report.durationMs)}" timestamp="${xmlAttr(report.startedAt)}">`,
  );
  for (const g of groupBySuite(report)) {
    const c = g.counts;
    const tests = c.pass + c.fail + c.warn + c.skip + c.error;
    out.push(
      `  <testsuite name="${xmlAttr(g.suite)}" tests="${tests}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip}" time="${seconds(g.outcome?.durationMs ?? 0)}"${g.outcome ? ` file="${xmlAttr(g.outcome.file)}"` : ''}>`,
    );
    out.push(`    <properties><property name="area" value="${xmlAttr(g.area)}"/></properties>`);
    for (const r of g.results) out.push(testcase(r));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

export async function writeJunit(dir: string, report: Report): Promise<string> {
  const path = join(dir, 'junit.xml');
  await writeFileAtomic(path, renderJunit(report));
  return path;
}
