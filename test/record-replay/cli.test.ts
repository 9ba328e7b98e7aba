// End to end through `conformance run`: record against the embedded reference server, replay offline,
// same verdicts; the seed comes from the cassettes; no key reaches any file the run wrote; modes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { transportMode } from '../../src/run/transports.ts';
import { UsageError } from '../../src/run/usage-error.ts';
import { CREDENTIALS } from '../../src/reference/accounts.ts';
import { readCassette } from '../../src/transport/cassette.ts';

const SUITES = join(import.meta.dirname, 'fixtures', 'suites');
const root = mkdtempSync(join(tmpdir(), 'rr-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['run', '--suites-dir', SUITES, '--fuzz-runs', '0', '--no-color', ...args], {
    out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false,
  });
  return { code, out, err };
}

interface Report { seed: number; verdict: string; problems: unknown[]; results: Array<{ suite: string; case: string; check: string; status: string; message?: string }>; target: { transport: string } }
const report = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
const verdicts = (r: Report) => r.results.map((x) => `${x.suite}/${x.case}/${x.check}: ${x.status}`);

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe('conformance run --record / --cassettes', () => {
  const cassettes = join(root, 'cassettes');
  const recReports = join(root, 'rec-reports');

  it('records the suites against the embedded reference server, one cassette per suite', async () => {
    const { code, out, err } = await run(['--record', '--cassettes', cassettes, '--seed', '12345', '--report-dir', recReports]);
    expect(code).toBe(1); // rr-basic has one deliberate failure
    // The run says where its cassettes went (issue 33: a recording run never said).
    expect(out + err).toMatch(new RegExp(`\\d+ cassettes recorded in ${cassettes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(out).toContain('seed 12345');
    expect(readdirSync(cassettes)).toEqual(expect.arrayContaining(['rr-basic.json', 'rr-files.json']));
    expect(readCassette(join(cassettes, 'rr-basic.json'))[0]!.conformance).toMatchObject({ seed: 12345, target: 'reference', suite: 'rr-basic' });
    expect(report(recReports).target.transport).toBe('record');
  });

  it('never writes a key to any file of the run (cassettes and reports)', () => {
    const files = [...allFiles(cassettes), ...allFiles(recReports)];
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const key of [CREDENTIALS.apiKey, CREDENTIALS.memberApiKey]) expect(text.includes(key), `${key} in ${f}`).toBe(false);
    }
  });

  it('replays offline with the recorded seed and gives the same verdicts', async () => {
    const replayReports = join(root, 'replay-reports');
    const { code, out } = await run(['--cassettes', cassettes, '--report-dir', replayReports]);
    expect(code).toBe(1);
    expect(out).toContain('seed 12345');
    const rec = report(recReports);
    const rep = report(replayReports);
    expect(rep.seed).toBe(12345);
    expect(rep.target.transport).toBe('replay');
    expect(verdicts(rep)).toEqual(verdicts(rec));
    expect(rep.results.map((r) => r.message)).toEqual(rec.results.map((r) => r.message));
  });

  it('a replay with another seed stops at the first unmatched request: a problem of the run naming the nearest, not a verdict', async () => {
    const dir = join(root, 'other-seed');
    const { code, err } = await run(['--cassettes', cassettes, '--seed', '99', '--report-dir', dir, '--suite', 'rr-basic']);
    expect(code).toBe(3);
    const r = report(dir);
    expect(r.verdict).toBe('error');
    expect(r.results.filter((x) => x.status === 'fail' || x.status === 'error')).toEqual([]);
    const text = JSON.stringify(r.problems) + err;
    expect(text).toContain('no recorded interaction');
    expect(text).toContain('nearest recorded: POST /v1/completions');
  });

  it('--record-mode record replays suites that have a cassette and records the missing ones', async () => {
    const dir = join(root, 'mode-record');
    await run(['--record', '--cassettes', dir, '--seed', '777', '--suite', 'rr-basic', '--report-dir', join(root, 'r1')]);
    const basicBefore = readFileSync(join(dir, 'rr-basic.json'), 'utf8');
    expect(existsSync(join(dir, 'rr-files.json'))).toBe(false);
    const { out } = await run(['--cassettes', dir, '--record-mode', 'record', '--report-dir', join(root, 'r2')]);
    expect(out).toContain('seed 777'); // the recorded seed, so the replayed suite matches
    expect(readFileSync(join(dir, 'rr-basic.json'), 'utf8')).toBe(basicBefore);
    expect(existsSync(join(dir, 'rr-files.json'))).toBe(true);
    expect(readCassette(join(dir, 'rr-files.json'))[0]!.conformance?.seed).toBe(777);
    expect(verdicts(report(join(root, 'r2'))).filter((v) => v.startsWith('rr-basic/'))).toEqual(verdicts(report(join(root, 'r1'))));
  });

  it('--record-mode dryrun replays what is recorded, runs the rest live and writes nothing', async () => {
    const dir = join(root, 'mode-dryrun');
    await run(['--record', '--cassettes', dir, '--seed', '5', '--suite', 'rr-basic', '--report-dir', join(root, 'd1')]);
    const before = readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
    const { out } = await run(['--cassettes', dir, '--record-mode', 'dryrun', '--report-dir', join(root, 'd2')]);
    expect(out).toContain('seed 5');
    expect(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')])).toEqual(before);
    expect(verdicts(report(join(root, 'd2'))).some((v) => v.startsWith('rr-files/'))).toBe(true);
  });

  it('--record-mode wild runs everything live and ignores the cassettes', async () => {
    const dir = join(root, 'mode-wild');
    await run(['--record', '--cassettes', dir, '--seed', '6', '--suite', 'rr-basic', '--report-dir', join(root, 'w1')]);
    writeFileSync(join(dir, 'rr-basic.json'), '[]\n'); // a replay of this would match nothing
    const { out } = await run(['--cassettes', dir, '--record-mode', 'wild', '--seed', '6', '--suite', 'rr-basic', '--report-dir', join(root, 'w2')]);
    expect(report(join(root, 'w2')).target.transport).toBe('live');
    expect(verdicts(report(join(root, 'w2')))).toEqual(verdicts(report(join(root, 'w1'))));
    expect(readFileSync(join(dir, 'rr-basic.json'), 'utf8')).toBe('[]\n');
    expect(out).toContain('seed 6');
  });

  it('a complete recording writes manifest.json: tool, seed, fuzz runs, suites, target, time', async () => {
    const manifest = JSON.parse(readFileSync(join(cassettes, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 1, seed: 12345, fuzz_runs: 0, target: 'reference' });
    expect(manifest.suites).toEqual(readdirSync(cassettes).filter((f) => f !== 'manifest.json').map((f) => f.replace(/\.json$/, '')).sort());
    expect(manifest.suites).toEqual(expect.arrayContaining(['rr-basic', 'rr-files']));
    expect(manifest.tool).toMatch(/^model-api-conformance@/);
    expect(Date.parse(manifest.recorded_at)).toBeGreaterThan(0);
  });

  it('--record (update, alias rerecord) writes every suite again', async () => {
    const dir = join(root, 'mode-rerecord');
    await run(['--record', '--cassettes', dir, '--seed', '1', '--suite', 'rr-basic', '--report-dir', join(root, 'r3')]);
    writeFileSync(join(dir, 'rr-basic.json'), '[]\n');
    await run(['--record', '--cassettes', dir, '--seed', '1', '--suite', 'rr-basic', '--report-dir', join(root, 'r4')]);
    expect(readCassette(join(dir, 'rr-basic.json')).length).toBe(4);
  });
});

describe('transport modes', () => {
  it('picks the mode from the flags', () => {
    expect(transportMode({ record: false })).toBe('live');
    expect(transportMode({ record: false, cassettes: 'd' })).toBe('lockdown');
    expect(transportMode({ record: true, cassettes: 'd' })).toBe('update');
    expect(transportMode({ record: true, cassettes: 'd', recordMode: 'record' })).toBe('record');
    // nock.back's five names, one to one, and this harness's earlier name as an alias.
    for (const m of ['lockdown', 'record', 'update', 'dryrun', 'wild']) expect(transportMode({ record: false, cassettes: 'd', recordMode: m })).toBe(m);
    expect(transportMode({ record: false, cassettes: 'd', recordMode: 'rerecord' })).toBe('update');
    expect(() => transportMode({ record: true, cassettes: 'd', recordMode: 'lockdown' })).toThrow(UsageError);
    expect(() => transportMode({ record: true, cassettes: 'd', recordMode: 'dryrun' })).toThrow(/writes nothing/);
    expect(() => transportMode({ record: false, cassettes: 'd', recordMode: 'replay' })).toThrow(/lockdown, record, update, dryrun, wild/);
    expect(() => transportMode({ record: false, recordMode: 'record' })).toThrow(UsageError);
  });

  it('rejects an unknown --record-mode with exit 2', async () => {
    const { code, err } = await run(['--cassettes', join(root, 'x'), '--record-mode', 'nope']);
    expect(code).toBe(2);
    expect(err).toContain('--record-mode must be one of');
  });
});
