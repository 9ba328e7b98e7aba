// A replay runs exactly the suites the folder's manifest.json lists. One of them whose cassette is missing or
// unreadable, or a cassette the manifest does not list (another recording's), is a problem of the run: exit 3
// before anything is replayed, one line naming the file and what is wrong, and how to mend the folder. Never a
// suite silently left out, never a replay of another recording's cassette failing as "unmatched".
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

const SUITES = join(import.meta.dirname, 'fixtures', 'suites');
const root = mkdtempSync(join(tmpdir(), 'rr-folder-manifest-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['run', '--suites-dir', SUITES, '--fuzz-runs', '0', '--no-color', '--report-dir', join(root, 'reports'), ...args], {
    out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false,
  });
  return { code, out, err };
}

const recording = join(root, 'recording');
const other = join(root, 'other');
beforeAll(async () => {
  await run(['--record', '--cassettes', recording, '--seed', '777']);
  await run(['--record', '--cassettes', other, '--seed', '5', '--suite', 'rr-files']);
});

function copy(name: string, change: (dir: string) => void): string {
  const dir = join(root, name);
  cpSync(recording, dir, { recursive: true });
  change(dir);
  return dir;
}

/** Nothing was replayed: the run stopped before its first suite. */
const replayedNothing = (out: string) => expect(out).not.toMatch(/^(PASS|FAIL|STOP) /m);

