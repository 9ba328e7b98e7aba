import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJunit, writeJunit } from '../../src/report/junit.ts';
import { stripIllegalXml, xmlAttr, xmlText } from '../../src/report/xml.ts';
import { failResult, makeReport, makeRun, results } from './fixtures.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
});

function parse(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as any;
}

describe('renderJunit', () => {
  it('is well-formed and its counts match the summary', () => {
    const report = makeReport();
    const doc = parse(renderJunit(report));
    const root = doc.testsuites;
    expect(root).toMatchObject({ tests: '6', failures: '1', errors: '1', skipped: '1', time: '1.400' });
    expect(root.testsuite).toHaveLength(2);
    const [comp, models] = root.testsuite;
    expect(comp).toMatchObject({ name: 'completions', tests: '5', failures: '1', errors: '1', skipped: '1', time: '1.234' });
    expect(models).toMatchObject({ name: 'models', tests: '1', failures: '0', errors: '0', skipped: '0' });
    expect(comp.testcase).toHaveLength(5);
    const total = root.testsuite.reduce((n: number, s: any) => n + s.testcase.length, 0);
    expect(total).toBe(report.summary.total);
  });

  it('maps statuses to failure / error / skipped / system-out', () => {
    const doc = parse(renderJunit(makeReport()));
    const cases: any[] = doc.testsuites.testsuite[0].testcase;
    const byName = (n: string) => cases.find((c) => c.name === n);
    const fail = byName('stop-basic › stop_sequence_excluded');
    expect(fail.classname).toBe('completions');
    expect(fail.failure.type).toBe('must');
    expect(fail.failure.message).toBe(failResult.message);
    expect(fail.failure['#text']).toContain('at /choices/0/text');
    expect(fail.failure['#text']).toContain('reproduce: npx conformance run --suite completions --case stop-basic');
    expect(fail.properties.property[0]).toEqual({ name: 'requirements', value: 'COMP-STOP-01' });

    const warn = byName('unknown-model › error_status_code');
    expect(warn.failure).toBeUndefined();
    expect(warn.error).toBeUndefined();
    expect(warn['system-out']).toMatch(/^WARNING \(should\): error_status_code: expected 404/);

    expect(byName('logprobs › logprobs_shape').skipped.message).toBe('target does not claim logprobs');
    expect(byName('echo › echo_prefix').error.message).toMatch(/check threw/);
    const pass = byName('stop-basic › schema');
    expect(pass.properties.property[0].value).toBe('COMP-SHAPE-01,COMP-STOP-01');
  });

  it('escapes markup and strips characters illegal in XML 1.0', () => {
    const nasty = 'bad <tag> & "quotes" \'apos\' \u0001\u0000\u000B\uFFFF lone\uD800 end \u{1F600}';
    const report = makeReport(
      makeRun({
        results: [{ ...failResult, message: nasty, case: 'a<b>&"c\'', findings: [{ pointer: '/x', message: nasty, actual: nasty }] }],
        suites: [],
      }),
    );
    const xml = renderJunit(report);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml).not.toContain('\uD800 ');
    expect(xml).toContain('message="bad &lt;tag&gt; &amp; &quot;quotes&quot; &apos;apos&apos;  lone end \u{1F600}"');
    const tc = parse(xml).testsuites.testsuite[0].testcase[0];
    expect(tc.failure.message).toBe('bad <tag> & "quotes" \'apos\'  lone end \u{1F600}');
    expect(tc.name).toBe('a<b>&"c\' › stop_sequence_excluded');
    expect(tc.failure['#text']).toContain('bad <tag> & "quotes"');
  });

  it('xml helpers', () => {
    expect(xmlText('<&>"\'')).toBe('&lt;&amp;&gt;"\'');
    expect(xmlAttr('<&>"\'\u0001')).toBe('&lt;&amp;&gt;&quot;&apos;');
    expect(xmlAttr('a\nb\tc')).toBe('a&#10;b&#9;c');
    expect(stripIllegalXml('a\u0000b\u0008c\u000Bd\u000Ce\u001Ff\tg\nh\ri')).toBe('abcdef\tg\nh\ri');
    expect(stripIllegalXml('\uDC00x\uD83D\uDE00y\uD83D')).toBe('x\uD83D\uDE00y');
  });

  it('writes junit.xml', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'junit-'));
    try {
      const path = await writeJunit(dir, makeReport(makeRun({ results })));
      expect(path).toBe(join(dir, 'junit.xml'));
      expect(XMLValidator.validate(await readFile(path, 'utf8'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('junit.xml for CI systems that link and time test cases', () => {
  it('gives every test case a time, a file and line, and a unique name; blocked and not-exercised results are skipped', () => {
    const blocked = { ...failResult, check: 'schema', status: 'blocked' as const, message: 'blocked by status of stop-basic: expected 200, got 422', blockedBy: { suite: failResult.suite, case: failResult.case, check: 'status' }, durationMs: 12 };
    const twice = { ...failResult, check: 'plugin_cors_host_origin', status: 'pass' as const, durationMs: 1500 };
    const vacuous = { ...failResult, check: 'completion_stop_excluded', status: 'not-exercised' as const, message: 'not exercised: no choice ended on a stop sequence' };
    const xml = renderJunit(makeReport(makeRun({ results: [twice, { ...twice }, blocked, vacuous] })));
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml) as { testsuites: { skipped: string; testsuite: { skipped: string; tests: string; testcase: Array<Record<string, unknown>> } | Array<{ testcase: Array<Record<string, unknown>> }> } };
    const suite = Array.isArray(doc.testsuites.testsuite) ? doc.testsuites.testsuite[0]! : doc.testsuites.testsuite;
    const cases = suite.testcase as Array<Record<string, unknown>>;
    const names = cases.map((c) => String(c['@_name'] ?? c['name']));
    expect(new Set(names).size).toBe(names.length);
    expect(names[1]).toMatch(/\(2\)$/);
    for (const c of cases) {
      expect(String(c['@_time'] ?? c['time'])).toMatch(/^\d+\.\d{3}$/);
      expect(String(c['@_file'] ?? c['file'])).toBe('suites/completions.yaml');
      expect(String(c['@_line'] ?? c['line'])).toBe('42');
    }
    expect(String(cases[0]!['@_time'] ?? cases[0]!['time'])).toBe('1.500');
    expect(xml).toMatch(/<skipped message="blocked by status of stop-basic/);
    expect(xml).toMatch(/<skipped message="not exercised: no choice ended/);
    expect(xml).not.toMatch(/<failure[^>]*blocked by/);
  });
});
