// Times the offline replay of the shipped recording (cassettes/: the full default suites against the
// reference server) through `conformance run --cassettes`, checks it still gives the recorded verdicts,
// and prints the figure. Target: under 3 s on a 2-core machine (module loading excluded).
//
//   npm run bench:replay
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main.ts';
import { repoRoot } from '../src/util/paths.ts';

const TARGET_MS = 3000;
const cassettes = join(repoRoot, 'cassettes');
const reports = mkdtempSync(join(tmpdir(), 'bench-replay-'));
const runs = Number(process.env.BENCH_RUNS ?? 3);

let interactions = 0;
for (const name of readdirSync(cassettes)) {
  if (!name.endsWith('.json') || name === 'verdicts.json' || name === 'manifest.json') continue;
  interactions += (JSON.parse(readFileSync(join(cassettes, name), 'utf8')) as unknown[]).length;
}
const expected = JSON.parse(readFileSync(join(cassettes, 'verdicts.json'), 'utf8')) as { results: Array<{ suite: string; case: string; check: string; status: string }> };
const key = (r: { suite: string; case: string; check: string; status: string }): string => `${r.suite}/${r.case}/${r.check}:${r.status}`;

const quiet = { write: () => true };
const times: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await main(['run', '--cassettes', cassettes, '--fuzz-runs', '0', '--report-dir', reports, '--no-color'], { out: quiet, err: quiet, env: {}, isTTY: false });
    times.push(performance.now() - t0);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { results: typeof expected.results };
    if (report.results.map(key).join('\n') !== expected.results.map(key).join('\n')) {
      process.stderr.write('bench:replay: the replay no longer gives the recorded verdicts (see npm test)\n');
      process.exitCode = 1;
    }
  }
} finally {
  rmSync(reports, { recursive: true, force: true });
}
const best = Math.min(...times);
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
process.stdout.write(
  `replay of ${interactions} recorded interactions, ${expected.results.length} results: ` +
    `best ${(best / 1000).toFixed(2)} s, median ${(median / 1000).toFixed(2)} s over ${runs} runs (first ${(times[0]! / 1000).toFixed(2)} s) — ` +
    `target < ${TARGET_MS / 1000} s: ${median < TARGET_MS ? 'met' : 'MISSED'}\n`,
);
