// Shards and merge, the way a CI matrix uses them: --shard 1/3 … 3/3 run every selected suite exactly once,
// and `conformance merge` of their reports gives the verdicts of a single run; shards that do not add up are
// refused with exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { merge } from '../../src/cli/merge-command.ts';
import { partition, suiteCost } from '../../src/engine/shard.ts';
import { fuzzSuites } from '../../src/fuzz/suite.ts';
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

  it('weighs a fuzz area by the requests it sends, not a flat weight', () => {
    const suites = fuzzSuites({ runs: 25, budgetMs: 5000 });
    const cost = (name: string) => suiteCost(suites.find((s) => s.name === name)!);
    expect(cost('fuzz-images')).toBeGreaterThan(2 * cost('fuzz-files'));
    expect(cost('fuzz-completions')).toBeGreaterThan(100);
    expect(suiteCost(fuzzSuites({ runs: 3, budgetMs: 5000 }).find((s) => s.name === 'fuzz-images')!)).toBeLessThan(cost('fuzz-images'));
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

  it('refuses a shard run with another --grep or --tag, or against other faults: another selection, another target', async () => {
    const r = (i: number) => join(root, `s${i}`, 'report.json');
    await cli(['run', ...SELECTION, '--shard', '3/3', '--grep', 'list', '--report-dir', join(root, 's3-grep')]);
    const grep = await cli(['merge', r(1), r(2), join(root, 's3-grep', 'report.json'), '--report-dir', join(root, 'm4')]);
    expect(grep.code, grep.err).toBe(2);
    expect(grep.err).toMatch(/its case selection \(--grep, --tag\) differs/);
    await cli(['run', ...SELECTION, '--shard', '3/3', '--fault', 'model-list-object-wrong', '--report-dir', join(root, 's3-fault')]);
    const fault = await cli(['merge', r(1), r(2), join(root, 's3-fault', 'report.json'), '--report-dir', join(root, 'm5')]);
    expect(fault.code, fault.err).toBe(2);
    expect(fault.err).toMatch(/its target differs.*model-list-object-wrong/);
    // SELECTION runs with --fuzz-runs 0; the last flag wins.
    await cli(['run', ...SELECTION, '--shard', '3/3', '--fuzz-runs', '3', '--report-dir', join(root, 's3-fuzz')]);
    const fuzz = await cli(['merge', r(1), r(2), join(root, 's3-fuzz', 'report.json'), '--report-dir', join(root, 'm5b')]);
    expect(fuzz.code, fuzz.err).toBe(2);
    expect(fuzz.err).toMatch(/its --fuzz-runs differs \(3 vs 0\)/);
  }, 60_000);

  it('the same target written two ways is the same target: faults in another order, a base URL with or without /v1', () => {
    const shards = [1, 2, 3].map((i) => report(join(root, `s${i}`)));
    const as = (r: Report, baseUrl: string, faults: string[]) => ({ ...r, target: { ...r.target, baseUrl, faults } });
    const merged = merge([as(shards[0]!, 'https://api.example.com/v1', ['a', 'b']), as(shards[1]!, 'https://api.example.com', ['b', 'a']), as(shards[2]!, 'https://api.example.com/', ['a', 'b'])], ['s1', 's2', 's3']);
    expect(merged.results.length).toBe(shards.reduce((n, r) => n + r.results.length, 0));
    expect(() => merge([as(shards[0]!, 'https://api.example.com', ['a']), as(shards[1]!, 'https://api.example.com', ['a', 'b']), shards[2]!], ['s1', 's2', 's3'])).toThrow(/its target differs/);
  });

  it('refuses an interrupted shard: the suites it did not run would drop out of the merged report', async () => {
    const r = (i: number) => join(root, `s${i}`, 'report.json');
    writeFileSync(join(root, 'interrupted.json'), JSON.stringify({ ...report(join(root, 's3')), interrupted: true }));
    const { code, err } = await cli(['merge', r(1), r(2), join(root, 'interrupted.json'), '--report-dir', join(root, 'm6')]);
    expect(code).toBe(2);
    expect(err).toMatch(/interrupted\.json is the report of an interrupted run \(shard 3\/3\): run that shard again/);
  });

  it('a --grep matching one suite\'s cases leaves the other shards an empty part: exit 0, and the merge equals a single run', async () => {
    const grep = [...SELECTION, '--grep', 'retrieve-listed'];
    await cli(['run', ...grep, '--report-dir', join(root, 'g-single')]);
    for (const i of [1, 2, 3]) {
      const { code, err } = await cli(['run', ...grep, '--shard', `${i}/3`, '--report-dir', join(root, `g${i}`)]);
      expect(code, err).toBe(0);
    }
    const { code, err } = await cli(['merge', ...[1, 2, 3].map((i) => join(root, `g${i}`, 'report.json')), '--report-dir', join(root, 'g-merged')]);
    expect(code, err).toBe(0);
    expect(verdicts(report(join(root, 'g-merged')))).toEqual(verdicts(report(join(root, 'g-single'))));
    expect(report(join(root, 'g-single')).results.length).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a shard whose results are not those of the suites it ran (cut short or edited): nothing dropped or counted twice', async () => {
    const r = (i: number) => join(root, `s${i}`, 'report.json');
    const s3 = report(join(root, 's3'));
    const victim = s3.shard!.suites[0]!;
    for (const [name, results] of [
      ['dropped', s3.results.filter((x) => x.suite !== victim)],
      ['doubled', [...s3.results, ...s3.results.filter((x) => x.suite === victim)]],
    ] as const) {
      writeFileSync(join(root, `${name}.json`), JSON.stringify({ ...s3, results }));
      const { code, err } = await cli(['merge', r(1), r(2), join(root, `${name}.json`), '--report-dir', join(root, `m-${name}`)]);
      expect(code, err).toBe(2);
      expect(err).toMatch(new RegExp(`${name}\\.json does not hold what its shard ran: suite ${victim} has \\d+ results, its outcome counts \\d+`));
    }
    // A status edited (a pass turned into a warning, or back) keeps every total: the counts per status, and the summary, tell.
    const i = s3.results.findIndex((x) => x.status === 'pass');
    expect(i).toBeGreaterThanOrEqual(0);
    const turned = s3.results.map((x, j) => (j === i ? { ...x, status: 'warn' as const } : x));
    writeFileSync(join(root, 'edited.json'), JSON.stringify({ ...s3, results: turned }));
    const edited = await cli(['merge', r(1), r(2), join(root, 'edited.json'), '--report-dir', join(root, 'm-edited')]);
    expect(edited.code, edited.err).toBe(2);
    expect(edited.err).toMatch(/edited\.json does not hold what its shard ran: suite \S+ has \d+ \S+ results, its outcome counts \d+/);
  });

  it('sums every shard\'s retries and waits, whichever comes first', async () => {
    const r = (i: number) => join(root, `s${i}`, 'report.json');
    const retried = (i: number, count: number) => {
      writeFileSync(join(root, `retried${i}.json`), JSON.stringify({ ...report(join(root, `s${i}`)), retries: { count, waitedMs: count * 1000, byStatus: { 429: count } } }));
      return join(root, `retried${i}.json`);
    };
    const { code, err } = await cli(['merge', r(1), retried(2, 3), retried(3, 5), '--report-dir', join(root, 'm-retries')]);
    expect(code, err).toBe(0);
    expect(report(join(root, 'm-retries')).retries).toEqual({ count: 8, waitedMs: 8000, byStatus: { 429: 8 } });
  });

  it('a file that is not a report of this tool is one line and exit 2, for merge and compare alike', async () => {
    const { results: _dropped, ...truncated } = report(join(root, 's3'));
    writeFileSync(join(root, 'truncated.json'), JSON.stringify(truncated));
    const r = (i: number) => join(root, `s${i}`, 'report.json');
    for (const argv of [['merge', r(1), r(2), join(root, 'truncated.json')], ['compare', r(1), join(root, 'truncated.json')]]) {
      const { code, err } = await cli([...argv, '--report-dir', join(root, 'm7')]);
      expect(code, err).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toContain("truncated.json is not a report.json of this tool (schemas/report.schema.json): the report must have required property 'results'");
    }
  });
});

