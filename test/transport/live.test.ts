import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveTransport } from '../../src/transport/live.ts';
import { ThrottledTransport } from '../../src/transport/throttle.ts';
import type { AnswerHead, Exchange, OutgoingRequest, SseEvent, Transport } from '../../src/transport/types.ts';
import { Redactor } from '../../src/util/redact.ts';

const KEY = 'sk-live-test-key-0123456789';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;
const routes = new Map<string, Handler>();
let server: Server;
let base: string;
let connections = 0;
const seen: Array<{ url: string; headers: IncomingMessage['headers']; body: Buffer }> = [];

function sse(res: ServerResponse, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
}
const json = (res: ServerResponse, status: number, value: unknown): void => {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

// A JSON body that drips a byte every 50 ms and never ends (asked for as a stream).
routes.set('/drip-json', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const t = setInterval(() => { if (res.destroyed) clearInterval(t); else res.write(' '); }, 50);
  res.on('close', () => clearInterval(t));
});
routes.set('/json', (req, res, body) => json(res, 200, { ok: true, method: req.method, echo: body.toString() }));
routes.set('/error', (_req, res) => json(res, 400, { error: { message: 'bad', type: 'invalid_request_error' } }));
routes.set('/text', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  res.end('{"sniffed":1}');
});
routes.set('/binary', (_req, res) => {
  res.writeHead(200, { 'content-type': 'image/png', 'set-cookie': ['a=1', 'b=2'] });
  res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]));
});
const big = JSON.stringify({ data: Array.from({ length: 2000 }, (_, i) => ({ i, text: `item ${i}` })) });
routes.set('/gzip', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  res.end(gzipSync(big));
});
routes.set('/br', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
  res.end(brotliCompressSync(big));
});
// zstd (node:zlib has it from Node 22.15): decoded when a target sends it, though the harness never asks for it.
const zstdCompressSync = (zlib as { zstdCompressSync?: (data: string) => Buffer }).zstdCompressSync;
routes.set('/zstd', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
  res.end(zstdCompressSync!(big));
});
routes.set('/deflate', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
  res.end(deflateSync(big));
});
routes.set('/deflate-raw', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
  res.end(deflateRawSync(big));
});
routes.set('/bad-gzip', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  res.end('not gzip at all');
});
routes.set('/never', () => {});
routes.set('/slow-body', (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"partial":');
});
routes.set('/huge', (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  let n = 0;
  const write = (): void => {
    while (n < 200) {
      n++;
      if (!res.write(chunk)) {
        res.once('drain', write);
        return;
      }
    }
    res.end();
  };
  write();
});
routes.set('/stream', (_req, res) => {
  sse(res);
  let i = 0;
  const tick = (): void => {
    if (i < 5) {
      res.write(`data: ${JSON.stringify({ i })}\n\n`);
      i++;
      setTimeout(tick, 5);
    } else res.end('data: [DONE]\n\n');
  };
  tick();
});
routes.set('/stream-gzip', (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
  res.end(gzipSync('data: {"z":1}\n\ndata: [DONE]\n\n'));
});
routes.set('/stall', (_req, res) => {
  sse(res);
  res.write('data: {"n":1}\n\n');
  res.write('data: {"n":2}\n\n');
});
routes.set('/eof', (_req, res) => {
  sse(res);
  res.write('data: {"n":1}\n\n');
  res.end('data: {"n":2}\n\n');
});
routes.set('/after-done', (_req, res) => {
  sse(res);
  res.end('data: {"n":1}\n\ndata: [DONE]\n\ndata: {"late":1}\n\n');
});
routes.set('/done-open', (_req, res) => {
  sse(res);
  res.write('data: {"n":1}\n\ndata: [DONE]\n\n');
});
routes.set('/fields', (_req, res) => {
  sse(res);
  res.end('event: completion\ndata: {"n":1}\n\nid: 7\n\ndata: [DONE]\n\n');
});
routes.set('/long', (_req, res) => {
  sse(res);
  let i = 0;
  const write = (): void => {
    while (i < 20_000) {
      const ok = res.write(`data: {"i":${i}}\n\n`);
      i++;
      if (!ok) {
        res.once('drain', write);
        return;
      }
    }
    res.end('data: [DONE]\n\n');
  };
  write();
});

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      const h = routes.get(url.pathname);
      if (h) h(req, res, body);
      else json(res, 404, { error: 'no route' });
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function mk(maxResponseBytes = 1 << 20): LiveTransport {
  return new LiveTransport({
    maxResponseBytes,
    redactor: new Redactor({ secretHeaders: ['authorization', 'service-organization'], secretValues: [KEY] }),
  });
}

