// The same suites, seed and target record the same bytes: only the manifest's recorded_at differs. What the
// run's own timing and ports chose is written as placeholders, and the replay of such a recording still
// reaches the recorded verdicts.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { FIXED_EPOCH, placeholderOrigin, withPlaceholders } from '../../src/transport/recording-placeholders.ts';

const root = mkdtempSync(join(tmpdir(), 'deterministic-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const SUITES = ['models', 'files', 'chat-stream', 'images', 'fine-tunes'].flatMap((s) => ['--suite', s]);

async function run(args: string[]): Promise<number> {
  const sink = { write: () => true };
  return main(['run', '--fuzz-runs', '0', '--seed', '4242', ...SUITES, ...args], { out: sink, err: sink, env: {}, isTTY: false });
}

const files = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('deterministic recordings', () => {
  it('two recordings of the same run differ only in the manifest\'s recorded_at', async () => {
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    expect(await run(['--record', '--cassettes', a, '--report-dir', join(root, 'ra')])).toBe(0);
    expect(await run(['--record', '--cassettes', b, '--report-dir', join(root, 'rb')])).toBe(0);
    const [fa, fb] = [files(a), files(b)];
    expect(Object.keys(fa)).toEqual(Object.keys(fb));
    const withoutTime = (text: string) => text.replace(/"recorded_at": "[^"]+"/, '"recorded_at": "…"');
    for (const name of Object.keys(fa)) expect(withoutTime(fb[name]!), name).toBe(withoutTime(fa[name]!));
    // Nothing of the run's own timing or port is left in the cassettes.
    const all = Object.entries(fa).filter(([n]) => n !== 'manifest.json').map(([, t]) => t).join('\n');
    expect(all).not.toMatch(/127\.0\.0\.1:(?!40000)\d+/);
    expect(all).not.toContain(String(new Date().getUTCFullYear()) + '-' + String(new Date().getUTCMonth() + 1).padStart(2, '0'));
  });

  it('the recording with placeholders replays to the recorded verdicts', async () => {
    const replay = join(root, 'replayed');
    expect(await run(['--cassettes', join(root, 'a'), '--report-dir', replay])).toBe(0);
    const statuses = (dir: string) => (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: Array<{ case: string; check: string; status: string }> }).results.map((r) => `${r.case}/${r.check}=${r.status}`);
    expect(statuses(replay)).toEqual(statuses(join(root, 'ra')));
  });
});

describe('placeholders', () => {
  const now = Date.UTC(2026, 10, 24, 22, 58, 12) / 1000;
  const ctx = { origins: ['http://127.0.0.1:35977'], nowSeconds: now };
  it('keep the format and length of what they replace', () => {
    expect(placeholderOrigin('http://127.0.0.1:35977')).toBe('http://127.0.0.1:40000');
    const text = JSON.stringify({ url: 'http://127.0.0.1:35977/images/a.png', created: now, date: 'Tue, 24 Nov 2026 22:58:11 GMT', at: '2026-11-24T22:58:12.002Z', model: 'curie:ft-org:x-2026-11-24-22-58-12' });
    const out = withPlaceholders(text, ctx);
    expect(out.length).toBe(text.length);
    expect(JSON.parse(out)).toEqual({ url: 'http://127.0.0.1:40000/images/a.png', created: FIXED_EPOCH, date: 'Tue, 14 Nov 2023 22:13:20 GMT', at: '2023-11-14T22:13:20.000Z', model: 'curie:ft-org:x-2023-11-14-22-13-20' });
  });
  it('keep distinct stamps distinct, and leave values far from the recording alone', () => {
    const text = 'a-2026-11-24-22-58-12 b-2026-11-24-22-58-13 a-2026-11-24-22-58-12 "created":1649357491 "created_at":1795561091';
    expect(withPlaceholders(text, ctx)).toBe(`a-2023-11-14-22-13-20 b-2023-11-14-22-13-21 a-2023-11-14-22-13-20 "created":1649357491 "created_at":${FIXED_EPOCH}`);
  });
});
