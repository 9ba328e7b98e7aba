// Behaviour is unchanged, byte for byte: the replay of two fixed recordings gives the reports kept here
// (README.md beside this file). Volatile fields — times, durations, the recording's path — are removed first.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'golden-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const update = process.env.GOLDEN_UPDATE === '1';

const FAULTY_SUITES = ['auth', 'models', 'engines', 'completions', 'completions-stream', 'chat', 'chat-stream', 'edits', 'images', 'audio', 'files', 'fine-tunes', 'fine-tunes-create', 'fine-tunes-classification', 'moderations'];

const REPLAYS = [
  { name: 'shipped', cassettes: join(repo, 'cassettes'), args: [] as string[], exit: 0 },
  { name: 'faulty', cassettes: join(here, 'faulty-cassettes'), args: FAULTY_SUITES.flatMap((s) => ['--suite', s]), exit: 1 },
];

/** What differs between two replays of one recording: times, durations, and where the recording lies. */
function stable(file: string, text: string, cassettes: string): string {
  const placed = text.split(cassettes).join('<cassettes>');
  if (file.endsWith('.json')) return JSON.stringify(JSON.parse(placed, (k, v) => (k === 'durationMs' || k === 'startedAt' ? undefined : v)), null, 2) + '\n';
  if (file.endsWith('.xml')) return placed.replace(/ (time|timestamp)="[^"]*"/g, ' $1=""');
  return placed.replace(/\*\*Started:\*\* \S+/g, '**Started:** …').replace(/\*\*Duration:\*\* [^\n·]+/g, '**Duration:** …');
}

describe('the engine\'s golden replays', () => {
  for (const replay of REPLAYS) {
    it(`${replay.name}: report.json, junit.xml and summary.md are unchanged`, async () => {
      const reports = join(work, replay.name);
      const sink = { write: () => true };
      const code = await main(['run', '--cassettes', replay.cassettes, '--report-dir', reports, ...replay.args], { out: sink, err: sink, env: {}, isTTY: false });
      expect(code).toBe(replay.exit);
      for (const file of ['report.json', 'junit.xml', 'summary.md']) {
        const got = stable(file, readFileSync(join(reports, file), 'utf8'), replay.cassettes);
        const golden = join(here, replay.name, file);
        if (update) { mkdirSync(dirname(golden), { recursive: true }); writeFileSync(golden, got); continue; }
        // Compared as text, with a short message: a diff of 30,000 lines helps nobody, the first differing line does.
        const want = readFileSync(golden, 'utf8');
        if (got !== want) {
          const [a, b] = [got.split('\n'), want.split('\n')];
          const line = a.findIndex((l, i) => l !== b[i]);
          expect.fail(`${replay.name}/${file} differs from the golden file at line ${line + 1}:\n  got:  ${a[line]}\n  want: ${b[line]}`);
        }
      }
    }, 120_000);
  }
});