function req(path: string, extra: Partial<OutgoingRequest> = {}): OutgoingRequest {
  return {
    method: 'GET',
    url: `${base}${path}`,
    headers: { Authorization: `Bearer ${KEY}` },
    bodySummary: { kind: 'none' },
    stream: false,
    ...extra,
  };
}

describe('what the answer is decides how it is bounded', () => {
  it('a stream asked for and a dripping JSON body answered: bounded by wholeTimeoutMs, not the stream total', async () => {
    const t = mk();
    const started = Date.now();
    const ex = await t.send(req('/drip-json', { stream: true }), { timeoutMs: 20_000, headersTimeoutMs: 500, wholeTimeoutMs: 400 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(ex.error?.kind).toBe('timeout');
    expect(ex.error?.message).toMatch(/400 ms/);
    await t.close();
  });
});

describe('LiveTransport', () => {
  it('sends a JSON request and parses a JSON response; the request record is redacted', async () => {
    const t = mk();
    const body = new TextEncoder().encode(JSON.stringify({ prompt: `say ${KEY}` }));
    const ex = await t.send(
      req('/json?k=' + KEY, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body,
        bodySummary: { kind: 'json', value: { prompt: `say ${KEY}` } },
      }),
      { timeoutMs: 5000 },
    );
    await t.close();
    expect(ex.error).toBeUndefined();
    expect(ex.response?.status).toBe(200);
    expect(ex.response?.json).toEqual({ ok: true, method: 'POST', echo: `{"prompt":"say ${KEY}"}` });
    expect(ex.response?.headers['content-type']).toBe('application/json');
    expect(ex.response?.truncated).toBe(false);
    expect(ex.attachments).toEqual({});
    expect(ex.timing.durationMs).toBeGreaterThan(0);
    expect(ex.request.url).toBe(`${base}/json?k=REDACTED`);
    expect(ex.request.headers['authorization']).toBe('Bearer REDACTED');
    expect(ex.request.headers['content-length']).toBe(String(body.length));
    expect(ex.request.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(ex.request.body).toEqual({ kind: 'json', value: { prompt: 'say REDACTED' } });
    expect(JSON.stringify(ex.request)).not.toContain(KEY);
    const got = seen.find((s) => s.url.startsWith('/json?k='))!;
    expect(got.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(got.headers['content-length']).toBe(String(body.length));
  });

  it('keeps error bodies, sniffs text/JSON regardless of content type, keeps binary as bytes', async () => {
    const t = mk();
    const e400 = await t.send(req('/error', { stream: true }), { timeoutMs: 5000 });
    expect(e400.response?.status).toBe(400);
    expect(e400.stream).toBeUndefined();
    expect(e400.response?.json).toEqual({ error: { message: 'bad', type: 'invalid_request_error' } });
    const sniff = await t.send(req('/text'), { timeoutMs: 5000 });
    expect(sniff.response?.text).toBe('{"sniffed":1}');
    expect(sniff.response?.json).toEqual({ sniffed: 1 });
    const bin = await t.send(req('/binary'), { timeoutMs: 5000 });
    expect(bin.response?.text).toBeUndefined();
    expect(bin.response?.json).toBeUndefined();
    expect(Array.from(bin.response!.bytes!)).toEqual([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]);
    expect(bin.response?.headers['set-cookie']).toBe('a=1, b=2');
    await t.close();
  });

  it.each(['/gzip', '/br', '/deflate', '/deflate-raw', ...(zstdCompressSync ? ['/zstd'] : [])])('decompresses %s bodies', async (path) => {
    const t = mk();
    const ex = await t.send(req(path), { timeoutMs: 5000 });
    await t.close();
    expect(ex.error).toBeUndefined();
    expect(ex.response?.headers['content-encoding']).toBeDefined();
    expect(ex.response?.text).toBe(big);
    expect((ex.response?.json as { data: unknown[] }).data).toHaveLength(2000);
  });

  it('reports a corrupt compressed body as an error with the response', async () => {
    const t = mk();
    const ex = await t.send(req('/bad-gzip'), { timeoutMs: 5000 });
    await t.close();
    expect(ex.response?.status).toBe(200);
    expect(ex.error?.kind).toBe('network');
    expect(ex.error?.message).toMatch(/decoding the response body/);
  });

  it('reuses keep-alive connections across requests', async () => {
    const t = mk();
    const before = connections;
    for (let i = 0; i < 20; i++) {
      const ex = await t.send(req('/json'), { timeoutMs: 5000 });
      expect(ex.response?.status).toBe(200);
    }
    const s = await t.send(req('/stream', { stream: true }), { timeoutMs: 5000 });
    expect(s.stream?.end).toBe('done');
    await t.send(req('/json'), { timeoutMs: 5000 });
    await t.close();
    // undici returns a connection to the pool a tick after the body ends, so a request sent in the
    // very same tick opens a second connection; after that the two are reused.
    expect(connections - before).toBeLessThanOrEqual(2);

    const t2 = mk();
    const before2 = connections;
    for (let i = 0; i < 10; i++) {
      await t2.send(req(i % 3 === 0 ? '/gzip' : '/json'), { timeoutMs: 5000 });
      await new Promise((r) => setImmediate(r));
    }
    await t2.close();
    expect(connections - before2).toBe(1);
  });

  it('times out a server that never answers, fast', async () => {
    const t = mk();
    const started = Date.now();
    const ex = await t.send(req('/never'), { timeoutMs: 200 });
    await t.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(ex.error).toEqual({ kind: 'timeout', message: 'no complete response within 200 ms' });
    expect(ex.response).toBeUndefined();
  });

  it('times out a request still waiting for a connection at its own timeout, not when the one before it ends', async () => {
    // One connection: the second request waits behind the first, which the target never answers.
    const t = new LiveTransport({ maxResponseBytes: 1 << 20, connections: 1, redactor: new Redactor({ secretHeaders: [], secretValues: [] }) });
    const first = t.send(req('/never'), { timeoutMs: 3000 });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const second = await t.send(req('/json'), { timeoutMs: 200 });
    const waited = Date.now() - started;
    await first;
    await t.close();
    expect(second.error).toEqual({ kind: 'timeout', message: 'no complete response within 200 ms' });
    expect(waited).toBeLessThan(1500);
  });

  it('times out a body that never completes, keeping status and headers', async () => {
    const t = mk();
    const ex = await t.send(req('/slow-body'), { timeoutMs: 200 });
    await t.close();
    expect(ex.error?.kind).toBe('timeout');
    expect(ex.response?.status).toBe(200);
    expect(ex.response?.headers['content-type']).toBe('application/json');
  });

  it('honours the caller signal', async () => {
    const t = mk();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const ex = await t.send(req('/never'), { timeoutMs: 5000, signal: ac.signal });
    await t.close();
    expect(ex.error?.kind).toBe('aborted');
  });

  it('watches a run-wide signal with one listener, and aborts every request in flight when it fires', async () => {
    const t = mk();
    const ac = new AbortController();
    for (let i = 0; i < 20; i++) expect((await t.send(req('/json'), { timeoutMs: 5000, signal: ac.signal })).response?.status).toBe(200);
    // Twenty requests left no listener behind (a caller's AbortSignal.any() with one would live for good).
    expect(getEventListeners(ac.signal, 'abort').length).toBe(0);
    const inFlight = [t.send(req('/never'), { timeoutMs: 5000, signal: ac.signal }), t.send(req('/never'), { timeoutMs: 5000, signal: ac.signal })];
    expect(getEventListeners(ac.signal, 'abort').length).toBe(1);
    setTimeout(() => ac.abort(), 50);
    const started = performance.now();
    const done = await Promise.all(inFlight);
    expect(done.map((ex) => ex.error?.kind)).toEqual(['aborted', 'aborted']);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(getEventListeners(ac.signal, 'abort').length).toBe(0);
    // Once aborted, a request sent with it is aborted at once.
    expect((await t.send(req('/never'), { timeoutMs: 5000, signal: ac.signal })).error?.kind).toBe('aborted');
    await t.close();
  });

  it('caps the response size', async () => {
    const t = mk(100_000);
    const ex = await t.send(req('/huge'), { timeoutMs: 5000 });
    expect(ex.response?.truncated).toBe(true);
    // An answer over the cap is incomplete and judged as such: only a prefix is kept, for reports.
    expect(ex.response?.bytes?.length).toBe(4096);
    expect(ex.error?.kind).toBe('too-large');
    expect(ex.error?.message).toMatch(/larger than the 100000-byte cap/);
    // The agent still works afterwards.
    expect((await t.send(req('/json'), { timeoutMs: 5000 })).response?.status).toBe(200);
    await t.close();
  });

  it('reports connection refused as a network error with URL and code', async () => {
    const t = mk();
    const ex = await t.send(req('/x', { url: 'http://127.0.0.1:1/v1/models' }), { timeoutMs: 5000 });
    await t.close();
    expect(ex.error?.kind).toBe('network');
    expect(ex.error?.message).toContain('http://127.0.0.1:1/v1/models');
    expect(ex.error?.message).toContain('ECONNREFUSED');
    expect(ex.response).toBeUndefined();
  });

  it('streams events to onEvent and ends done', async () => {
    const t = mk();
    const got: Array<[string, number]> = [];
    const ex = await t.send(req('/stream', { stream: true }), { timeoutMs: 5000, onEvent: (e, i) => got.push([e.data, i]) });
    await t.close();
    expect(ex.error).toBeUndefined();
    expect(ex.response?.status).toBe(200);
    expect(ex.response?.bytes).toBeUndefined();
    expect(got.map(([, i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(got[5]![0]).toBe('[DONE]');
    expect(ex.stream).toMatchObject({ end: 'done', eventCount: 6, afterDone: '' });
    expect(ex.stream?.sample.map((e) => e.data)[0]).toBe('{"i":0}');
  });

  it('decodes a gzip event stream', async () => {
    const t = mk();
    const ex = await t.send(req('/stream-gzip', { stream: true }), { timeoutMs: 5000 });
    await t.close();
    expect(ex.stream?.end).toBe('done');
    expect(ex.stream?.sample.map((e) => e.data)).toEqual(['{"z":1}', '[DONE]']);
  });

  it('ends a stalled stream as timeout with a clear detail', async () => {
    const t = mk();
    const started = Date.now();
    const ex = await t.send(req('/stall', { stream: true }), { timeoutMs: 5000, idleTimeoutMs: 200 });
    await t.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ex.stream?.end).toBe('timeout');
    expect(ex.stream?.eventCount).toBe(2);
    expect(ex.stream?.detail).toBe('stream stalled: no bytes for 200 ms after 2 events');
    expect(ex.error?.kind).toBe('stall');
  });

  it('ends a stream that outlives the total timeout as timeout', async () => {
    const t = mk();
    const ex = await t.send(req('/stall', { stream: true }), { timeoutMs: 200, idleTimeoutMs: 5000 });
    await t.close();
    expect(ex.stream?.end).toBe('timeout');
    expect(ex.stream?.detail).toMatch(/stream incomplete after 200 ms: 2 events/);
    expect(ex.error?.kind).toBe('timeout');
  });

  it('ends a stream without [DONE] as eof', async () => {
    const t = mk();
    const ex = await t.send(req('/eof', { stream: true }), { timeoutMs: 5000 });
    await t.close();
    expect(ex.stream?.end).toBe('eof');
    expect(ex.stream?.eventCount).toBe(2);
    expect(ex.error).toBeUndefined();
  });

  it('captures bytes after [DONE]', async () => {
    const t = mk();
    const ex = await t.send(req('/after-done', { stream: true }), { timeoutMs: 5000 });
    await t.close();
    expect(ex.stream?.end).toBe('done');
    expect(ex.stream?.afterDone).toBe('data: {"late":1}');
    expect(ex.stream?.eventCount).toBe(2);
  });

  it('stops waiting idleTimeout after [DONE] when the server keeps the body open', async () => {
    const t = mk();
    const ex = await t.send(req('/done-open', { stream: true }), { timeoutMs: 5000, idleTimeoutMs: 150 });
    await t.close();
    expect(ex.stream?.end).toBe('done');
    expect(ex.error).toBeUndefined();
    expect(ex.stream?.detail).toMatch(/still open 150 ms after data: \[DONE\]/);
  });

  it('reports other SSE fields', async () => {
    const t = mk();
    const events: SseEvent[] = [];
    const ex = await t.send(req('/fields', { stream: true }), { timeoutMs: 5000, onEvent: (e) => events.push(e) });
    await t.close();
    expect(events.map((e) => e.otherFields)).toEqual([['event'], ['id'], []]);
    expect(ex.stream?.end).toBe('done');
  });

  it('keeps the sample bounded on a long stream', async () => {
    const t = mk(10 << 20);
    let n = 0;
    const ex = await t.send(req('/long', { stream: true }), { timeoutMs: 10_000, onEvent: () => n++ });
    await t.close();
    expect(n).toBe(20_001);
    expect(ex.stream?.eventCount).toBe(20_001);
    expect(ex.stream?.sample).toHaveLength(25);
    expect(ex.stream?.sample.slice(18, 22).map((e) => e.data)).toEqual(['{"i":18}', '{"i":19}', '{"i":19996}', '{"i":19997}']);
    expect(ex.stream?.sample.at(-1)?.data).toBe('[DONE]');
    expect(ex.stream?.end).toBe('done');
  });

  it('caps stream bytes too', async () => {
    const t = mk(10_000);
    const ex = await t.send(req('/long', { stream: true }), { timeoutMs: 10_000 });
    await t.close();
    expect(ex.stream?.end).toBe('error');
    expect(ex.stream?.bytes).toBe(10_000);
    expect(ex.response?.truncated).toBe(true);
    expect(ex.error?.kind).toBe('too-large');
  });

  it('rethrows an exception from onEvent (a programmer error)', async () => {
    const t = mk();
    await expect(
      t.send(req('/stream', { stream: true }), {
        timeoutMs: 5000,
        onEvent: () => {
          throw new Error('checker bug');
        },
      }),
    ).rejects.toThrow('checker bug');
    await t.close();
  });

  describe('onBody: the answer as soon as its body is read', () => {
    it('is called with the status and headers before the body is parsed; a request sent from it is written first', async () => {
      const t = mk();
      const events: string[] = [];
      const onHeaders = (m: unknown): void => { events.push(`wrote ${(m as { request: { path: string } }).request.path}`); };
      await t.send(req('/json?warm'), { timeoutMs: 5000 }); // a connection to reuse, as in a run
      subscribe('undici:client:sendHeaders', onHeaders);
      try {
        let next: Promise<Exchange> | undefined;
        const heads: AnswerHead[] = [];
        const first = await t.send(req('/json?first'), {
          timeoutMs: 5000,
          onBody: (head) => {
            heads.push(head);
            next = t.send(req('/json?second'), { timeoutMs: 5000 });
            return true;
          },
        });
        events.push('first answered');
        expect(heads).toEqual([{ status: 200, headers: expect.objectContaining({ 'content-type': 'application/json' }) }]);
        // The body is parsed after the hook: the exchange is whole.
        expect(first.response?.json).toEqual({ ok: true, method: 'GET', echo: '' });
        expect((await next!).response?.status).toBe(200);
        expect(events).toEqual(['wrote /json?first', 'wrote /json?second', 'first answered']);
      } finally {
        unsubscribe('undici:client:sendHeaders', onHeaders);
        await t.close();
      }
    });

    it('is not called for an event stream, a body over the cap, or an answer that never came', async () => {
      const t = mk(1000);
      const called: string[] = [];
      const onBody = (path: string) => () => { called.push(path); return false; };
      await t.send(req('/stream'), { timeoutMs: 5000, onBody: onBody('/stream') });
      await t.send(req('/huge'), { timeoutMs: 5000, onBody: onBody('/huge') });
      await t.send(req('/never'), { timeoutMs: 200, onBody: onBody('/never') });
      await t.send(req('/error'), { timeoutMs: 5000, onBody: onBody('/error') });
      expect(called).toEqual(['/error']);
      await t.close();
    });

    it('is not called for a 429 that ThrottledTransport retries, only for the answer it returns', async () => {
      const answers = [429, 429, 200];
      const heads: number[] = [];
      const inner: Transport = {
        name: 'live',
        async send(r, options) {
          const status = answers.shift()!;
          const headers: Record<string, string> = status === 429 ? { 'retry-after': '0' } : {};
          options.onBody?.({ status, headers });
          return { request: { method: r.method, url: r.url, headers: {}, body: r.bodySummary }, response: { status, headers, truncated: false }, attachments: {}, timing: { startedAt: 0, durationMs: 0 } };
        },
        close: async () => {},
      };
      const throttled = new ThrottledTransport(inner, { sleep: async () => {} });
      const exchange = await throttled.send(req('/json'), { timeoutMs: 5000, onBody: (head) => { heads.push(head.status); return false; } });
      expect(exchange.response?.status).toBe(200);
      expect(heads).toEqual([200]);
      expect(throttled.stats.count).toBe(2);
    });
  });
});
