// conformance proxy with other clients and under load: curl and Python's urllib (a second language) get the bytes
// the recording keeps; 64 concurrent clients record into 64 named cassettes without a mix-up; an upstream that is
// not there is a 502 in the API's error shape; the process prints its URL, stops on SIGTERM with its reports and
// the exit code --fail-on asks for, and a kill -9 at any moment leaves every cassette whole or absent.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/index.ts';
import { startProxy, type ProxyHandle } from '../../src/proxy/server.ts';
import { trafficSession } from '../../src/traffic/session.ts';
import { repoRoot } from '../../src/util/paths.ts';

const run = promisify(execFile);
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

async function setUp(record?: string, faults: string[] = []): Promise<{ server: ReferenceServer; proxy: ProxyHandle }> {
  const server = await startReferenceServer({ faults });
  closers.push(() => server.close());
  const proxy = await startProxy({ upstream: server.url, judge: trafficSession(server.url).judge, ...(record ? { record: { dir: record, mode: 'record' } } : {}) });
  closers.push(() => proxy.close());
  return { server, proxy };
}

const CHAT = (content: string, stream = false) => JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content }], max_tokens: 16, ...(stream ? { stream: true } : {}) });
type Def = { path: string; body?: { messages?: Array<{ content: string }> }; response: unknown; chunks?: Array<[number, number]> };
const cassette = (dir: string, name: string): Def[] => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Def[];

describe('conformance proxy with curl and Python', () => {
  it('curl gets a stream whose bytes the cassette keeps, at its chunk boundaries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-curl-'));
    const { server, proxy } = await setUp(dir);
    const { stdout } = await run('curl', ['-sN', `${proxy.url}/v1/chat/completions`, '-H', `Authorization: Bearer ${server.credentials.apiKey}`, '-H', 'content-type: application/json', '-H', 'x-conformance-cassette: curl', '-d', CHAT('Count to five', true)]);
    await proxy.close();
    const [def] = cassette(dir, 'curl');
    expect(def!.response).toBe(stdout);
    expect(stdout.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(def!.chunks!.reduce((n, [, size]) => n + size, 0)).toBe(Buffer.byteLength(stdout));
    expect(proxy.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(proxy.results.some((r) => r.check === 'sse_chat_ends_with_done' && r.status === 'pass')).toBe(true);
  });

  it("Python's urllib (Debian's python3) uploads a file and gets the same bytes the cassette keeps", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-python-'));
    const { server, proxy } = await setUp(dir);
    const script = `
import json, sys, urllib.request
base, key = sys.argv[1], sys.argv[2]
boundary = "py-boundary-1234"
data = b'{"prompt": "a ->", "completion": " b"}\\n' * 10
body = (f'--{boundary}\\r\\nContent-Disposition: form-data; name="purpose"\\r\\n\\r\\nfine-tune\\r\\n'
        f'--{boundary}\\r\\nContent-Disposition: form-data; name="file"; filename="train.jsonl"\\r\\nContent-Type: application/jsonl\\r\\n\\r\\n').encode() + data + f'\\r\\n--{boundary}--\\r\\n'.encode()
req = urllib.request.Request(base + "/v1/files", data=body, method="POST", headers={"Authorization": "Bearer " + key, "Content-Type": "multipart/form-data; boundary=" + boundary, "x-conformance-cassette": "python"})
with urllib.request.urlopen(req) as res:
    sys.stdout.write(res.read().decode())
`;
    const { stdout } = await run('python3', ['-c', script, proxy.url, server.credentials.apiKey]);
    await proxy.close();
    const file = JSON.parse(stdout) as { bytes: number; filename: string };
    expect(file.bytes).toBe(Buffer.byteLength('{"prompt": "a ->", "completion": " b"}\n') * 10);
    const [def] = cassette(dir, 'python') as Array<Def & { multipart?: { fields: Record<string, string>; files: Array<{ size: number; filename: string }> } }>;
    expect(def!.multipart!.fields).toEqual({ purpose: 'fine-tune' });
    expect(def!.multipart!.files[0]!.size).toBe(file.bytes);
    expect(JSON.stringify(def!.response)).toBe(stdout);
    expect(proxy.results.some((r) => r.requirements.includes('FILE-BYTES') && r.status === 'pass') || proxy.results.some((r) => r.check.startsWith('file_') && r.status === 'pass')).toBe(true);
  });
});

