// The shipped cassettes (cassettes/*.json, the full default suites recorded against the reference server)
// replay offline to exactly the verdicts recorded with them (cassettes/verdicts.json).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { repoRoot } from '../../src/util/paths.ts';

const cassettes = join(repoRoot, 'cassettes');
const reports = mkdtempSync(join(tmpdir(), 'shipped-replay-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

interface Verdict { suite: string; case: string; check: string; status: string }

it('replays cassettes/ offline to the recorded verdicts', async () => {
  const expected = JSON.parse(readFileSync(join(cassettes, 'verdicts.json'), 'utf8')) as { seed: number; verdict: string; results: Verdict[] };
  let out = '';
  let err = '';
  const code = await main(['run', '--cassettes', cassettes, '--fuzz-runs', '0', '--report-dir', reports, '--no-color'], {
    out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false,
  });
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { seed: number; verdict: string; results: Verdict[]; target: { transport: string } };
  expect(report.target.transport).toBe('replay');
  expect(report.seed).toBe(expected.seed);
  const got = report.results.map((r) => `${r.suite}/${r.case}/${r.check}: ${r.status}`);
  expect(got).toEqual(expected.results.map((r) => `${r.suite}/${r.case}/${r.check}: ${r.status}`));
  expect(report.verdict).toBe(expected.verdict);
  expect(code).toBe(expected.verdict === 'pass' ? 0 : 1);
  expect(err).not.toMatch(/never used/);
}, 60_000);

it("the README's command replays exactly the suites the folder holds: `npx conformance run --cassettes cassettes`", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'readme-replay-'));
  let err = '';
  const io = { out: { write: () => true }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false };
  const previous = process.cwd();
  process.chdir(repoRoot);
  let code: number;
  try {
    code = await main(['run', '--cassettes', 'cassettes', '--report-dir', dir], io); // the README's words, plus where reports go
  } finally {
    process.chdir(previous);
  }
  expect(err).toBe('');
  expect(code).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { verdict: string; suites: Array<{ suite: string }> };
  expect(report.verdict).toBe('pass');
  // The recording leaves the fuzz suites out, so the replay does too (instead of failing their requests as unmatched).
  expect(report.suites.map((s) => s.suite).filter((s) => s.startsWith('fuzz-'))).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('a suite selected by name but not recorded is a problem of the run (exit 3) that names what the folder holds', async () => {
  let err = '';
  const code = await main(['run', '--cassettes', cassettes, '--suite', 'fuzz-chat', '--report-dir', reports], { out: { write: () => true }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
  expect(code).toBe(3);
  expect(err).toMatch(/holds no recording of fuzz-chat \(it holds: audio, auth, .*\)/);
  expect(err).toMatch(/not a verdict on the target/);
});
