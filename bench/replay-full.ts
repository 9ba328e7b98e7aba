// A full recording (the default run, fuzzing included) replayed against the live run it was recorded from, whole
// process each (start-up, loading, run, reports), in alternating rounds: a replay is a local, deterministic run and
// must be the faster of the two. Also checks that the replay gives the results of the recording, with --jobs 1
// and with --jobs 4. npm run bench:replay-full [-- ROUNDS]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/util/paths.ts';
import { ensureBuilt } from './ensure-built.ts';

const rounds = Number(process.argv[2] ?? '5');
ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'bench-replay-full-'));
const cassettes = join(dir, 'cassettes');

function conformance(label: string, args: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'run', '--seed', '5', '--report-dir', join(dir, label), ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${label} exited ${r.status}: ${r.stdout.slice(-500)}${r.stderr.slice(-500)}`);
  return seconds;
}

const results = (label: string): string[] =>
  (JSON.parse(readFileSync(join(dir, label, 'report.json'), 'utf8')) as { results: Array<{ suite: string; case: string; check: string; status: string }> }).results.map((x) => `${x.suite}/${x.case}/${x.check}:${x.status}`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  conformance('recorded', ['--record', '--cassettes', cassettes]);
  const live: number[] = [];
  const replay: number[] = [];
  for (let i = 0; i < rounds; i++) {
    live.push(conformance('live', []));
    replay.push(conformance('replay', ['--cassettes', cassettes]));
  }
  conformance('replay-4', ['--cassettes', cassettes, '--jobs', '4']);
  const same = results('replay').join('\n') === results('recorded').join('\n') && results('replay-4').join('\n') === results('recorded').join('\n');
  console.log(
    `full recording with fuzzing (${results('recorded').length} results), whole process, median of ${rounds} alternating rounds: ` +
      `live ${median(live).toFixed(2)} s (${live.map((x) => x.toFixed(2)).join(', ')}), replay ${median(replay).toFixed(2)} s (${replay.map((x) => x.toFixed(2)).join(', ')}): ` +
      `${(median(live) / median(replay)).toFixed(1)}× faster (target: faster than live); results of the recording, --jobs 1 and 4: ${same ? 'same' : 'DIFFERENT'}`,
  );
  if (!same) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
