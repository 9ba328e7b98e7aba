// useCassettes: the shipped recording answers a test of the user's own (own prompt, own client), as
// cassettes/README.md shows — with plain fetch and with the openai client v4.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import nock from 'nock';
import OpenAI from 'openai-v4';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCassettes, type CassetteHandle, type UseCassettesOptions } from '../../src/index.ts';
import { repoRoot } from '../../src/util/paths.ts';

const dir = join(repoRoot, 'cassettes');
const HOST = 'https://api.example.com';
let handle: CassetteHandle | undefined;
afterEach(() => handle?.done());

describe('useCassettes', () => {
  it('loose: a request with its own prompt gets a recorded successful answer of the same endpoint (fetch)', async () => {
    handle = useCassettes(dir, { suites: ['chat'], match: 'loose', host: HOST });
    const res = await fetch(`${HOST}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-anything', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'a prompt of my own' }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; choices: Array<{ message: { role: string } }> };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]!.message.role).toBe('assistant');
  });

  it('loose: the openai client v4, streamed and not, is served the recording', async () => {
    handle = useCassettes(dir, { suites: ['chat', 'chat-stream'], match: 'loose', host: HOST });
    const client = new OpenAI({ apiKey: 'sk-anything', baseURL: `${HOST}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'my own question' }] });
    expect(completion.choices[0]!.message.role).toBe('assistant');
    const stream = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'my own question' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text.length).toBeGreaterThan(0);
  });

  it('strict: only the recorded body matches; anything else fails instead of reaching the network', async () => {
    const recorded = (JSON.parse(readFileSync(join(dir, 'embeddings.json'), 'utf8')) as Array<{ method: string; path: string; status: number; body?: unknown }>)
      .find((d) => d.method === 'POST' && d.status === 200 && d.body !== undefined)!;
    handle = useCassettes(dir, { suites: ['embeddings'], host: HOST });
    const post = (body: unknown) => fetch(`${HOST}${recorded.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(recorded.body)).status).toBe(200);
    // What no recording matches is a 404 in the API's error shape naming the nearest recording (never the network).
    const miss = await post({ model: 'text-embedding-ada-002', input: 'never recorded' });
    expect(miss.status).toBe(404);
    const error = ((await miss.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('cassette_miss');
    expect(error.message).toMatch(/^useCassettes: no recording of POST \/v1\/embeddings .*; nearest recorded: POST \/v1\/embeddings .*\/input: recorded .*, sent "never recorded"/);
    expect(handle.pending().length).toBeGreaterThan(0);
  });

  it('a broken cassette in the folder is never passed over: the error names the file and the entry', () => {
    const copy = mkdtempSync(join(tmpdir(), 'use-cassettes-broken-'));
    cpSync(dir, copy, { recursive: true });
    writeFileSync(join(copy, 'models.json'), '[{"scope": ');
    expect(() => useCassettes(copy)).toThrow(`${join(copy, 'models.json')} is not valid JSON`);
    const defs = JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')) as Array<Record<string, unknown>>;
    defs[0]!.method = 5;
    writeFileSync(join(copy, 'models.json'), JSON.stringify(defs));
    expect(() => useCassettes(copy, { suites: ['models'] })).toThrow(/models\.json: entry 0: method must be a string/);
  });

  it('a typo in an option, a wrong value, a missing folder or suite is one clear error, and nothing is intercepted', () => {
    const before = nock.pendingMocks().length;
    expect(() => useCassettes(dir, { mach: 'loose' } as never)).toThrow('useCassettes: unknown option "mach" — did you mean "match"?');
    expect(() => useCassettes(dir, { match: 'fuzzy' as never })).toThrow('useCassettes: match must be "strict" or "loose", not "fuzzy"');
    expect(() => useCassettes(dir, { reuse: 'yes' as never })).toThrow('useCassettes: option "reuse" must be a boolean, not "yes"');
    expect(() => useCassettes(dir, { host: 'api.example.com' })).toThrow('useCassettes: host must be an origin');
    expect(() => useCassettes(join(dir, 'nope'))).toThrow(`useCassettes: no cassette folder at ${join(dir, 'nope')}`);
    expect(() => useCassettes(dir, { suites: ['chatt'] })).toThrow(/useCassettes: .* holds no cassette of "chatt" \(it holds: .*chat,/);
    expect(nock.pendingMocks().length).toBe(before);
  });

  it('bodyMatch decides body matching itself', async () => {
    handle = useCassettes(dir, { suites: ['embeddings'], host: HOST, bodyMatch: (rec, sent) => (rec as { model?: string }).model === (sent as { model?: string }).model });
    const res = await fetch(`${HOST}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'mine' }) });
    expect(res.status).toBeLessThan(500);
  });

  it('done() removes its interceptors and lets the network back', async () => {
    handle = useCassettes(dir, { suites: ['models'], host: HOST, match: 'loose' });
    expect((await fetch(`${HOST}/v1/models`)).status).toBe(200);
    handle.done();
    handle = undefined;
    expect(nock.pendingMocks()).toEqual([]);
    expect(nock.activeMocks()).toEqual([]);
  });
});