describe('a replay checks the folder against its manifest', () => {
  it('a listed suite whose cassette is missing: exit 3 naming the file, with a hint', async () => {
    const dir = copy('missing', (d) => rmSync(join(d, 'rr-files.json')));
    for (const selection of [[], ['--suite', 'rr-files']]) {
      const { code, out, err } = await run(['--cassettes', dir, ...selection]);
      expect(code, out + err).toBe(3);
      expect(err).toContain(`${join(dir, 'rr-files.json')} is missing (manifest.json lists suite rr-files)`);
      expect(err).toMatch(/hint: re-record rr-files into it .*--suite rr-files --seed 777/);
      replayedNothing(out);
    }
  });

  it('the hint to re-record names the recording\'s faults too, so the command it gives is accepted', async () => {
    const faulted = join(root, 'faulted');
    await run(['--record', '--cassettes', faulted, '--seed', '31', '--fault', 'stop-allows-5']);
    rmSync(join(faulted, 'rr-files.json'));
    const { code, err } = await run(['--cassettes', faulted]);
    expect(code).toBe(3);
    const hinted = /\(--record --cassettes (\S+) (--suite rr-files --seed 31 --fault stop-allows-5)\)/.exec(err);
    expect(hinted, err).not.toBeNull();
    const again = await run(['--record', '--cassettes', hinted![1]!, ...hinted![2]!.split(' ')]);
    expect(again.code, again.out + again.err).not.toBe(2);
    expect((await run(['--cassettes', faulted])).code).not.toBe(3);
  }, 60_000);

  it('a listed suite whose cassette is not valid JSON: exit 3 saying so, also when selected by name', async () => {
    const dir = copy('broken', (d) => writeFileSync(join(d, 'rr-files.json'), '[{"scope": '));
    for (const selection of [[], ['--suite', 'rr-files']]) {
      const { code, out, err } = await run(['--cassettes', dir, ...selection]);
      expect(code, out + err).toBe(3);
      expect(err).toContain(`${join(dir, 'rr-files.json')} is not valid JSON`);
      expect(err).not.toContain('holds no recording');
      replayedNothing(out);
    }
  });

  it('a listed suite whose cassette is JSON but no cassette: exit 3', async () => {
    const dir = copy('not-array', (d) => writeFileSync(join(d, 'rr-files.json'), '{"results": []}\n'));
    const { code, err } = await run(['--cassettes', dir]);
    expect(code).toBe(3);
    expect(err).toContain(`${join(dir, 'rr-files.json')} is not a cassette`);
  });

  it.each([
    ['method', (d: Record<string, unknown>) => { d.method = 5; }, /entry 1: method must be a string \(got 5\)/],
    ['path', (d: Record<string, unknown>) => { delete d.path; }, /entry 1: path must be a string \(got nothing\)/],
    ['status', (d: Record<string, unknown>) => { d.status = 'two hundred'; }, /entry 1 \([A-Z]+ \/v1\/[^)]*\): status must be an HTTP status/],
    ['binary', (d: Record<string, unknown>) => { d.responseIsBinary = true; d.response = { not: 'hex' }; }, /entry 1 \([^)]*\): a binary response must be a string of hex digits/],
  ] as const)('an entry edited by hand (%s): exit 3 naming the file, the entry and the field, not a TypeError', async (_what, edit, says) => {
    const dir = copy(`entry-${_what}`, (d) => {
      const file = join(d, 'rr-files.json');
      const defs = JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
      edit(defs[1]!);
      writeFileSync(file, JSON.stringify(defs));
    });
    const { code, out, err } = await run(['--cassettes', dir]);
    expect(code, out + err).toBe(3);
    expect(err).toContain(join(dir, 'rr-files.json'));
    expect(err).toMatch(says);
    expect(err).not.toMatch(/TypeError|Cannot read properties|--debug/);
    replayedNothing(out);
  });

  it('a suite of an area the target does not claim is recorded too (empty), so its replay reports the same skips', async () => {
    const config = join(root, 'files-unclaimed.yaml');
    writeFileSync(config, 'areas: [completions, models]\n');
    const dir = join(root, 'unclaimed');
    const recorded = await run(['--record', '--cassettes', dir, '--config', config, '--seed', '9']);
    expect(recorded.code, recorded.out + recorded.err).toBe(1); // rr-basic fails one case on purpose
    expect(readFileSync(join(dir, 'rr-files.json'), 'utf8').trim()).toBe('[]');
    const report = () => JSON.parse(readFileSync(join(root, 'reports', 'report.json'), 'utf8')) as { results: Array<{ suite: string; status: string }> };
    const live = report().results;
    const replayed = await run(['--cassettes', dir, '--config', config]);
    expect(replayed.code, replayed.out + replayed.err).toBe(1);
    expect(report().results.map((r) => `${r.suite} ${r.status}`)).toEqual(live.map((r) => `${r.suite} ${r.status}`));
    expect(live.some((r) => r.suite === 'rr-files' && r.status === 'skip')).toBe(true);
  });

  it('a cassette the manifest does not list is refused, not replayed as unmatched', async () => {
    const dir = join(root, 'stray');
    await run(['--record', '--cassettes', dir, '--seed', '777', '--suite', 'rr-basic']);
    cpSync(join(other, 'rr-files.json'), join(dir, 'rr-files.json'));
    const { code, out, err } = await run(['--cassettes', dir]);
    expect(code, out + err).toBe(3);
    expect(err).toContain(`${join(dir, 'rr-files.json')} is not listed in manifest.json: this folder's recording (seed 777) did not record it`);
    expect(err).toContain('hint: move');
    expect(err).not.toContain('no recorded interaction');
    replayedNothing(out);
  });

  it('--record-mode record and dryrun check the cassettes they would replay before anything is sent', async () => {
    const dir = copy('broken-modes', (d) => writeFileSync(join(d, 'rr-files.json'), '[{"scope": '));
    for (const mode of ['record', 'dryrun']) {
      const { code, out, err } = await run(['--cassettes', dir, '--record-mode', mode]);
      expect(code, out + err).toBe(3);
      expect(err).toContain(`${join(dir, 'rr-files.json')} is not valid JSON`);
      expect(out).not.toMatch(/^conformance \d/m);
    }
  });

  it('an unreadable manifest.json: a replay names it (exit 3); a re-record replaces it', async () => {
    const dir = copy('broken-manifest', (d) => writeFileSync(join(d, 'manifest.json'), '{"seed": '));
    const replay = await run(['--cassettes', dir]);
    expect(replay.code).toBe(3);
    expect(replay.err).toContain(`${join(dir, 'manifest.json')} is not valid JSON`);
    // The recording's problem, with what to do about it; not a crash of the harness to report.
    expect(replay.err).toContain(`hint: restore manifest.json (from version control), or record the folder again (--record --cassettes ${dir})`);
    expect(replay.err).not.toContain('report it');
    const rerecord = await run(['--record', '--cassettes', dir, '--seed', '777']);
    expect(rerecord.code, rerecord.out + rerecord.err).toBe(1); // rr-basic's deliberate failure
    expect((await run(['--cassettes', dir])).code).toBe(1);
  });

  it('a broken suite left out with --suite: the others replay', async () => {
    const dir = copy('narrowed', (d) => rmSync(join(d, 'rr-files.json')));
    const { code, out, err } = await run(['--cassettes', dir, '--suite', 'rr-basic']);
    expect(code, out + err).toBe(1); // rr-basic's deliberate failure, as recorded
    expect(out).toMatch(/^FAIL rr-basic/m);
  });
});
