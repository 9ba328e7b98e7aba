// A programmatic suite (fuzzing) stopped by an unmatched replay request is reported like a YAML suite: its line
// says STOP, not PASS, and its outcome in report.json says what stopped it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

const root = mkdtempSync(join(tmpdir(), 'rr-programmatic-stop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; report: Report }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const reports = join(root, 'reports');
  const code = await main(['run', '--suite', 'fuzz-moderations', '--no-color', '--report-dir', reports, ...args], { out: sink, err: sink, env: {}, isTTY: false });
  return { code, out, report: JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Report };
}

it('a fuzz suite stopped by an unmatched replay request says STOP, and its outcome has stopped', async () => {
  const cassettes = join(root, 'cassettes');
  await run(['--record', '--cassettes', cassettes, '--seed', '1453', '--fuzz-runs', '5']);
  const { code, out, report } = await run(['--cassettes', cassettes, '--fuzz-runs', '30']); // more cases than recorded
  expect(code, out).toBe(3);
  expect(out).toMatch(/^STOP fuzz-moderations .*stopped by a problem of the run/m);
  expect(out).not.toMatch(/^PASS fuzz-moderations/m);
  const outcome = report.suites.find((s) => s.suite === 'fuzz-moderations');
  expect(outcome?.stopped).toContain('every recording was already used');
  expect(outcome?.stopped).toBe(report.problems[0]?.message);
});
