// junit.xml as its consumers read it: valid against the JUnit XSD (test/report/fixtures/junit.xsd, checked by
// libxml2's xmllint), and parsed by a second, independent reader (junit2json) to the same counts the report has,
// each failure with its message, expected vs actual and the command that reproduces it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

const xsd = join(import.meta.dirname, 'fixtures', 'junit.xsd');
const dir = mkdtempSync(join(tmpdir(), 'junit-'));
let report: Report;

beforeAll(async () => {
  const sink = { write: () => true };
  await main(['run', '--suite', 'images', '--suite', 'auth', '--fault', 'image-n-11-accepted', '--fault', 'foreign-organization-accepted', '--fuzz-runs', '0', '--report-dir', dir], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}, 120_000);

function xmllint(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v xmllint'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.env.CONFORMANCE_REQUIRE_SHARED) throw new Error('xmllint is missing and CONFORMANCE_REQUIRE_SHARED is set: .ci/run installs libxml2-utils');
  console.log('skipped: xmllint is not installed (apt-get install libxml2-utils; .ci/run does)');
  return undefined;
}

describe('junit.xml and its consumers', () => {
  it('validates against the JUnit XSD (xmllint)', (ctx) => {
    const bin = xmllint();
    if (!bin) return ctx.skip();
    expect(existsSync(xsd)).toBe(true);
    const out = execFileSync(bin, ['--noout', '--schema', xsd, join(dir, 'junit.xml')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toBe('');
  });

  it('the XSD refuses what the format does not have', (ctx) => {
    const bin = xmllint();
    if (!bin) return ctx.skip();
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase name="c" classname="s"><failure/><error/></testcase></testsuite></testsuites>');
    expect(spawnSync(bin, ['--noout', '--schema', xsd, bad]).status).not.toBe(0);
  });

  it('junit2json reads the same counts, and each failure with expected, actual and the reproduce command', async () => {
    const parsed = (await parse(readFileSync(join(dir, 'junit.xml'), 'utf8'))) as { tests?: number; failures?: number; testsuite?: Array<{ testcase?: Array<{ name?: string; failure?: Array<{ message?: string; inner?: string }>; skipped?: unknown[] }> }> };
    const cases = (parsed.testsuite ?? []).flatMap((s) => s.testcase ?? []);
    expect(cases.length).toBe(report.results.length);
    expect(parsed.failures).toBe(report.summary.failed);
    const failures = cases.flatMap((c) => c.failure ?? []);
    expect(failures.length).toBe(report.summary.failed);
    for (const f of failures) {
      expect(f.message?.length).toBeGreaterThan(0);
      expect(f.inner).toMatch(/expected: .*\n\s+actual: /);
      expect(f.inner).toContain('reproduce: npx conformance run');
    }
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });
});
