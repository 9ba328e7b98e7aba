// `--record-mode record` and `dryrun` replay the suites that have a cassette and run the others live. The live
// suites must reach the target whatever ran before them: a replayed suite's nock must not answer them (nock keeps
// answering an origin it once served, with its 501 "No match for request"), and nothing of nock's may reach a
// cassette or a verdict.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

const root = mkdtempSync(join(tmpdir(), 'rr-live-after-replay-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', '--fuzz-runs', '0', '--no-color', '--report-dir', join(root, 'reports'), ...args], { out: sink, err: sink, env: {}, isTTY: false });
  return { code, out };
}

const reportText = (): string => readFileSync(join(root, 'reports', 'report.json'), 'utf8');

describe('live suites after a replayed one', () => {
  // `models` runs before `moderations`: the replayed suite comes first.
  const suites = ['--suite', 'models', '--suite', 'moderations'];

  it('--record-mode record records the live suite from the target, byte for byte as a plain recording', async () => {
    const dir = join(root, 'record');
    const plain = join(root, 'plain');
    await run(['--record', '--cassettes', dir, '--seed', '5', '--suite', 'models']);
    await run(['--record', '--cassettes', plain, '--seed', '5', '--suite', 'moderations']);
    const { code, out } = await run(['--cassettes', dir, '--record-mode', 'record', ...suites]);
    expect(code, out).toBe(0);
    const recorded = readFileSync(join(dir, 'moderations.json'), 'utf8');
    expect(recorded).not.toContain('Nock');
    expect(recorded).toBe(readFileSync(join(plain, 'moderations.json'), 'utf8'));
  });

  it('replays again after a live suite: replayed, live, replayed', async () => {
    const dir = join(root, 'sandwich');
    await run(['--record', '--cassettes', dir, '--seed', '5', '--suite', 'embeddings', '--suite', 'models']);
    const { code, out } = await run(['--cassettes', dir, '--record-mode', 'record', '--suite', 'embeddings', '--suite', 'engines', '--suite', 'models']);
    expect(code, out).toBe(0);
    expect(out).not.toMatch(/no recorded interaction|never used/);
    expect(readFileSync(join(dir, 'engines.json'), 'utf8')).not.toContain('Nock');
  });

  it('--record-mode dryrun runs the live suite against the target', async () => {
    const dir = join(root, 'dryrun');
    await run(['--record', '--cassettes', dir, '--seed', '5', '--suite', 'models']);
    const { code, out } = await run(['--cassettes', dir, '--record-mode', 'dryrun', ...suites]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/PASS moderations/);
    expect(reportText()).not.toContain('Nock');
  });
});
