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

  it('a recording runs one suite at a time: --jobs 2 with --record is a usage error', async () => {
    const r = await run(['--suite', 'models', '--record', '--cassettes', join(root, 'c'), '--jobs', '2']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--jobs applies to live runs and replays');
  });

  it('a replay runs its suites at once, each from its own cassette, with the reports of --jobs 1 (issue 33, item 3)', { timeout: 300_000 }, async () => {
    // Suites that send the same method and path (GET /v1/models, POST /v1/files) at the same time.
    const suites = ['fine-tunes', 'files', 'models', 'engines', 'fuzz-files'].flatMap((s) => ['--suite', s]);
    const cassettes = join(root, 'replayed');
    const recorded = await run([...suites, '--record', '--cassettes', cassettes, '--training-ms', '200']);
    expect(recorded.code, recorded.out + recorded.err).toBe(0);
    const one = await run(['--cassettes', cassettes, '--jobs', '1']);
    const five = await run(['--cassettes', cassettes, '--jobs', '5']);
    expect(one.code, one.out + one.err).toBe(0);
    expect(five.code, five.out + five.err).toBe(0);
    expect(five.report!.target.transport).toBe('replay');
    expect(content(five.report!)).toEqual(content(one.report!));
    expect(content(one.report!).results).toEqual(content(recorded.report!).results);
    expect(five.err).not.toMatch(/never used|unmatched/);
  });
});
