// A connection the target closes before any byte of an answer is a problem of the run, not a verdict: the request is
// sent once more on a new connection when sending it twice changes nothing (live.ts), and counted as a retry.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveTransport } from '../../src/transport/live.ts';
import { ThrottledTransport } from '../../src/transport/throttle.ts';
import type { OutgoingRequest } from '../../src/transport/types.ts';
import { Redactor } from '../../src/util/redact.ts';
import { retriesSentence } from '../../src/report/text.ts';
import { sendOptions } from '../../src/engine/case/send-options.ts';
import type { CaseSpec } from '../../src/suite/types.ts';

let server: Server;
let base: string;
/** Requests seen, with the connection each came on. */
const seen: Array<{ path: string; connection: number; at: number }> = [];
const sockets = new WeakMap<Socket, number>();
let connectionCount = 0;

beforeAll(async () => {
  server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const connection = sockets.get(req.socket)!;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const onThisConnection = seen.filter((s) => s.connection === connection).length;
    seen.push({ path, connection, at: performance.now() });
    // '/second-dropped': a kept-alive connection the target has let go of as the next request arrives.
    // '/always-reset': a target that resets every request.
    if ((path === '/second-dropped' && onThisConnection === 1) || path === '/always-reset') {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, connection }));
    });
  });
  server.on('connection', (s: Socket) => sockets.set(s, ++connectionCount));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const transport = () => new LiveTransport({ maxResponseBytes: 1 << 20, redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: [] }) });

function post(path: string): OutgoingRequest {
  const body = new TextEncoder().encode('{"input":"x"}');
  return { method: 'POST', url: `${base}${path}`, headers: { 'content-type': 'application/json' }, body, bodySummary: { kind: 'json', value: { input: 'x' } }, stream: false } as OutgoingRequest;
}

const get = (path: string): OutgoingRequest => ({ method: 'GET', url: `${base}${path}`, headers: {}, bodySummary: { kind: 'none' }, stream: false });

/** The first answer's connection is idle (back in the pool) a moment after its body is read. */
const idle = () => new Promise((r) => setTimeout(r, 20));

function requestsTo(path: string): Array<{ path: string; connection: number; at: number }> {
  return seen.filter((s) => s.path === path);
}

describe('a connection closed before any answer', () => {
  it('a GET is sent again on a new connection, and its answer is the one judged', async () => {
    seen.length = 0;
    const t = transport();
    expect((await t.send(get('/second-dropped'), { timeoutMs: 5000 })).response?.status).toBe(200);
    await idle();
    const ex = await t.send(get('/second-dropped'), { timeoutMs: 5000 });
    await t.close();
    expect(ex.error).toBeUndefined();
    expect(ex.response?.status).toBe(200);
    expect(ex.resent).toBe('connection reset');
    const sent = requestsTo('/second-dropped');
    expect(sent).toHaveLength(3);
    // The kept-alive connection, then a new one.
    expect(sent[1]!.connection).toBe(sent[0]!.connection);
    expect(sent[2]!.connection).not.toBe(sent[1]!.connection);
  });

  it('a POST the caller says changes nothing is sent again', async () => {
    seen.length = 0;
    const t = transport();
    await t.send(post('/second-dropped'), { timeoutMs: 5000, resendOnReset: true });
    await idle();
    const ex = await t.send(post('/second-dropped'), { timeoutMs: 5000, resendOnReset: true });
    await t.close();
    expect(ex.response?.status).toBe(200);
    expect(requestsTo('/second-dropped')).toHaveLength(3);
  });

  it('a POST is not sent twice unless the caller says so, nor a request the caller marks as creating something', async () => {
    seen.length = 0;
    const t = transport();
    await t.send(post('/second-dropped'), { timeoutMs: 5000 });
    await idle();
    const unsaid = await t.send(post('/second-dropped'), { timeoutMs: 5000 });
    expect(unsaid.response).toBeUndefined();
    expect(unsaid.error?.kind).toBe('network');
    expect(unsaid.resent).toBeUndefined();
    expect(requestsTo('/second-dropped')).toHaveLength(2);

    seen.length = 0;
    await t.send(get('/second-dropped'), { timeoutMs: 5000 });
    await idle();
    const creates = await t.send(get('/second-dropped'), { timeoutMs: 5000, resendOnReset: false });
    await t.close();
    expect(creates.response).toBeUndefined();
    expect(requestsTo('/second-dropped')).toHaveLength(2);
  });

  it('a target that resets every request is still judged on it, and the failure says it was sent twice', async () => {
    seen.length = 0;
    const t = transport();
    const ex = await t.send(get('/always-reset'), { timeoutMs: 5000 });
    await t.close();
    expect(ex.response).toBeUndefined();
    expect(ex.error?.kind).toBe('network');
    expect(ex.error?.message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/always-reset: request failed: .*(ECONNRESET|UND_ERR_SOCKET|other side closed).*; sent again on a new connection: .*(ECONNRESET|UND_ERR_SOCKET|other side closed)/);
    expect(requestsTo('/always-reset')).toHaveLength(2);
  });

  it('is counted among the run\'s retries, never a verdict', async () => {
    seen.length = 0;
    const throttled = new ThrottledTransport(transport());
    await throttled.send(get('/second-dropped'), { timeoutMs: 5000 });
    await idle();
    await throttled.send(get('/second-dropped'), { timeoutMs: 5000 });
    await throttled.close();
    expect(throttled.stats.count).toBe(1);
    expect(throttled.stats.byStatus).toEqual({ 'a connection reset': 1 });
    expect(retriesSentence(throttled.stats)).toMatch(/^1 request retried after a connection reset;/);
  });

  it('the second sending waits for the rate limit (--rate-limit) as any request does', async () => {
    seen.length = 0;
    const throttled = new ThrottledTransport(transport(), { ratePerSecond: 10 });
    await throttled.send(get('/second-dropped'), { timeoutMs: 5000 });
    await idle();
    const ex = await throttled.send(get('/second-dropped'), { timeoutMs: 5000 });
    await throttled.close();
    expect(ex.response?.status).toBe(200);
    const [first, dropped, resent] = requestsTo('/second-dropped');
    // 10 per second: 100 ms apart, the one sent again included (a few ms of timer slack allowed).
    expect(dropped!.at - first!.at).toBeGreaterThanOrEqual(95);
    expect(resent!.at - dropped!.at).toBeGreaterThanOrEqual(95);
    expect(throttled.stats.waitedMs).toBeGreaterThanOrEqual(95 + 50);
  });
});

