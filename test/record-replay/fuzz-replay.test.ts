// Fuzz cases replay deterministically from the seed recorded in the cassette: a recorded fuzz run,
// replayed offline without --seed, sends the same cases and reaches the same verdicts.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

async function run(args: string[]): Promise<{ code: number; report: Report; output: string }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'fuzz-replay-'));
  let output = '';
  const sink = { write: (s: string) => { output += s; return true; } };
  const code = await main(['run', '--report-dir', reportDir, ...args], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  return { code, report: JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report, output };
}

const verdicts = (r: Report) => r.results.map((x) => `${x.suite}/${x.case}/${x.check}: ${x.status}`);

describe('fuzz replay', () => {
  it('replays the recorded fuzz cases from the recorded seed, case for case', async () => {
    const cassettes = mkdtempSync(join(tmpdir(), 'fuzz-cassettes-'));
    const suites = ['--suite', 'fuzz-moderations', '--suite', 'fuzz-edits', '--suite', 'fuzz-completions', '--fuzz-runs', '10'];
    const recorded = await run(['--record', '--cassettes', cassettes, '--seed', '4242', ...suites]);
    expect(recorded.code, recorded.output.slice(-2000)).toBe(0);
    expect(recorded.report.results.filter((r) => r.check === 'fuzz').length).toBeGreaterThan(20);

    const replayed = await run(['--cassettes', cassettes, ...suites]); // no --seed: taken from the cassette
    expect(replayed.report.seed).toBe(4242);
    expect(replayed.code, replayed.output.slice(-2000)).toBe(0);
    expect(verdicts(replayed.report)).toEqual(verdicts(recorded.report));
    expect(replayed.output).not.toMatch(/never used|no recorded interaction/i);
  });
});