// Against real servers on 127.0.0.1: what reaches the network, what nock serves, what nock refuses.
describe('useCassettes and the network', () => {
  let servers: Server[] = [];
  let a = '';
  let b = '';
  let c = ''; // no handle ever serves this origin: it shows the network setting alone
  const open: CassetteHandle[] = [];
  const use = (options: UseCassettesOptions): CassetteHandle => {
    const h = useCassettes(dir, { suites: ['models'], match: 'loose', ...options });
    open.push(h);
    return h;
  };

  beforeAll(async () => {
    const start = async (): Promise<Server> => {
      const s = createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-live': '1' });
        res.end(JSON.stringify({ live: true, path: req.url }));
      });
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      return s;
    };
    servers = [await start(), await start(), await start()];
    [a, b, c] = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`) as [string, string, string];
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });
  afterEach(() => {
    for (const h of open.splice(0)) h.done();
    nock.enableNetConnect();
  });

  /** `live` (the server answered), `recorded <status>` (nock served a cassette), `no match` (nock's 501) or `refused` (nock's NetConnectNotAllowedError). */
  async function outcome(url: string, method = 'GET'): Promise<string> {
    let res: Response;
    try {
      res = await fetch(url, { method });
    } catch (e) {
      const cause = (e as { cause?: { name?: string } }).cause;
      return cause?.name === 'NetConnectNotAllowedError' ? 'refused' : `error ${String(cause?.name ?? e)}`;
    }
    const text = await res.text();
    if (res.headers.get('x-live') === '1') return 'live';
    // A miss on an origin a handle serves is its 404 naming the nearest recording; elsewhere nock's own 501.
    if ((res.status === 404 && text.includes('"cassette_miss"')) || (res.status === 501 && text.includes('ERR_NOCK_NO_MATCH'))) return 'no match';
    return `recorded ${res.status}`;
  }

  it('after done() the origin is not intercepted any more: a live server on it answers', async () => {
    expect(await outcome(`${a}/v1/models`)).toBe('live');
    const h = use({ host: a });
    expect(await outcome(`${a}/v1/models`)).toBe('recorded 200');
    expect(await outcome(`${a}/v1/engines`)).toBe('no match');
    h.done();
    expect(nock.pendingMocks()).toEqual([]);
    expect(await outcome(`${a}/v1/models`)).toBe('live');
    expect(await outcome(`${a}/v1/engines`)).toBe('live');
  });

  it('after done() the origin is free even when every recording was used first', async () => {
    const h = use({ host: a, match: 'strict' });
    for (let i = 0; i < 50 && h.pending().length > 0; i++) {
      const [method, url] = h.pending()[0]!.split(' ') as [string, string];
      expect(await outcome(url, method)).toMatch(/^recorded/);
    }
    expect(h.pending()).toEqual([]);
    h.done();
    expect(await outcome(`${a}/v1/models`)).toBe('live');
  });

  it('done() of one handle leaves the others serving, on the same origin and on another', async () => {
    const models = use({ host: a });
    const engines = use({ host: a, suites: ['engines'] });
    const other = use({ host: b, allowNet: true });
    models.done();
    expect(await outcome(`${a}/v1/engines`)).toBe('recorded 200');
    expect(await outcome(`${b}/v1/models`)).toBe('recorded 200');
    engines.done();
    expect(await outcome(`${b}/v1/models/ada`)).toBe('recorded 200');
    other.done();
    // Every handle done: both origins are live again (nock dropped the origins it kept).
    expect(await outcome(`${a}/v1/engines`)).toBe('live');
    expect(await outcome(`${b}/v1/models/ada`)).toBe('live');
  });

  it('allowNet: requests the recording does not hold reach the live server; recorded ones are served', async () => {
    use({ host: a, allowNet: true });
    expect(await outcome(`${a}/v1/engines`)).toBe('live');
    expect(await outcome(`${a}/v1/models`)).toBe('recorded 200');
    expect(await outcome(`${a}/v1/models/no-such-model-of-mine`)).toBe('live');
    const post = await fetch(`${a}/v1/models`, { method: 'POST', body: '{}' });
    expect(post.headers.get('x-live')).toBe('1');
  });

  it('allowNet: a handle opened after it on the same origin is still served', async () => {
    use({ host: a, allowNet: true });
    use({ host: a, allowNet: true, suites: ['engines'] });
    expect(await outcome(`${a}/v1/engines/ada`)).toBe('recorded 200');
    expect(await outcome(`${a}/v1/completions`)).toBe('live');
  });

  it('allowNet holds for its origin only; interceptors of your own on another origin work beside handles', async () => {
    use({ host: a, allowNet: true });
    use({ host: b });
    nock(c).get('/mine').reply(200, { mine: true });
    expect(await outcome(`${a}/v1/engines`)).toBe('live');
    expect(await outcome(`${b}/v1/engines`)).toBe('no match');
    expect(await outcome(`${c}/mine`)).toBe('recorded 200');
    expect(await outcome(`${c}/v1/models`)).toBe('no match');
    for (const h of open.splice(0)) h.done();
    expect(await outcome(`${a}/v1/engines`)).toBe('live');
    expect(await outcome(`${b}/v1/engines`)).toBe('live');
    nock.cleanAll();
  });


  it('done() keeps the network off while another handle that refuses it is open', async () => {
    const first = use({ host: a });
    const second = use({ host: a, suites: ['engines'] });
    first.done();
    expect(await outcome(`${c}/v1/models`)).toBe('refused');
    second.done();
    expect(await outcome(`${c}/v1/models`)).toBe('live');
  });

});

describe("useCassettes reads nock's own recorder output", () => {
  it('rawHeaders written as an object (name → value) replay as the same headers', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nock-recorder-'));
    writeFileSync(join(folder, 'recorded.json'), JSON.stringify([{
      scope: HOST, method: 'POST', path: '/v1/embeddings', body: { model: 'text-embedding-ada-002', input: 'hi' }, status: 200,
      response: { object: 'list', data: [], model: 'text-embedding-ada-002' },
      rawHeaders: { 'content-type': 'application/json', 'x-request-id': 'req-1', 'set-cookie': ['a=1', 'b=2'] },
    }]));
    handle = useCassettes(folder);
    const res = await fetch(`${HOST}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'hi' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(((await res.json()) as { object: string }).object).toBe('list');
  });
});


