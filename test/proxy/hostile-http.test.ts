// The proxy under HTTP as clients and upstreams really send it: `Expect: 100-continue` uploads, gzipped event
// streams, keys echoed in answers, upstream failures while recording, answers cut off, bodiless answers and
// cookies. Each case was found failing by an audit with curl and python3 against a recording proxy.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/judge/results.ts';
import { startProxy, type ProxyHandle } from '../../src/proxy/server.ts';
import { trafficSession } from '../../src/traffic/session.ts';
import type { CassetteDefinition } from '../../src/transport/cassette.ts';
import { localServer, type LocalServer } from '../local-server.ts';

const closers: Array<() => Promise<unknown>> = [];
const dirs: string[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function upstream(handler: Parameters<typeof localServer>[0]): Promise<LocalServer> {
  const s = await localServer(handler);
  closers.push(() => s.close());
  return s;
}

async function proxy(opts: Parameters<typeof startProxy>[0]): Promise<ProxyHandle> {
  const p = await startProxy(opts);
  closers.push(() => p.close());
  return p;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'hostile-http-'));
  dirs.push(d);
  return d;
}

const mustFailures = (results: readonly CheckResult[]) => results.filter((r) => (r.status === 'fail' || r.status === 'error') && r.severity === 'must').map((r) => `${r.check}: ${r.message}`);
const KEY = 'sk-live-0123456789abcdef';
const CASSETTE = { 'x-conformance-cassette': 'hostile' };