describe('which of a suite\'s requests may be sent twice', () => {
  const timeouts = { requestMs: 1000, streamTotalMs: 2000, streamIdleMs: 500, pollDeadlineMs: 3000 } as Parameters<typeof sendOptions>[2]['timeouts'];
  /**
   * As the engine sends it: the case as written, the request as built (the method as sent, under a base URL whose
   * own path holds a `v1` of its own) and its path below the base, rendered.
   */
  const options = (method: string, path: string) => {
    const c = { id: 'c', request: { method: 'GET', path: '/{{anything}}' } } as unknown as CaseSpec;
    const outgoing = { method, url: `http://gw.test/v1/acct/openai${path}`, stream: false } as OutgoingRequest;
    return sendOptions(c, { outgoing, view: { path } }, { timeouts, polls: false }).resendOnReset;
  };

  it('not one that creates a resource (a second would be left behind) nor one that undoes one (a second is answered "gone")', () => {
    expect(options('POST', '/v1/files')).toBe(false);
    expect(options('POST', '/v1/files?purpose=fine-tune')).toBe(false);
    expect(options('POST', '/v1/fine-tunes')).toBe(false);
    expect(options('POST', '/v1/fine-tunes/ft-abc/cancel')).toBe(false);
    expect(options('DELETE', '/v1/files/file-abc')).toBe(false);
    expect(options('DELETE', '/v1/models/curie%3Aft-x')).toBe(false);
  });

  it('any other: reads, and the requests that generate (answered the same way however often sent)', () => {
    expect(options('POST', '/v1/audio/translations')).toBe(true);
    expect(options('POST', '/v1/chat/completions')).toBe(true);
    expect(options('GET', '/v1/fine-tunes/ft-abc')).toBe(true);
    expect(options('GET', '/v1/files')).toBe(true);
  });
});

describe('without the caller\'s word', () => {
  it('only a safe method is sent again: a DELETE\'s second answer would be "not found"', async () => {
    seen.length = 0;
    const t = transport();
    const del: OutgoingRequest = { ...get('/second-dropped'), method: 'DELETE' };
    await t.send(del, { timeoutMs: 5000 });
    await idle();
    const ex = await t.send(del, { timeoutMs: 5000 });
    await t.close();
    expect(ex.response).toBeUndefined();
    expect(requestsTo('/second-dropped')).toHaveLength(2);
  });
});
