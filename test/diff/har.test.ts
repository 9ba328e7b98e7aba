// HAR import: real exchanges with the reference server, written as a HAR 1.2 file the way a browser or
// Schemathesis writes one, become a cassette that is free of the key, diffs clean against the server it was
// taken from, and serves a test through useCassettes.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { useCassettes } from '../../src/index.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';

let server: ReferenceServer;
const root = mkdtempSync(join(tmpdir(), 'har-'));
const harFile = join(root, 'session.har');
const out = join(root, 'imported');

async function exchange(method: string, path: string, body?: unknown) {
  const headers = { authorization: `Bearer ${server.credentials.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) };
  const res = await fetch(server.url + path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return {
    startedDateTime: new Date().toISOString(), time: 1, cache: {}, timings: { send: 0, wait: 1, receive: 0 },
    request: {
      method, url: server.url + path, httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: body ? JSON.stringify(body).length : 0,
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      ...(body ? { postData: { mimeType: 'application/json', text: JSON.stringify(body, null, 2) } } : {}),
    },
    response: {
      status: res.status, statusText: res.statusText, httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: text.length,
      headers: [...res.headers].map(([name, value]) => ({ name, value })),
      content: { size: text.length, mimeType: res.headers.get('content-type') ?? '', text },
    },
  };
}

async function run(args: string[]) {
  let o = '';
  const code = await main(args, { out: { write: (s: string) => (o += s) }, err: { write: (s: string) => (o += s) }, env: {}, isTTY: false });
  return { code, out: o };
}

beforeAll(async () => {
  server = await startReferenceServer();
  const entries = [
    await exchange('GET', '/v1/models'),
    await exchange('POST', '/v1/completions', { model: 'davinci', prompt: 'red green blue', max_tokens: 5 }),
    await exchange('POST', '/v1/chat/completions', { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hello there' }], stream: true }),
    await exchange('POST', '/v1/embeddings', { model: 'text-embedding-ada-002', input: ['a', 'b'] }),
    await exchange('GET', '/favicon.ico'),
  ];
  writeFileSync(harFile, JSON.stringify({ log: { version: '1.2', creator: { name: 'test-browser', version: '1' }, entries } }, null, 2));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('conformance import-har', () => {
  it('imports the API entries into a cassette, and the key reaches no file', async () => {
    const r = await run(['import-har', harFile, '--out', out, '--suite', 'session']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('4 of 5 entries');
    expect(readdirSync(out)).toEqual(['session.json']);
    const text = readFileSync(join(out, 'session.json'), 'utf8');
    expect(text).not.toContain(server.credentials.apiKey);
    expect(JSON.parse(text)[0].conformance).toMatchObject({ suite: 'session', tool: 'har:test-browser@1', interactions: 4 });
  });

  it('the imported recording diffs clean against the server it was taken from', { timeout: 60_000 }, async () => {
    const r = await run(['diff', '--against', out, '--base-url', server.url, '--api-key', server.credentials.apiKey, '--report-dir', join(root, 'reports')]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('4 answers the same, 0 different, 0 not sent');
  });

  it('serves a test of your own through useCassettes', async () => {
    const handle = useCassettes(out, { match: 'loose', host: 'https://api.example.com' });
    try {
      const res = await fetch('https://api.example.com/v1/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: ['mine'] }) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data.length).toBe(2);
    } finally {
      handle.done();
    }
  });

  it('a file that is not HAR is one clear line, exit 2', async () => {
    writeFileSync(join(root, 'bad.har'), '{"nope": true}');
    const r = await run(['import-har', join(root, 'bad.har'), '--out', join(root, 'x')]);
    expect(r.code).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toContain('not a HAR file');
  });

  it('an answer stored base64 (as browsers export it) is redacted too: the key it echoes reaches no file', async () => {
    const key = 'sk-live-SECRET0123456789abcdef';
    const echoed = JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    const entry = (await exchange('GET', '/v1/models')) as { request: { headers: Array<{ name: string; value: string }> }; response: { status: number; content: Record<string, unknown> } };
    entry.request.headers = [{ name: 'authorization', value: `Bearer ${key}` }];
    entry.response.status = 401;
    entry.response.content = { size: echoed.length, mimeType: 'application/json', encoding: 'base64', text: Buffer.from(echoed).toString('base64') };
    writeFileSync(join(root, 'b64.har'), JSON.stringify({ log: { version: '1.2', creator: { name: 'browser', version: '1' }, entries: [entry] } }));
    const r = await run(['import-har', join(root, 'b64.har'), '--out', join(root, 'b64')]);
    expect(r.code, r.out).toBe(0);
    const written = readdirSync(join(root, 'b64')).map((f) => readFileSync(join(root, 'b64', f), 'utf8')).join('\n');
    expect(written).toContain('Incorrect API key provided');
    expect(written).not.toContain(key);
    expect(written).not.toContain(Buffer.from(key).toString('hex'));
  });

  it('an entry whose URL is not absolute is named: one line, exit 2', async () => {
    const entry = await exchange('GET', '/v1/models');
    entry.request.url = '/v1/models';
    writeFileSync(join(root, 'relative.har'), JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
    const r = await run(['import-har', join(root, 'relative.har'), '--out', join(root, 'rel')]);
    expect(r.code).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toContain('log.entries[0].request.url is not an absolute URL');
  });

  it('diffs each entry with the credentials it had by role, and leaves out multipart bodies it cannot send again', { timeout: 60_000 }, async () => {
    const good = await exchange('GET', '/v1/models');
    const wrong = await exchange('GET', '/v1/models/davinci');
    // The same request with a key the session made up: answered 401 then, and by a diff too.
    const res = await fetch(`${server.url}/v1/models/davinci`, { headers: { authorization: 'Bearer sk-made-up-key-0000' } });
    wrong.request.headers = [{ name: 'authorization', value: 'Bearer sk-made-up-key-0000' }];
    wrong.response.status = res.status;
    wrong.response.content = { size: 0, mimeType: 'application/json', text: await res.text() };
    const upload = await exchange('GET', '/v1/files');
    upload.request.method = 'POST';
    upload.request.postData = { mimeType: 'multipart/form-data; boundary=XyZ', text: '--XyZ\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nfine-tune\r\n--XyZ--\r\n' };
    writeFileSync(join(root, 'roles.har'), JSON.stringify({ log: { version: '1.2', entries: [good, wrong, upload] } }));
    expect((await run(['import-har', join(root, 'roles.har'), '--out', join(root, 'roles')])).code).toBe(0);
    const d = await run(['diff', '--against', join(root, 'roles'), '--base-url', server.url, '--api-key', server.credentials.apiKey, '--report-dir', join(root, 'roles-diff')]);
    expect(d.code, d.out).toBe(0);
    expect(d.out).toContain('2 answers the same, 0 different, 1 not sent');
    const report = JSON.parse(readFileSync(join(root, 'roles-diff', 'report.json'), 'utf8')) as { results: Array<{ status: string; message: string }> };
    expect(report.results.find((r) => r.status === 'skip')?.message).toContain('a multipart body imported from a HAR');
  });
});
