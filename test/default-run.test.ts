// The README's main job: `conformance run` with no target runs every suite against the embedded
// reference server and passes with zero must-failures — and the coverage table shows every testable
// requirement of the catalogue exercised.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import type { Report } from '../src/report/types.ts';

describe('conformance run (the default job)', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'default-run-'));
  let output = '';
  const sink = { write: (s: string) => { output += s; return true; } };
  const code = await main(['run', '--report-dir', reportDir, '--seed', '42'], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report;

  it('passes with zero must-failures and zero errors', () => {
    const bad = report.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.suite} › ${r.case} › ${r.check}: ${r.message}`);
    expect(bad).toEqual([]);
    expect(code, output.slice(-3000)).toBe(0);
    expect(report.verdict).toBe('pass');
  });

  it('runs every suite and skips nothing for lack of credentials', () => {
    const skippedForCredentials = report.results.filter((r) => r.status === 'skip' && /needs --/.test(r.message));
    expect(skippedForCredentials.map((r) => `${r.suite} › ${r.case}: ${r.message}`)).toEqual([]);
  });

  it('exercises every testable requirement of the catalogue, the remote plugin auth variants included', () => {
    // The auth variants (user_http, service_http, oauth) apply to remote plugins only: the embedded target serves
    // one of each over HTTPS on a name only the run resolves (src/reference/remote-plugins.ts).
    const entries = Object.entries(report.coverage.requirements).filter(([, c]) => c.status === 'not-exercised' || c.status === 'skipped');
    console.log(`coverage: ${report.coverage.totals.exercised}/${report.coverage.totals.testable} testable requirements exercised`);
    expect(entries.map(([id, c]) => `${id} (${c.status}${c.reason ? `: ${c.reason}` : ''})`)).toEqual([]);
    expect(report.coverage.totals.exercised).toBe(report.coverage.totals.testable);
    for (const suite of ['plugins', 'plugins-user-http', 'plugins-service-http', 'plugins-oauth']) expect(report.suites.map((s) => s.suite)).toContain(suite);
  });

  it('writes a report whose summary matches its results', () => {
    const count = (s: string) => report.results.filter((r) => r.status === s).length;
    expect(report.summary).toMatchObject({ passed: count('pass'), failed: count('fail'), warnings: count('warn'), skipped: count('skip'), errors: count('error') });
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('## Requirement coverage');
  });
});