function chatChunk(delta: object, finish: string | null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-3.5-turbo', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}
const SSE = chatChunk({ role: 'assistant', content: 'Hi' }, null) + chatChunk({}, 'stop') + 'data: [DONE]\n\n';

describe('the proxy under hostile HTTP', () => {
  it('forwards an upload sent with Expect: 100-continue (curl does for bodies over 1 MiB)', async () => {
    const up = await upstream((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ expect: req.headers.expect ?? null })));
    const p = await proxy({ upstream: up.url });
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${p.url}/v1/files`, { method: 'POST', headers: { expect: '100-continue', 'content-type': 'application/octet-stream', 'content-length': 5 } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.on('continue', () => req.end('hello'));
    });
    expect(status).toBe(200);
    // The proxy answered the expectation itself: the upstream gets the body, not the expectation.
    expect(JSON.parse(body)).toEqual({ expect: null });
  });

  it('keeps a key the answer echoes out of every result', async () => {
    // A model list that is not one, holding the caller's key: its failure shows the body and where it broke.
    const up = await upstream((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: `caller ${req.headers.authorization}` })));
    const seen: CheckResult[] = [];
    const p = await proxy({ upstream: up.url, judge: trafficSession(up.url).judge, onExchange: (d) => seen.push(...d.results) });
    await (await fetch(`${p.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).arrayBuffer();
    await p.close();
    expect(mustFailures(p.results).length).toBeGreaterThan(0);
    expect(JSON.stringify(p.results)).not.toContain(KEY);
    expect(JSON.stringify(seen)).not.toContain(KEY);
  });

  it('judges a gzipped event stream by its events, as it judges a plain one', async () => {
    const up = await upstream((req, res) => {
      const gzip = req.url?.endsWith('gz') === true;
      res.writeHead(200, { 'content-type': 'text/event-stream', ...(gzip ? { 'content-encoding': 'gzip' } : {}) }).end(gzip ? gzipSync(SSE) : SSE);
    });
    const p = await proxy({ upstream: up.url, judge: trafficSession(up.url).judge });
    const body = JSON.stringify({ model: 'gpt-3.5-turbo', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    for (const query of ['', '?gz']) {
      const res = await fetch(`${p.url}/v1/chat/completions${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(await res.text()).toBe(SSE);
    }
    await p.close();
    expect(p.results.filter((r) => r.status === 'pass' && r.check.includes('done')).length).toBeGreaterThan(0);
    expect(mustFailures(p.results)).toEqual([]);
  });

  it('records an upstream failure, and in record mode asks the upstream again instead of serving it', async () => {
    const dir = tempDir();
    const down = await proxy({ upstream: 'http://127.0.0.1:1', record: { dir, mode: 'record' } });
    expect((await fetch(`${down.url}/v1/models`, { headers: CASSETTE })).status).toBe(502);
    await down.close();
    expect((JSON.parse(readFileSync(join(dir, 'hostile.json'), 'utf8')) as CassetteDefinition[]).map((d) => d.status)).toEqual([0]);

    const up = await upstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}'));
    const again = await proxy({ upstream: up.url, record: { dir, mode: 'record' } });
    expect((await fetch(`${again.url}/v1/models`, { headers: CASSETTE })).status).toBe(200);
    await again.close();
    // The answer takes the failure's place: replayed later, the cassette gives the answer.
    expect((JSON.parse(readFileSync(join(dir, 'hostile.json'), 'utf8')) as CassetteDefinition[]).map((d) => d.status)).toEqual([200]);
  });

  it('keeps a client inside the upstream\'s base path: dot segments resolve against it', async () => {
    const paths: string[] = [];
    const up = await upstream((req, res) => { paths.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    const p = await proxy({ upstream: `${up.url}/some/prefix` });
    for (const target of ['/../../admin/x', '/v1/%2e%2e/%2E%2E/%2e%2e/admin', '/v1/models?after=a..b', '/v1/files/file%2Fabc', '//v1/models/gpt-3.5-turbo', '/v1/files/a/..']) {
      await new Promise<void>((resolve, reject) => httpRequest(`${p.url}/`, { path: target }, (res) => res.resume().on('end', resolve)).on('error', reject).end());
    }
    expect(paths).toEqual(['/some/prefix/admin/x', '/some/prefix/admin', '/some/prefix/v1/models?after=a..b', '/some/prefix/v1/files/file%2Fabc', '/some/prefix//v1/models/gpt-3.5-turbo', '/some/prefix/v1/files/']);
  });

  it('stops within its drain bound while an event stream never ends, and writes what it recorded', async () => {
    const dir = tempDir();
    const up = await upstream((req, res) => {
      if (req.url === '/v1/models') res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
      else res.writeHead(200, { 'content-type': 'text/event-stream' }).write(chatChunk({ role: 'assistant' }, null));
    });
    const p = await proxy({ upstream: up.url, record: { dir, mode: 'record' }, drainMs: 200 });
    await (await fetch(`${p.url}/v1/models`, { headers: CASSETTE })).arrayBuffer();
    const open = await fetch(`${p.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...CASSETTE }, body: '{"model":"m","stream":true,"messages":[]}' });
    const reading = open.text().catch(() => 'cut off');
    const t0 = performance.now();
    await p.close();
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(await reading).toBe('cut off');
    expect((JSON.parse(readFileSync(join(dir, 'hostile.json'), 'utf8')) as CassetteDefinition[]).map((d) => d.path)).toEqual(['/v1/models']);
  });

  it('judges the answer to a request with fields the spec does not define as a should (an SDK\'s encoding_format: base64)', async () => {
    const base64 = Buffer.from(new Float32Array([0.1, -0.2]).buffer).toString('base64');
    const up = await upstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ object: 'embedding', embedding: base64, index: 0 }], model: 'text-embedding-ada-002', usage: { prompt_tokens: 1, total_tokens: 1 } })));
    const send = async (extra: object) => {
      const p = await proxy({ upstream: up.url, judge: trafficSession(up.url).judge });
      await (await fetch(`${p.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'hi', ...extra }) })).arrayBuffer();
      await p.close();
      return p.results;
    };
    // Asked as the spec defines the request (or for floats, as SDKs may ask), a string is no array of floats: a must.
    expect(mustFailures(await send({})).length).toBeGreaterThan(0);
    expect(mustFailures(await send({ encoding_format: 'float' })).length).toBeGreaterThan(0);
    const extended = await send({ encoding_format: 'base64' });
    expect(mustFailures(extended)).toEqual([]);
    expect(extended.filter((r) => r.status === 'warn').map((r) => r.message).join('\n')).toContain('the request used encoding_format');
  });

  describe('replayed as recorded', () => {
    async function recordThenReplay(handler: Parameters<typeof localServer>[0], send: (base: string) => Promise<void>): Promise<string> {
      const dir = tempDir();
      const up = await upstream(handler);
      const rec = await proxy({ upstream: up.url, record: { dir, mode: 'record' } });
      await send(rec.url);
      await rec.close();
      const replaying = await proxy({ record: { dir, mode: 'lockdown' } });
      return replaying.url;
    }

    it('recorded under a base path, answers at the root (serve --cassettes) and under the same base path', async () => {
      const dir = tempDir();
      const up = await upstream((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [], url: req.url })));
      const rec = await proxy({ upstream: `${up.url}/some/prefix`, record: { dir, mode: 'record' } });
      const recorded = await (await fetch(`${rec.url}/v1/models?x=1`, { headers: CASSETTE })).text();
      await rec.close();
      expect(JSON.parse(recorded).url).toBe('/some/prefix/v1/models?x=1');
      const atRoot = await proxy({ record: { dir, mode: 'lockdown' } });
      expect(await (await fetch(`${atRoot.url}/v1/models?x=1`, { headers: CASSETTE })).text()).toBe(recorded);
      const missed = await fetch(`${atRoot.url}/v1/models?x=2`, { headers: CASSETTE });
      expect([missed.status, await missed.text()]).toEqual([404, expect.stringContaining('nearest recorded: GET /v1/models?x=1')]);
      const underBase = await proxy({ upstream: `${up.url}/some/prefix`, record: { dir, mode: 'lockdown' } });
      expect(await (await fetch(`${underBase.url}/v1/models?x=1`, { headers: CASSETTE })).text()).toBe(recorded);
    });

    it('recorded with the base URL as SDKs take it (ending in /v1), answers /v1/… at the root', async () => {
      const dir = tempDir();
      const up = await upstream((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [], url: req.url })));
      const rec = await proxy({ upstream: `${up.url}/v1`, record: { dir, mode: 'record' } });
      const recorded = await (await fetch(`${rec.url}/models`, { headers: CASSETTE })).text();
      await rec.close();
      expect(JSON.parse(recorded).url).toBe('/v1/models');
      const atRoot = await proxy({ record: { dir, mode: 'lockdown' } });
      expect(await (await fetch(`${atRoot.url}/v1/models`, { headers: CASSETTE })).text()).toBe(recorded);
    });

    it('an answer cut off upstream, after its headers, is cut off for the client again', async () => {
      const base = await recordThenReplay((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 87 });
        res.flushHeaders();
        setTimeout(() => res.destroy(), 20);
      }, async (url) => {
        await expect(fetch(`${url}/v1/models`, { headers: CASSETTE }).then((r) => r.arrayBuffer())).rejects.toThrow();
      });
      const replayed = await fetch(`${base}/v1/models`, { headers: CASSETTE });
      expect(replayed.status).toBe(200);
      await expect(replayed.arrayBuffer()).rejects.toThrow();
    });

    it('an answer cut off upstream is cut off for the client again', async () => {
      const base = await recordThenReplay((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 87 });
        res.write('{"object":"list","data":[{"id":"m"');
        setTimeout(() => res.destroy(), 20);
      }, async (url) => {
        await expect(fetch(`${url}/v1/models`, { headers: CASSETTE }).then((r) => r.arrayBuffer())).rejects.toThrow();
      });
      await expect(fetch(`${base}/v1/models`, { headers: CASSETTE }).then((r) => r.arrayBuffer())).rejects.toThrow();
    });

    it('a client that stops reading a long event stream and leaves does not hold the replaying proxy open', async () => {
      // An event stream is replayed at its recorded chunk boundaries. 15 MiB (under the 16 MiB a recording keeps)
      // in 64 KiB events is more than the socket buffers between the two, so the replay waits for 'drain' when the
      // client stops reading. Its leaving must end that wait: no 'drain' ever comes, and close() waits for every
      // exchange under way.
      const EVENT = Buffer.from(`data: ${'a'.repeat(64 * 1024 - 8)}\n\n`);
      const EVENTS = 240;
      const dir = tempDir();
      const up = await upstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let sent = 0;
        const more = (): void => { while (sent < EVENTS) { sent++; if (!res.write(EVENT)) { res.once('drain', more); return; } } res.end(); };
        more();
      });
      const rec = await proxy({ upstream: up.url, record: { dir, mode: 'record' } });
      const recorded = await (await fetch(`${rec.url}/v1/chat/completions`, { method: 'POST', headers: { ...CASSETTE, 'content-type': 'application/json' }, body: '{"stream":true}' })).arrayBuffer();
      expect(recorded.byteLength).toBe(EVENT.length * EVENTS);
      await rec.close();
      // Closing waits for the exchanges under way for up to a minute here: only the client's leaving can end this one.
      const replaying = await startProxy({ record: { dir, mode: 'lockdown' }, timing: 'none', drainMs: 60_000 });
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${replaying.url}/v1/chat/completions`, { method: 'POST', headers: { ...CASSETTE, 'content-type': 'application/json' } }, (res) => {
          res.once('data', () => {
            res.pause();
            // Long enough for the replay to fill the buffers and wait; then the client goes.
            setTimeout(() => { req.destroy(); resolve(); }, 300);
          });
        });
        req.on('error', () => { /* destroyed on purpose */ });
        req.end('{"stream":true}');
      });
      const closed = await Promise.race([replaying.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open after 5 s'), 5000))]);
      expect(closed).toBe('closed');
    });

    it('an answer cut off whose recorded length is what came (a redaction set it so) is still cut off; repeated headers stay', async () => {
      const dir = tempDir();
      const partial = '{"object":"list","data":[{"id":"m"';
      writeFileSync(join(dir, 'hostile.json'), JSON.stringify([
        { scope: 'http://upstream.test', method: 'GET', path: '/v1/models', status: 200, response: partial, rawHeaders: ['content-type', 'application/json', 'content-length', String(partial.length), 'x-multi', 'a', 'x-multi', 'b'], responseIsBinary: false, error: { kind: 'network', message: 'upstream body broke off' } },
        { scope: 'http://upstream.test', method: 'GET', path: '/v1/engines', status: 200, response: '{"object":"list","data":[]}', rawHeaders: ['content-type', 'application/json', 'link', '<a>; rel="next"', 'link', '<b>; rel="last"'], responseIsBinary: false },
      ]));
      const replaying = await proxy({ record: { dir, mode: 'lockdown' } });
      const cut = await fetch(`${replaying.url}/v1/models`, { headers: CASSETTE });
      expect([cut.status, cut.headers.get('x-multi')]).toEqual([200, 'a, b']);
      await expect(cut.arrayBuffer()).rejects.toThrow();
      const whole = await fetch(`${replaying.url}/v1/engines`, { headers: CASSETTE });
      expect(whole.headers.get('link')).toBe('<a>; rel="next", <b>; rel="last"');
      expect(await whole.text()).toBe('{"object":"list","data":[]}');
    });

    it('HEAD, 204 and 304 keep the framing headers they were recorded with; cookies are not replayed', async () => {
      const base = await recordThenReplay((req, res) => {
        if (req.method === 'HEAD') res.writeHead(200, { 'content-type': 'application/json', 'content-length': 87 }).end();
        else if (req.method === 'DELETE') res.writeHead(204).end();
        else if (req.headers['if-none-match']) res.writeHead(304, { etag: '"a"' }).end();
        else res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] }).end('{"object":"list","data":[]}');
      }, async (url) => {
        await fetch(`${url}/v1/models`, { method: 'HEAD', headers: CASSETTE });
        await fetch(`${url}/v1/files/f`, { method: 'DELETE', headers: CASSETTE });
        await fetch(`${url}/v1/engines`, { headers: { ...CASSETTE, 'if-none-match': '"a"' } });
        await (await fetch(`${url}/v1/models`, { headers: CASSETTE })).arrayBuffer();
      });
      const head = await fetch(`${base}/v1/models`, { method: 'HEAD', headers: CASSETTE });
      expect(head.headers.get('content-length')).toBe('87');
      const deleted = await fetch(`${base}/v1/files/f`, { method: 'DELETE', headers: CASSETTE });
      expect([deleted.status, deleted.headers.get('content-length')]).toEqual([204, null]);
      const unchanged = await fetch(`${base}/v1/engines`, { headers: { ...CASSETTE, 'if-none-match': '"a"' } });
      expect([unchanged.status, unchanged.headers.get('content-length')]).toEqual([304, null]);
      const listed = await fetch(`${base}/v1/models`, { headers: CASSETTE });
      expect(await listed.text()).toBe('{"object":"list","data":[]}');
      expect(listed.headers.getSetCookie()).toEqual([]);
    });
  });
});
