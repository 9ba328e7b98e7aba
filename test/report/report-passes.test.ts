// --report-passes keeps, for passing results too, the redacted request and a response excerpt; off by default.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

async function run(extra: string[]): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'passes-'));
  const sink = { write: () => true };
  await main(['run', '--suite', 'models', '--fuzz-runs', '0', '--report-dir', dir, ...extra], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('--report-passes', () => {
  it('off by default: passes carry no request or response', async () => {
    const passes = (await run([])).results.filter((r) => r.status === 'pass');
    expect(passes.length).toBeGreaterThan(5);
    expect(passes.filter((r) => r.request || r.response)).toEqual([]);
  });
  it('on: every pass of a sent request keeps it, redacted, and a response excerpt', async () => {
    const passes = (await run(['--report-passes'])).results.filter((r) => r.status === 'pass');
    expect(passes.every((r) => r.request !== undefined && r.response?.status !== undefined)).toBe(true);
    expect(passes.some((r) => r.request!.headers.authorization === 'Bearer REDACTED')).toBe(true);
  });
});
