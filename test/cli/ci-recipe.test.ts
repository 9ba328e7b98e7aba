// docs/ci.md's matrix, run on one machine: four shard processes in parallel against one `conformance serve`,
// then `conformance merge`; the merged verdicts must equal a single run's with the same seed and selection.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { repoRoot } from '../../src/util/paths.ts';

let server: ReferenceServer;
const root = mkdtempSync(join(tmpdir(), 'ci-recipe-'));
beforeAll(async () => { server = await startReferenceServer({ latencyMs: 5 }); });
afterAll(() => server.close());

/** `npx conformance run …` as a CI job runs it: its own process, the key from the environment. */
function job(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), ...args], { stdio: 'ignore', env: { ...process.env, CI: 'true', CONFORMANCE_API_KEY: server.credentials.apiKey } });
    child.on('exit', resolve);
  });
}

const selection = ['--suite', 'models', '--suite', 'moderations', '--suite', 'edits', '--suite', 'embeddings', '--suite', 'chat', '--fuzz-runs', '0', '--seed', '42'];
const verdicts = (r: Report) => r.results.map((x) => `${x.suite}/${x.case}/${x.check}: ${x.status}`);
const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

it('four shards in parallel, then merge: the verdicts of a single run', async () => {
  const run = (extra: string[], dir: string) => job(['run', '--base-url', server.url, ...selection, ...extra, '--report-dir', join(root, dir)]);
  const codes = await Promise.all([1, 2, 3, 4].map((i) => run(['--shard', `${i}/4`], `shard-${i}`)));
  expect(codes).toEqual([0, 0, 0, 0]);
  expect(await run([], 'single')).toBe(0);
  let out = '';
  const merged = await main(['merge', ...[1, 2, 3, 4].map((i) => join(root, `shard-${i}`, 'report.json')), '--report-dir', join(root, 'merged')], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, env: {}, isTTY: false });
  expect(merged, out).toBe(0);
  expect(verdicts(read(join(root, 'merged')))).toEqual(verdicts(read(join(root, 'single'))));
}, 120_000);

it('the reference server waits --latency-ms before every answer (a stand-in for a live service)', async () => {
  const slow = await startReferenceServer({ latencyMs: 150 });
  try {
    const started = Date.now();
    const res = await fetch(`${slow.url}/v1/models`, { headers: { authorization: `Bearer ${slow.credentials.apiKey}` } });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  } finally {
    await slow.close();
  }
});
