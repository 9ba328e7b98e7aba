// Mutation score of the suites: every fault of the reference server, switched on alone, must make the
// suites fail on a check citing a requirement that fault breaks; the clean server passes.
// Each group of suites declares, in test/mutation/expected-<group>.ts, which suites to run per fault
// and which requirement IDs must fail.

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { FAULTS } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { repoRoot } from '../../src/util/paths.ts';

type Expected = Record<string, { suites: string[]; requirements: string[] }>;

async function loadExpectations(): Promise<Expected> {
  const dir = join(repoRoot, 'test', 'mutation');
  const merged: Expected = {};
  for (const file of readdirSync(dir).filter((f) => /^expected-.*\.ts$/.test(f)).sort()) {
    const { EXPECTED } = (await import(pathToFileURL(join(dir, file)).href)) as { EXPECTED: Expected };
    for (const [fault, e] of Object.entries(EXPECTED)) {
      if (merged[fault]) throw new Error(`fault ${fault} is expected by two files`);
      merged[fault] = e;
    }
  }
  return merged;
}

async function run(args: string[]): Promise<{ code: number; report: Report; output: string }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'mutation-'));
  let output = '';
  const sink = { write: (s: string) => { output += s; return true; } };
  const code = await main(['run', '--report-dir', reportDir, '--seed', '1', '--fuzz-runs', '0', '--training-ms', '150', '--timeout', '4000', ...args], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  return { code, report: JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report, output };
}

/** Run tasks with bounded concurrency (each starts its own reference server on an ephemeral port). */
async function pool<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) { const i = next++; out[i] = await fn(items[i]!); }
  }));
  return out;
}

describe('mutation score against the reference server faults', async () => {
  const expected = await loadExpectations();

  it('every expectation names a real fault, real suites and catalogue requirements', () => {
    const faults = new Set<string>(FAULTS.map((f) => f.name));
    for (const [fault, e] of Object.entries(expected)) {
      expect(faults.has(fault), `unknown fault ${fault}`).toBe(true);
      expect(e.suites.length, fault).toBeGreaterThan(0);
      expect(e.requirements.length, fault).toBeGreaterThan(0);
    }
  });

  it('catches each fault on a check citing the requirement it breaks', { timeout: 900_000 }, async () => {
    const names = FAULTS.map((f) => f.name);
    const outcomes = await pool(names, 3, async (fault) => {
      const e = expected[fault];
      if (!e) return { fault, caught: false, why: 'no expectation declared' };
      const { code, report } = await run([...e.suites.flatMap((s) => ['--suite', s]), '--fault', fault]);
      const failing = report.results.filter((r) => r.status === 'fail');
      const hit = failing.find((r) => r.requirements.some((id) => e.requirements.includes(id)));
      return { fault, caught: code === 1 && !!hit, why: hit ? `${hit.check} (${hit.requirements.join(', ')})` : `exit ${code}; failed on ${[...new Set(failing.flatMap((r) => r.requirements))].join(', ') || 'nothing'}` };
    });
    const caught = outcomes.filter((o) => o.caught);
    console.log(`\nmutation score: ${caught.length}/${names.length} faults caught (${((caught.length / names.length) * 100).toFixed(0)}%)`);
    for (const o of outcomes) console.log(`  ${o.caught ? 'caught ' : 'MISSED '} ${o.fault.padEnd(40)} ${o.why}`);
    const declared = outcomes.filter((o) => expected[o.fault]);
    expect(declared.filter((o) => !o.caught).map((o) => `${o.fault}: ${o.why}`)).toEqual([]);
    expect(caught.length / names.length).toBeGreaterThanOrEqual(0.9);
  });
});
