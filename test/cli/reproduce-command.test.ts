// A failure's `reproduce:` line is a command a person copies: run as printed, it must rerun that case against the
// same target, behaving the same way (faults, latency and other knobs of the embedded reference server included),
// and fail the same rule again. (Own suites given as paths, and --suites-dir: test/suite/own-suites.test.ts and
// test/engine/e2e.test.ts.)
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

async function run(args: string[]): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'reproduce-'));
  const sink = { write: () => true };
  const code = await main(['run', ...args, '--report-dir', dir], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
}

it('names the embedded target\'s fault and latency, and run as printed it fails the same rule again', async () => {
  const first = await run(['--suite', 'models', '--fault', 'model-list-object-wrong', '--latency-ms', '3', '--fuzz-runs', '0', '--seed', '8']);
  expect(first.code).toBe(1);
  const failed = first.report.results.filter((r) => r.status === 'fail');
  expect(failed.length).toBeGreaterThan(0);
  const { reproduce, case: caseId, check, requirements } = failed[0]!;
  expect(reproduce).toBe(`npx conformance run --fault model-list-object-wrong --fuzz-runs 0 --latency-ms 3 --suite models --grep ${caseId} --seed 8`);

  const again = await run(reproduce!.split(' ').slice(3)); // after `npx conformance run`
  expect(again.code).toBe(1);
  expect(again.report.results.filter((r) => r.status === 'fail').map((r) => [r.case, r.check, r.requirements])).toContainEqual([caseId, check, requirements]);
});
