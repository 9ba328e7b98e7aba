// Shards and merge, the way a CI matrix uses them: --shard 1/3 … 3/3 run every selected suite exactly once,
// and `conformance merge` of their reports gives the verdicts of a single run; shards that do not add up are
// refused with exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { partition } from '../../src/engine/shard.ts';
import type { Report } from '../../src/report/types.ts';

const root = mkdtempSync(join(tmpdir(), 'shards-'));
const SELECTION = ['--suite', 'models', '--suite', 'moderations', '--suite', 'edits', '--suite', 'engines', '--suite', 'embeddings', '--fuzz-runs', '0', '--seed', '5'];

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
  return { code, out, err };
}
const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
const verdicts = (r: Report) => r.results.map((x) => `${x.suite}/${x.case}/${x.check}: ${x.status}`);

describe('shards across CI machines', () => {
  beforeAll(async () => {
    await cli(['run', ...SELECTION, '--report-dir', join(root, 'single')]);
    for (const i of [1, 2, 3]) await cli(['run', ...SELECTION, '--shard', `${i}/3`, '--report-dir', join(root, `s${i}`)]);
  }, 120_000);

  it('partitions deterministically, each suite exactly once, balanced by cost', () => {
    const suites = [{ name: 'a', cost: 10 }, { name: 'b', cost: 9 }, { name: 'c', cost: 1 }, { name: 'd', cost: 1 }, { name: 'e', cost: 40 }];
    const parts = partition(suites, 3);
    expect(parts).toEqual(partition([...suites].reverse(), 3));
    expect(parts.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(parts[0]).toEqual(['e']);
  });

  it('three shards merge into the verdicts of a single run', async () => {
    const shards = [1, 2, 3].map((i) => report(join(root, `s${i}`)));
    expect(shards.flatMap((s) => s.shard!.suites).sort()).toEqual(['edits', 'embeddings', 'engines', 'models', 'moderations']);
    const { code, out } = await cli(['merge', ...[1, 2, 3].map((i) => join(root, `s${i}`, 'report.json')), '--report-dir', join(root, 'merged')]);
    expect(code, out).toBe(0);
    const merged = report(join(root, 'merged'));
    const single = report(join(root, 'single'));
    expect(verdicts(merged)).toEqual(verdicts(single));
    expect(merged.summary).toEqual(single.summary);
    expect(merged.coverage.totals).toEqual(single.coverage.totals);
    expect(merged.shard).toBeUndefined();
  });

  it('refuses shards that do not add up: one missing, one twice, another seed', async () => {
    const r = (i: number) => join(root, `s${i}`, 'report.json');
    expect((await cli(['merge', r(1), r(2), '--report-dir', join(root, 'm1')])).err).toMatch(/shard 3 of 3 is missing/);
    const twice = await cli(['merge', r(1), r(2), r(2), '--report-dir', join(root, 'm2')]);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/shard 2 of 3 is given twice/);
    const other = report(join(root, 's3'));
    writeFileSync(join(root, 'other.json'), JSON.stringify({ ...other, seed: 6 }));
    const seed = await cli(['merge', r(1), r(2), join(root, 'other.json'), '--report-dir', join(root, 'm3')]);
    expect(seed.code).toBe(2);
    expect(seed.err).toMatch(/not a shard of the same run.*its seed differs/);
  });
});
