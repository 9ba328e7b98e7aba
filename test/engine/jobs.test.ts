// --jobs N: suites at once, reports identical in content and order to --jobs 1 (the same seed).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

const root = mkdtempSync(join(tmpdir(), 'jobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string; report?: Report }> {
  const dir = mkdtempSync(join(root, 'r-'));
  let out = '';
  let err = '';
  const code = await main(['run', '--seed', '31', '--fuzz-runs', '2', '--report-dir', dir, ...args], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: { CI: 'true' }, isTTY: false });
  let report: Report | undefined;
  try { report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report; } catch { /* none */ }
  return { code, out, err, ...(report ? { report } : {}) };
}

/** What a report says, without the timings that differ between any two runs (also two runs with --jobs 1). */
const content = (r: Report) => ({
  suites: r.suites.map((s) => [s.suite, s.counts]),
  results: r.results.map((x) => [x.suite, x.case, x.check, x.status, x.message.replace(/\d+ ms\b/g, '… ms').replace(/after \d+ request\(s\)/g, 'after … request(s)'), x.requirements.join(), JSON.stringify(x.findings ?? [])]),
  coverage: r.coverage,
  summary: r.summary,
});

describe('--jobs', () => {
  it('--jobs 4 gives the reports of --jobs 1: same results, same order, same coverage', { timeout: 300_000 }, async () => {
    const suites = ['fine-tunes', 'files', 'models', 'chat', 'images', 'fuzz-chat', 'plugins'].flatMap((s) => ['--suite', s]);
    const one = await run([...suites, '--jobs', '1']);
    const four = await run([...suites, '--jobs', '4']);
    expect(one.code, one.out).toBe(0);
    expect(four.code, four.out).toBe(0);
    expect(content(four.report!)).toEqual(content(one.report!));
    // One line per finished suite, nothing interleaved.
    expect(four.out.split('\n').filter((l) => /^(PASS|FAIL) /.test(l)).length).toBe(7);
  });

  it('record and replay run one suite at a time: --jobs 2 with --cassettes is a usage error', async () => {
    const r = await run(['--suite', 'models', '--record', '--cassettes', join(root, 'c'), '--jobs', '2']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--jobs applies to live runs');
  });
});