describe('useCassettes serves what was recorded, and nothing made up', () => {
  it('a cookie the recording redacted is not set in the client, as the proxy\'s replay leaves it out; the others are', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'redacted-cookie-'));
    writeFileSync(join(folder, 'cookies.json'), JSON.stringify([{
      scope: HOST, method: 'GET', path: '/v1/models', status: 200,
      response: { object: 'list', data: [] },
      rawHeaders: ['Content-Type', 'application/json', 'Set-Cookie', 'REDACTED', 'Set-Cookie', 'theme=dark', 'Connection', 'keep-alive'],
    }]));
    handle = useCassettes(folder);
    const res = await fetch(`${HOST}/v1/models`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['theme=dark']);
    expect(await res.json()).toEqual({ object: 'list', data: [] });
  });

  it("a HEAD answer keeps the recorded content-length, the length of the body a GET gets, as the proxy's replay does", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'head-length-'));
    writeFileSync(join(folder, 'head.json'), JSON.stringify([{
      scope: HOST, method: 'HEAD', path: '/v1/files/file-abc/content', status: 200, response: '',
      rawHeaders: ['Content-Type', 'application/octet-stream', 'Content-Length', '1234'],
    }]));
    handle = useCassettes(folder);
    const res = await fetch(`${HOST}/v1/files/file-abc/content`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1234');
    expect(await res.text()).toBe('');
  });
});

