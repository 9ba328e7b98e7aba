// A cassette folder holds one recording: a replay takes one seed and target, from manifest.json, for every suite.
// Recording some of its suites again continues that recording (its seed when --seed is not given); another seed
// or target for only some of them is refused before anything is sent (exit 2, saying what to do). Re-recording
// every suite it holds, with anything, stays allowed.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { readCassette, readManifest } from '../../src/transport/cassette.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const SUITES = join(import.meta.dirname, 'fixtures', 'suites');
const root = mkdtempSync(join(tmpdir(), 'rr-one-recording-'));
/** Another target, which counts what reaches it. */
let target: TestServer;
beforeAll(async () => { target = await startTestServer(); });
afterAll(async () => { await target.close(); rmSync(root, { recursive: true, force: true }); });

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', '--suites-dir', SUITES, '--fuzz-runs', '0', '--no-color', '--report-dir', join(root, 'reports'), ...args], { out: sink, err: sink, env: {}, isTTY: false });
  return { code, out };
}

const recording = join(root, 'recording');
beforeAll(async () => {
  await run(['--record', '--cassettes', recording, '--seed', '777']);
});

function copy(name: string): string {
  const dir = join(root, name);
  cpSync(recording, dir, { recursive: true });
  return dir;
}

const seedOf = (dir: string, suite: string) => readCassette(join(dir, `${suite}.json`))[0]!.conformance!.seed;
/** Nothing reached the embedded target, nor anything else: the run stopped before its first suite. */
const sentNothing = (out: string) => expect(out).not.toMatch(/^conformance \d|^(PASS|FAIL|STOP) /m);

describe('re-recording some suites of a folder', () => {
  it('without --seed takes the folder\'s seed, and the folder still replays', async () => {
    const dir = copy('continued');
    const before = readFileSync(join(dir, 'rr-basic.json'), 'utf8');
    const rec = await run(['--record', '--cassettes', dir, '--suite', 'rr-files']);
    expect(rec.out).toContain('seed 777');
    expect(seedOf(dir, 'rr-files')).toBe(777);
    expect(readManifest(dir)?.seed).toBe(777);
    expect(readFileSync(join(dir, 'rr-basic.json'), 'utf8')).toBe(before);
    const replay = await run(['--cassettes', dir]);
    expect(replay.code, replay.out).toBe(1); // rr-basic's deliberate failure, as recorded
    expect(replay.out).not.toMatch(/no recorded interaction/);
  });

  it('with another --seed is refused before anything is sent, saying what to do', async () => {
    const dir = copy('other-seed');
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    const { code, out } = await run(['--record', '--cassettes', dir, '--suite', 'rr-files', '--seed', '5']);
    expect(code, out).toBe(2);
    expect(out).toContain(`--cassettes ${dir} holds a recording made with seed 777 (this run: 5): recording only rr-files into it would leave plugins, rr-basic of the other recording`);
    expect(out).toContain('pass --seed 777, re-record all its suites (add --suite plugins --suite rr-basic), or record into an empty folder');
    expect(out.trim().split('\n')).toHaveLength(1);
    sentNothing(out);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
    expect(seedOf(dir, 'rr-files')).toBe(777);
  });

  it('against another target is refused, also with --record-mode record', async () => {
    const dir = copy('other-target');
    rmSync(join(dir, 'rr-files.json')); // record mode records what the folder lacks
    for (const mode of [[], ['--record-mode', 'record']]) {
      const { code, out } = await run(['--record', ...mode, '--cassettes', dir, '--suite', 'rr-files', '--base-url', target.url, '--api-key', 'sk-other']);
      expect(code, out).toBe(2);
      expect(out).toContain(`holds a recording made with target reference (this run: ${target.url})`);
      expect(out).toContain('record against the embedded reference server (no --base-url)');
      sentNothing(out);
    }
    expect(target.hits).toEqual([]);
  });

  it('every suite the folder holds, with another seed, is allowed', async () => {
    const dir = copy('all-again');
    const { code, out } = await run(['--record', '--cassettes', dir, '--seed', '5']);
    expect(code, out).toBe(1);
    expect(readManifest(dir)?.seed).toBe(5);
    expect([seedOf(dir, 'rr-basic'), seedOf(dir, 'rr-files')]).toEqual([5, 5]);
  });
});
