// Records that survive anything: a recording replaces the cassettes of DIR all together or not at all, a suite
// that throws never overwrites a good cassette, and what a killed recording left behind is cleaned up.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { repoRoot } from '../../src/util/paths.ts';

const root = mkdtempSync(join(tmpdir(), 'all-or-nothing-'));

async function record(dir: string, extra: string[], interrupt?: AbortSignal, onOut?: (s: string) => void): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(['run', '--record', '--cassettes', dir, '--fuzz-runs', '0', '--report-dir', join(root, 'reports'), ...extra], {
    out: { write: (s: string) => { out += s; onOut?.(s); return true; } }, err: { write: (s: string) => (out += s) }, env: {}, isTTY: false,
    ...(interrupt ? { interrupt } : {}),
  });
  return { code, out };
}

const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('a re-record is all or nothing', () => {
  it('an interrupt after the first suite replaces no cassette: the folder never mixes seeds', async () => {
    const dir = join(root, 'interrupted');
    await record(dir, ['--seed', '1', '--suite', 'models', '--suite', 'moderations']);
    const before = snapshot(dir);
    expect(Object.keys(before)).toEqual(['manifest.json', 'models.json', 'moderations.json']);
    const controller = new AbortController();
    const { code, out } = await record(dir, ['--seed', '2', '--suite', 'models', '--suite', 'moderations'], controller.signal, (s) => { if (/models /.test(s)) controller.abort(); });
    expect(code, out).toBe(130);
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(dirname(dir)).filter((n) => n.startsWith(`.${basename(dir)}.recording-`))).toEqual([]);
  });

  it('a suite that throws never overwrites a good cassette with []', async () => {
    const dir = join(root, 'throwing');
    const suites = join(root, 'throwing-suites');
    mkdirSync(suites, { recursive: true });
    cpSync(join(repoRoot, 'suites', 'models.yaml'), join(suites, 'models.yaml'));
    await record(dir, ['--seed', '1', '--suite', 'models', '--suites-dir', suites]);
    const before = snapshot(dir);
    // The same suite with a variable that only fails when the run renders it.
    writeFileSync(join(suites, 'models.yaml'), readFileSync(join(suites, 'models.yaml'), 'utf8').replace(/^cases:/m, 'variables:\n  broken: "{{repeat(\'a\', 0 - 1)}}"\ncases:'));
    const { code } = await record(dir, ['--seed', '1', '--suite', 'models', '--suites-dir', suites]);
    expect(code).toBe(3);
    expect(snapshot(dir)).toEqual(before);
  });

  it('the next recording removes what a killed one left: temp files and staging folders', async () => {
    const dir = join(root, 'leftovers');
    await record(dir, ['--seed', '1', '--suite', 'models']);
    const deadPid = 2 ** 22 + 12345; // above Linux's pid_max default: no such process
    const tmp = join(dir, `.models.json.${deadPid}.0123456789ab.tmp`);
    const staging = join(dirname(dir), `.${basename(dir)}.recording-${deadPid}`);
    writeFileSync(tmp, '[');
    mkdirSync(staging);
    writeFileSync(join(staging, 'models.json'), '[]');
    await record(dir, ['--seed', '1', '--suite', 'models']);
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(staging)).toBe(false);
    expect(readdirSync(dir)).toEqual(['manifest.json', 'models.json']);
  });
});
