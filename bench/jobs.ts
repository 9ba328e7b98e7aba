// --jobs 1 vs --jobs 8 against the reference server with 200 ms of latency per answer, whole process (start-up,
// loading, run, reports): what a user waits for against a live service. npm run bench:jobs [-- 0.2 (latency s)]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/util/paths.ts';
import { ensureBuilt } from './ensure-built.ts';

const latencyMs = Math.round(Number(process.argv[2] ?? '0.2') * 1000);
ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'bench-jobs-'));

function wall(jobs: number): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'run', '--latency-ms', String(latencyMs), '--fuzz-runs', '0', '--seed', '7', '--jobs', String(jobs), '--report-dir', join(dir, String(jobs))], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`--jobs ${jobs} exited ${r.status}: ${r.stdout.slice(-500)}${r.stderr.slice(-500)}`);
  return seconds;
}

try {
  const one = wall(1);
  const eight = wall(8);
  console.log(`default suites (--fuzz-runs 0) against the reference server with ${latencyMs} ms latency, whole process: --jobs 1 ${one.toFixed(1)} s, --jobs 8 ${eight.toFixed(1)} s, ${(one / eight).toFixed(1)}× faster (target ≥ 5×)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
