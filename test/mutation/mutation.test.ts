// Mutation score of the suites: every fault of the reference server, switched on alone, must make the
// suites fail on a check citing a requirement that fault breaks; the clean server passes.
// Each group of suites declares, in test/mutation/expected-<group>.ts, per fault:
//   EXPECTED   — the suites to run and the requirement IDs a `fail` result must cite (the run exits 1);
//   WARNED     — faults that break a convention the spec does not state ("not shown"): the run must
//                still pass (a should never fails a run) and warn on one of the requirement IDs;
//   NOT_CAUGHT — faults no spec-based check can observe, with the reason.

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
type Declared = { kind: 'fail' | 'warn'; suites: string[]; requirements: string[] } | { kind: 'not-caught'; reason: string };

async function loadExpectations(): Promise<Record<string, Declared>> {
  const dir = join(repoRoot, 'test', 'mutation');
  const merged: Record<string, Declared> = {};
  const add = (fault: string, d: Declared) => {
    if (merged[fault]) throw new Error(`fault ${fault} is declared twice`);
    merged[fault] = d;
  };
  for (const file of readdirSync(dir).filter((f) => /^expected-.*\.ts$/.test(f)).sort()) {
    const m = (await import(pathToFileURL(join(dir, file)).href)) as { EXPECTED: Expected; WARNED?: Expected; NOT_CAUGHT?: Record<string, string> };
    for (const [fault, e] of Object.entries(m.EXPECTED)) add(fault, { kind: 'fail', ...e });
    for (const [fault, e] of Object.entries(m.WARNED ?? {})) add(fault, { kind: 'warn', ...e });
    for (const [fault, reason] of Object.entries(m.NOT_CAUGHT ?? {})) add(fault, { kind: 'not-caught', reason });
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
      if (e.kind === 'not-caught') { expect(e.reason.length, fault).toBeGreaterThan(0); continue; }
      expect(e.suites.length, fault).toBeGreaterThan(0);
      expect(e.requirements.length, fault).toBeGreaterThan(0);
    }
    // Every fault is accounted for: caught, warned, or not caught with a reason.
    expect(FAULTS.map((f) => f.name).filter((f) => !expected[f])).toEqual([]);
  });

  it('catches each fault on a check citing the requirement it breaks', { timeout: 900_000 }, async () => {
    const names = FAULTS.map((f) => f.name);
    const outcomes = await pool(names, 3, async (fault) => {
      const e = expected[fault];
      if (!e) return { fault, kind: 'missed' as const, why: 'no expectation declared' };
      if (e.kind === 'not-caught') return { fault, kind: 'not-caught' as const, why: e.reason };
      const { code, report } = await run([...e.suites.flatMap((s) => ['--suite', s]), '--fault', fault]);
      const wanted = e.kind === 'fail' ? 'fail' : 'warn';
      const hits = report.results.filter((r) => r.status === wanted);
      const hit = hits.find((r) => r.requirements.some((id) => e.requirements.includes(id)));
      const ok = hit !== undefined && code === (e.kind === 'fail' ? 1 : 0);
      const why = hit ? `${hit.check} (${hit.requirements.join(', ')})${e.kind === 'warn' ? ', run still passes' : ''}` : `exit ${code}; ${wanted} on ${[...new Set(hits.flatMap((r) => r.requirements))].join(', ') || 'nothing'}`;
      return { fault, kind: ok ? (e.kind === 'fail' ? ('caught' as const) : ('warned' as const)) : ('missed' as const), why };
    });
    const count = (k: string) => outcomes.filter((o) => o.kind === k).length;
    console.log(`\nmutation score: ${count('caught')}/${names.length} faults fail the run, ${count('warned')} more warn (conventions the spec does not state), ${count('not-caught')} not observable (${(((count('caught') + count('warned')) / names.length) * 100).toFixed(0)}% detected)`);
    for (const o of outcomes) console.log(`  ${o.kind.padEnd(10)} ${o.fault.padEnd(40)} ${o.why}`);
    expect(outcomes.filter((o) => o.kind === 'missed').map((o) => `${o.fault}: ${o.why}`)).toEqual([]);
    expect((count('caught') + count('warned')) / names.length).toBeGreaterThanOrEqual(0.95);
  });
});