describe('useCassettes replays failures as they happened', () => {
  it('an answer cut off upstream breaks off again, and no answer at all is a network error, not a 200', async () => {
    const { startProxy } = await import('../../src/proxy/server.ts');
    const { localServer } = await import('../local-server.ts');
    const folder = mkdtempSync(join(tmpdir(), 'cut-replay-'));
    const event = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n';
    const up = await localServer((req, res) => {
      if (req.url === '/v1/models') {
        // Headers and part of the body, then the connection breaks.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 87 });
        res.write('{"object":"list","data":[{"id":"m"');
        setTimeout(() => res.destroy(), 20);
      } else if (req.url === '/v1/chat/completions') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(event);
        setTimeout(() => res.destroy(), 20);
      } else req.socket.destroy();
    });
    const recorder = await startProxy({ upstream: up.url, record: { dir: folder, mode: 'record' } });
    const cassette = { 'x-conformance-cassette': 'failures' };
    for (const [path, init] of [['/v1/models', {}], ['/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m","stream":true,"messages":[]}' }], ['/v1/engines', {}]] as const) {
      await fetch(`${recorder.url}${path}`, { ...init, headers: { ...cassette, ...('headers' in init ? init.headers : {}) } }).then((r) => r.arrayBuffer()).catch(() => undefined);
    }
    await recorder.close();
    await up.close();

    handle = useCassettes(folder, { host: HOST, match: 'loose' });
    const models = await fetch(`${HOST}/v1/models`);
    expect(models.status).toBe(200);
    await expect(models.text()).rejects.toThrow();
    // A stream cut off after its first event: the event comes, then the error (no [DONE], no clean end).
    const stream = await fetch(`${HOST}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m","stream":true,"messages":[]}' });
    const reader = stream.body!.getReader();
    let seen = '';
    const read = async (): Promise<void> => { for (;;) { const { done, value } = await reader.read(); if (done) return; seen += Buffer.from(value).toString(); } };
    await expect(read()).rejects.toThrow();
    expect(seen).toBe(event);
    // No answer was recorded: the client gets the network error, not a status.
    const engines = await fetch(`${HOST}/v1/engines`).then((r) => `status ${r.status}`, (e: Error) => `error: ${(e.cause as Error | undefined)?.message ?? e.message}`);
    expect(engines).toMatch(/^error: recorded: upstream unreachable/);
  });

  it('a cut-off answer whose recorded length is what came (a redaction set it so) still breaks off', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cut-length-'));
    const partial = '{"object":"list","data":[{"id":"m"';
    writeFileSync(join(folder, 'cut.json'), JSON.stringify([
      { scope: HOST, method: 'GET', path: '/v1/models', status: 200, response: partial, rawHeaders: ['content-type', 'application/json', 'content-length', String(partial.length)], responseIsBinary: false, error: { kind: 'network', message: 'upstream body broke off' } },
    ]));
    handle = useCassettes(folder);
    const res = await fetch(`${HOST}/v1/models`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('loose: a success that broke off is served after the whole ones, not first', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cut-order-'));
    const whole = '{"object":"list","data":[]}';
    writeFileSync(join(folder, 'order.json'), JSON.stringify([
      { scope: HOST, method: 'GET', path: '/v1/models', status: 200, response: '{"object":"li', rawHeaders: ['content-type', 'application/json', 'content-length', '27'], responseIsBinary: false, error: { kind: 'network', message: 'upstream body broke off' } },
      { scope: HOST, method: 'GET', path: '/v1/models', status: 200, response: whole, rawHeaders: ['content-type', 'application/json'], responseIsBinary: false },
    ]));
    handle = useCassettes(folder, { match: 'loose' });
    expect(await (await fetch(`${HOST}/v1/models`)).text()).toBe(whole);
  });
});
