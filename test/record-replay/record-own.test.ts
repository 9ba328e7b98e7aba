// useCassettes records your own test's calls (nock.back's modes, one cassette per test): the openai client v4
// records a chat completion, a streamed one, an embedding and a file upload against the reference server; the
// recording is judged (mustFailures names a fault's rule); it replays with the network cut off (unshare -rn),
// the stream chunk by chunk and byte for byte; an expired cassette is recorded again, or reported in lockdown.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { calls } from './record-own.calls.ts';
import { describe, expect, it } from 'vitest';
import { startReferenceServer, useCassettes } from '../../src/index.ts';
import { cassetteName } from '../../src/vitest.ts';
import { startProxy } from '../../src/proxy/server.ts';
import { repoRoot } from '../../src/util/paths.ts';

const run = promisify(execFile);
const STREAM_BODY = { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Count to five' }], max_tokens: 20, stream: true };

describe('useCassettes records your own calls', () => {
  it('records, judges, and replays offline: the stream chunk by chunk, byte for byte', async () => {
    const server = await startReferenceServer();
    const dir = mkdtempSync(join(tmpdir(), 'record-own-'));
    const name = cassetteName();
    expect(name).toBe('useCassettes-records-your-own-calls--records-judges-and-replays-offline-the-stream-chunk-by-chunk-byte-for-byte');
    const handle = useCassettes(dir, { name, mode: 'record', target: server.url });
    expect(handle.recording).toBe(true);
    const live = await calls(server.url, server.credentials.apiKey);
    await handle.done();
    await server.close();
    expect(handle.mustFailures()).toEqual([]);
    expect(handle.verdicts().filter((r) => r.status === 'pass').length).toBeGreaterThan(20);
    const text = readFileSync(join(dir, `${name}.json`), 'utf8');
    expect(text).not.toContain(server.credentials.apiKey);
    const defs = JSON.parse(text) as Array<{ path: string; chunks?: unknown[]; response: unknown; conformance?: { recorded_at?: string } }>;
    expect(defs.map((d) => d.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/embeddings', '/v1/files']);
    expect(defs[0]!.conformance?.recorded_at).toMatch(/^\d{4}-/);
    expect(defs[1]!.chunks!.length).toBeGreaterThan(2);

    // Replay in another process whose network is cut off: the same calls get the same answers; the stream, read
    // raw, comes in more than one chunk and is the recorded bytes.
    const script = join(dir, 'replay.mts');
    writeFileSync(script, `
import { useCassettes } from ${JSON.stringify(join(repoRoot, 'src', 'index.ts'))};
import { calls } from ${JSON.stringify(join(repoRoot, 'test', 'record-replay', 'record-own.calls.ts'))};
const handle = useCassettes(${JSON.stringify(dir)}, { name: ${JSON.stringify(name)}, mode: 'lockdown', target: ${JSON.stringify(server.url)} });
const answers = await calls(${JSON.stringify(server.url)}, 'sk-not-the-key');
handle.done();
const raw = useCassettes(${JSON.stringify(dir)}, { name: ${JSON.stringify(name)}, mode: 'lockdown' });
const res = await fetch(${JSON.stringify(server.url)} + '/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify(STREAM_BODY))} });
let chunks = 0; let body = '';
for await (const c of res.body) { chunks++; body += Buffer.from(c).toString('utf8'); }
await raw.done();
console.log(JSON.stringify({ answers, chunks, body, verdicts: handle.mustFailures().length }));
`);
    const { stdout } = await run('unshare', ['-rn', process.execPath, '--import', 'tsx', script], { cwd: repoRoot });
    const replayed = JSON.parse(stdout.trim().split('\n').pop()!) as { answers: unknown; chunks: number; body: string; verdicts: number };
    expect(replayed.answers).toEqual(live);
    expect(replayed.chunks).toBeGreaterThan(2);
    expect(replayed.body).toBe(defs[1]!.response);
    expect(replayed.verdicts).toBe(0);

    // The same cassette over HTTP (what conformance serve --cassettes runs), to curl and to Python: the same bytes.
    const served = await startProxy({ record: { dir, mode: 'lockdown' }, defaultCassette: name, timing: 'none' });
    try {
      const curl = await run('curl', ['-sN', `${served.url}/v1/chat/completions`, '-H', 'content-type: application/json', '-d', JSON.stringify(STREAM_BODY)]);
      expect(curl.stdout).toBe(defs[1]!.response);
      const python = await run('python3', ['-c', 'import sys, urllib.request\nreq = urllib.request.Request(sys.argv[1] + "/v1/chat/completions", data=sys.argv[2].encode(), method="POST", headers={"Content-Type": "application/json"})\nsys.stdout.write(urllib.request.urlopen(req).read().decode())', served.url, JSON.stringify(STREAM_BODY)]);
      expect(python.stdout).toBe(defs[1]!.response);
    } finally {
      await served.close();
    }
  });

  it("a recording against a faulty server names the fault's rule in mustFailures", async () => {
    const server = await startReferenceServer({ faults: ['embeddings-1535-dims'] });
    const dir = mkdtempSync(join(tmpdir(), 'record-own-fault-'));
    const handle = useCassettes(dir, { name: 'faulty', mode: 'record', target: server.url });
    await calls(server.url, server.credentials.apiKey);
    expect(handle.mustFailures().map((r) => r.requirements).flat()).toContain('EMB-ADA-1536');
    await handle.done();
    await server.close();
    // Replayed, the cassette is judged again: the same rule; and what no request used is written for CI to report.
    const unusedReport = join(dir, 'unused.json');
    const replay = useCassettes(dir, { name: 'faulty', mode: 'lockdown', unusedReport });
    expect(replay.mustFailures().map((r) => r.requirements).flat()).toContain('EMB-ADA-1536');
    await replay.done();
    const report = JSON.parse(readFileSync(unusedReport, 'utf8')) as { name: string; unused: string[] };
    expect(report.name).toBe('faulty');
    expect(report.unused).toHaveLength(4);
    expect(report.unused[0]).toMatch(/^POST .*\/v1\/chat\/completions$/);
  });

  it('an expired cassette is recorded again in record mode, and replayed but reported in lockdown; update records again', async () => {
    const server = await startReferenceServer();
    const dir = mkdtempSync(join(tmpdir(), 'record-own-expiry-'));
    const first = useCassettes(dir, { name: 'aging', mode: 'record', target: server.url, expiresAfterDays: 30 });
    await calls(server.url, server.credentials.apiKey);
    await first.done();
    const path = join(dir, 'aging.json');
    const defs = JSON.parse(readFileSync(path, 'utf8')) as Array<{ conformance: { recorded_at: string; expires_after_days?: number } }>;
    expect(defs[0]!.conformance.expires_after_days).toBe(30);
    expect(useCassettes(dir, { name: 'aging', mode: 'record', target: server.url }).recording).toBe(false);
    defs[0]!.conformance.recorded_at = '2020-01-01T00:00:00.000Z';
    writeFileSync(path, JSON.stringify(defs));
    const locked = useCassettes(dir, { name: 'aging', mode: 'lockdown' });
    expect(locked.expired).toBe(true);
    expect(locked.recording).toBe(false);
    await locked.done();
    const again = useCassettes(dir, { name: 'aging', mode: 'record', target: server.url });
    expect(again.recording).toBe(true);
    await again.done();
    const update = useCassettes(dir, { name: 'aging', mode: 'update', target: server.url });
    expect(update.recording).toBe(true);
    await update.done();
    await server.close();
    expect(() => useCassettes(dir, { name: 'never-recorded', mode: 'lockdown' })).toThrow(/no cassette .*never-recorded\.json to replay/);
  });
});