describe('the seed of a sharded run', () => {
  const NO_SEED = SELECTION.slice(0, SELECTION.indexOf('--seed'));
  const run = async (argv: string[], env: Record<string, string>) => {
    let out = '';
    let err = '';
    const code = await main(argv, { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env, isTTY: false });
    return { code, out, err };
  };

  it('without --seed and outside CI, a shard is refused before anything runs (its cases would differ from the other shards)', async () => {
    const { code, err } = await run(['run', ...NO_SEED, '--shard', '1/3', '--report-dir', join(root, 'no-seed')], {});
    expect(code).toBe(2);
    expect(err).toMatch(/--shard needs a seed that every shard shares .* give --seed N/);
  });

  it("in CI, every shard of one CI run derives the same seed from the run's id", async () => {
    const env = { GITHUB_RUN_ID: '123456', GITHUB_RUN_ATTEMPT: '1' };
    const a = await run(['run', ...NO_SEED, '--shard', '1/3', '--report-dir', join(root, 'ci-1')], env);
    const b = await run(['run', ...NO_SEED, '--shard', '2/3', '--report-dir', join(root, 'ci-2')], env);
    expect(report(join(root, 'ci-1')).seed).toBe(report(join(root, 'ci-2')).seed);
    expect([a.code, b.code]).toEqual([0, 0]);
  });
});

