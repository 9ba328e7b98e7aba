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