describe('conformance proxy under load and failure', () => {
  it('64 concurrent clients record into 64 named cassettes: every exchange in its own file, in its order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-64-'));
    const { server, proxy } = await setUp(dir);
    await Promise.all(Array.from({ length: 64 }, async (_, i) => {
      for (let j = 0; j < 3; j++) {
        const res = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${server.credentials.apiKey}`, 'content-type': 'application/json', 'x-conformance-cassette': `client-${i}` }, body: CHAT(`client ${i} call ${j}`, j === 2) });
        await res.arrayBuffer();
      }
    }));
    await proxy.close();
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(64);
    for (let i = 0; i < 64; i++) {
      expect(cassette(dir, `client-${i}`).map((d) => d.body!.messages![0]!.content)).toEqual([0, 1, 2].map((j) => `client ${i} call ${j}`));
    }
    expect(proxy.results.filter((r) => r.status === 'fail')).toEqual([]);
  });

  it('an upstream that is not there is a 502 in the API error shape, and no verdict on the service', async () => {
    const proxy = await startProxy({ upstream: 'http://127.0.0.1:9', judge: trafficSession('http://127.0.0.1:9').judge });
    closers.push(() => proxy.close());
    const res = await fetch(`${proxy.url}/v1/models`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_unreachable');
    expect(body.error.message).toMatch(/ECONNREFUSED/);
    expect(proxy.results).toEqual([]);
  });
});

function startCli(args: string[]): { child: ChildProcess; url: Promise<string>; out: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'proxy', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = new Promise<string>((resolve) => {
    const on = (d: Buffer) => { out += d; const m = /conformance proxy on (http:\/\/\S+)/.exec(out); if (m) resolve(m[1]!); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', (d) => (out += d));
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { child, url, out: () => out, exit };
}

describe('conformance proxy, the command', () => {
  it('prints its URL and one line per exchange; SIGTERM writes the reports and exits as --fail-on says', async () => {
    const server = await startReferenceServer({ faults: ['embeddings-1535-dims'] });
    closers.push(() => server.close());
    const reports = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
    const cli = startCli(['--upstream', server.url, '--report-dir', reports]);
    const url = await cli.url;
    const res = await fetch(`${url}/v1/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${server.credentials.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'hello' }) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 200));
    cli.child.kill('SIGTERM');
    expect(await cli.exit, cli.out()).toBe(1);
    expect(cli.out()).toMatch(/FAIL 200 POST \/v1\/embeddings/);
    expect(cli.out()).toMatch(/EMB-ADA-1536/);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { verdict: string; results: Array<{ case: string }> };
    expect(report.verdict).toBe('fail');
    expect(report.results[0]!.case).toMatch(/^POST \/v1\/embeddings @ /);
    for (const f of ['junit.xml', 'summary.md', 'report.html']) expect(existsSync(join(reports, f))).toBe(true);
  });

  it('a kill -9 at any moment leaves every cassette file whole and valid, or absent', async () => {
    const server = await startReferenceServer();
    closers.push(() => server.close());
    let whole = 0;
    for (const delay of [60, 150, 300]) {
      const dir = mkdtempSync(join(tmpdir(), 'proxy-kill-'));
      const cli = startCli(['--upstream', server.url, '--record', dir, '--no-judge', '--quiet']);
      const url = await cli.url;
      const load = Array.from({ length: 16 }, async (_, i) => {
        for (let j = 0; j < 200; j++) {
          try {
            const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${server.credentials.apiKey}`, 'content-type': 'application/json', 'x-conformance-cassette': `c${i % 4}` }, body: CHAT(`kill ${i} ${j}`, j % 3 === 0) });
            await res.arrayBuffer();
          } catch { return; }
        }
      });
      await new Promise((r) => setTimeout(r, delay));
      cli.child.kill('SIGKILL');
      await Promise.all(load);
      await cli.exit;
      const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
      for (const f of files) {
        const defs = JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown[];
        expect(Array.isArray(defs) && defs.length > 0, f).toBe(true);
        whole++;
      }
    }
    expect(whole).toBeGreaterThan(0);
  });
});
