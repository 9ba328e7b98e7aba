// conformance serve --cassettes: recordings over HTTP for tests in any language. curl and Python get the recorded
// bytes; a stream comes at its recorded pace (or at once, or scaled); a miss is the API's error shape naming the
// nearest recorded request; --fallback reference answers misses; the unused interactions are reported at the end.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/index.ts';
import { startProxy } from '../../src/proxy/server.ts';
import { repoRoot } from '../../src/util/paths.ts';

const run = promisify(execFile);
const children: ChildProcess[] = [];
afterEach(() => { for (const c of children.splice(0)) c.kill('SIGKILL'); });

function serve(args: string[]): { url: Promise<string>; out: () => string; stop: () => Promise<number | null> } {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const url = new Promise<string>((resolve) => {
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /served on (http:\/\/\S+) /.exec(out); if (m) resolve(m[1]!); });
    child.stderr!.on('data', (d: Buffer) => (out += d));
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { url, out: () => out, stop: () => { child.kill('SIGTERM'); return exit; } };
}

const CHAT = JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Count to five' }], max_tokens: 12, stream: true });

async function recording(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'serve-cassettes-'));
  const server = await startReferenceServer();
  const proxy = await startProxy({ upstream: server.url, record: { dir, mode: 'record' } });
  const headers = { authorization: `Bearer ${server.credentials.apiKey}`, 'content-type': 'application/json', 'x-conformance-cassette': 'shared' };
  await (await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers, body: CHAT })).text();
  await (await fetch(`${proxy.url}/v1/embeddings`, { method: 'POST', headers, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'hello' }) })).text();
  await proxy.close();
  await server.close();
  return dir;
}

describe('conformance serve --cassettes', () => {
  it('serves curl and Python the recorded bytes; a miss names the nearest recorded request; the unused are reported', async () => {
    const dir = await recording();
    const recorded = JSON.parse(readFileSync(join(dir, 'shared.json'), 'utf8')) as Array<{ path: string; response: unknown }>;
    const s = serve(['--cassettes', dir, '--timing', 'none', '--unused-report', join(dir, '..', `${dir.split('/').pop()}-unused.json`)]);
    const url = await s.url;
    const curl = await run('curl', ['-sN', `${url}/v1/chat/completions`, '-H', 'content-type: application/json', '-H', 'x-conformance-cassette: shared', '-d', CHAT]);
    expect(curl.stdout).toBe(recorded[0]!.response);
    const python = await run('python3', ['-c', `
import sys, urllib.request
req = urllib.request.Request(sys.argv[1] + "/v1/chat/completions", data=sys.argv[2].encode(), method="POST", headers={"Content-Type": "application/json", "x-conformance-cassette": "shared"})
sys.stdout.write(urllib.request.urlopen(req).read().decode())
`, url, CHAT]);
    expect(python.stdout).toBe(curl.stdout);
    const miss = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT.replace('Count to five', 'Count to six') });
    expect(miss.status).toBe(404);
    const error = ((await miss.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('cassette_miss');
    expect(error.message).toMatch(/nearest recorded: POST \/v1\/chat\/completions .*\/messages\/0\/content: recorded "Count to five", sent "Count to six"/);
    expect(await s.stop()).toBe(0);
    expect(s.out()).toMatch(/1 recorded interaction\(s\) no request used:\n {2}shared: POST \/v1\/embeddings/);
    const report = JSON.parse(readFileSync(join(dir, '..', `${dir.split('/').pop()}-unused.json`), 'utf8')) as { unused: string[] };
    expect(report.unused).toEqual(['shared: POST /v1/embeddings']);
  });

  it('a miss can have another status, and --fallback reference answers it instead', async () => {
    const dir = await recording();
    const s = serve(['--cassettes', dir, '--miss-status', '501']);
    const miss = await fetch(`${await s.url}/v1/models`);
    expect(miss.status).toBe(501);
    await s.stop();
    const f = serve(['--cassettes', dir, '--fallback', 'reference']);
    const answered = await fetch(`${await f.url}/v1/models`, { headers: { authorization: 'Bearer sk-ref-owner' } });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { object: string }).object).toBe('list');
    await f.stop();
  });

  it('replays a stream at its recorded pace, at once, or scaled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-timing-'));
    const body = 'data: {"a":1}\n\ndata: {"a":2}\n\ndata: [DONE]\n\n';
    writeFileSync(join(dir, 'paced.json'), JSON.stringify([{ scope: 'http://x', method: 'POST', path: '/v1/chat/completions', body: { stream: true }, status: 200, rawHeaders: ['content-type', 'text/event-stream'], response: body, responseIsBinary: false, chunks: [[0, 15], [400, 15], [0, 14]] }]));
    const elapsed = async (timing: string): Promise<number> => {
      const s = serve(['--cassettes', dir, '--timing', timing]);
      const url = await s.url;
      const t0 = performance.now();
      const text = await (await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stream":true}' })).text();
      const ms = performance.now() - t0;
      expect(text).toBe(body);
      await s.stop();
      return ms;
    };
    expect(await elapsed('recorded')).toBeGreaterThanOrEqual(390);
    expect(await elapsed('none')).toBeLessThan(300);
    const half = await elapsed('x0.5');
    expect(half).toBeGreaterThanOrEqual(190);
    expect(half).toBeLessThan(390);
  });
});
