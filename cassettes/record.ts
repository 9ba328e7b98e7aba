// Re-records the shipped cassettes: the full default suites against the embedded reference server,
// with a fixed seed, then stores the verdict of every result in verdicts.json (what the replay test expects).
//
//   npx tsx cassettes/record.ts
//
// Cassettes of suites that no longer exist are removed; a failed run leaves the previous files in place.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.ts';
import { writeFileAtomic } from '../src/util/atomic-write.ts';

export const SHIPPED_SEED = 20240601;
const here = dirname(fileURLToPath(import.meta.url));
const reports = mkdtempSync(join(tmpdir(), 'cassettes-record-'));

try {
  const code = await main(['run', '--record', '--cassettes', here, '--seed', String(SHIPPED_SEED), '--fuzz-runs', '0', '--report-dir', reports, '--no-color'], {
    out: process.stdout, err: process.stderr, env: {}, isTTY: false,
  });
  if (code !== 0 && code !== 1) throw new Error(`the recording run exited with ${code}`);
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as {
    seed: number; verdict: string; suites: Array<{ suite: string }>; results: Array<{ suite: string; case: string; check: string; status: string }>;
  };
  const verdicts = {
    seed: report.seed,
    verdict: report.verdict,
    results: report.results.map((r) => ({ suite: r.suite, case: r.case, check: r.check, status: r.status })),
  };
  await writeFileAtomic(join(here, 'verdicts.json'), JSON.stringify(verdicts, null, 1) + '\n');
  const suites = new Set(report.suites.map((s) => s.suite.replace(/[^A-Za-z0-9._-]/g, '_') + '.json'));
  for (const name of readdirSync(here)) {
    if (name.endsWith('.json') && name !== 'verdicts.json' && name !== 'manifest.json' && !suites.has(name)) rmSync(join(here, name));
  }
  process.stdout.write(`\ncassettes: ${suites.size} suites, ${verdicts.results.length} verdicts (seed ${SHIPPED_SEED}) in ${here}\n`);
} finally {
  rmSync(reports, { recursive: true, force: true });
}
