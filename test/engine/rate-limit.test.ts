// Rate limits and retries, kept apart from verdicts: a target that answers 429 (Retry-After) a few times is
// retried and judged on its real answer; one that never stops is a problem of the run (exit 3), not a failure.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { ThrottledTransport, TokenBucket } from '../../src/transport/throttle.ts';
import { retryAfterMs } from '../../src/util/retry-after.ts';
import type { Exchange, OutgoingRequest, Transport } from '../../src/transport/types.ts';

let reference: ReferenceServer;
let limiter: Server;
let limiterUrl = '';
/** Every Nth request answers 429 with Retry-After; N=1: always. Only requests `only` matches count, when set. */
let every = 3;
let seen = 0;
let only: RegExp | undefined;

beforeAll(async () => {
  reference = await startReferenceServer();
  const target = new URL(reference.url);
  limiter = createServer((req, res) => {
    if ((!only || only.test(`${req.method} ${req.url}`)) && ++seen % every === 0) {
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } }));
      return;
    }
    const proxied = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(proxied);
  });
  await new Promise<void>((r) => limiter.listen(0, '127.0.0.1', r));
  limiterUrl = `http://127.0.0.1:${(limiter.address() as { port: number }).port}`;
});
afterAll(async () => {
  limiter.closeAllConnections();
  await new Promise<void>((r) => limiter.close(() => r()));
  await reference.close();
});

async function run(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'rl-'));
  let out = '';
  const code = await main(['run', '--base-url', limiterUrl, '--api-key', reference.credentials.apiKey, '--fuzz-runs', '0', '--report-dir', dir, ...args], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, env: { CI: 'true' }, isTTY: false });
  return { code, out, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, summary: readFileSync(join(dir, 'summary.md'), 'utf8') };
}

describe('429 and Retry-After', () => {
  it('retried and counted, judged on the real answer: the run passes', { timeout: 60_000 }, async () => {
    every = 3;
    seen = 0;
    const { code, out, report, summary } = await run(['--suite', 'models', '--suite', 'moderations']);
    expect(code, out).toBe(0);
    expect(report.retries?.count).toBeGreaterThan(3);
    expect(report.retries?.byStatus).toEqual({ 429: report.retries!.count });
    expect(out).toMatch(/\d+ requests retried after 429; .* waited in all \(summed over suites running at once\) for retries and the rate limit — never a verdict/);
    // summary.md, what CI shows, says it too.
    expect(summary).toMatch(/- \*\*Retries:\*\* \d+ requests retried after 429; /);
    expect(report.results.filter((r) => r.status === 'fail')).toEqual([]);
  });

  it('a poll answered 429 now and then waits and asks again: the fine-tune suite passes, the 429s counted as retries', { timeout: 90_000 }, async () => {
    every = 2;
    seen = 0;
    only = /^GET \/v1\/fine-tunes\/ft-[^/?]+$/;
    try {
      const { code, out, report } = await run(['--suite', 'fine-tunes', '--poll-deadline', '60000']);
      expect(code, out).toBe(0);
      expect(report.retries?.byStatus['429']).toBeGreaterThan(0);
      expect(report.results.filter((r) => r.status === 'fail')).toEqual([]);
    } finally {
      only = undefined;
    }
  });

  it('a recording run retries them too: they are counted, never judged, and the cassette holds only the real answers, which replay the same verdicts', { timeout: 60_000 }, async () => {
    every = 3;
    seen = 0;
    const cassettes = mkdtempSync(join(tmpdir(), 'rl-cassettes-'));
    const recorded = await run(['--suite', 'models', '--suite', 'moderations', '--record', '--cassettes', cassettes, '--rate-limit', '200']);
    expect(recorded.code, recorded.out).toBe(0);
    expect(recorded.report.retries?.byStatus).toEqual({ 429: recorded.report.retries!.count });
    expect(recorded.report.retries!.count).toBeGreaterThan(3);
    expect(recorded.out).toMatch(/\d+ requests retried after 429/);
    const statuses = ['models', 'moderations'].flatMap((suite) => (JSON.parse(readFileSync(join(cassettes, `${suite}.json`), 'utf8')) as Array<{ status: number }>).map((i) => i.status));
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses).not.toContain(429);
    const replayed = await run(['--cassettes', cassettes]);
    expect(replayed.code, replayed.out).toBe(0);
    expect(replayed.report.summary).toEqual(recorded.report.summary);
  });

  it('still 429 after the retries: a problem of the run (exit 3), never a must-failure of the target', { timeout: 60_000 }, async () => {
    every = 1;
    const { code, report } = await run(['--suite', 'models']);
    expect(code).toBe(3);
    expect(report.verdict).toBe('error');
    expect(report.problems[0]).toMatchObject({ kind: 'rate-limited' });
    expect(report.results.filter((r) => r.status === 'fail')).toEqual([]);
  });
});

describe('the token bucket and Retry-After', () => {
  it('spaces requests at the rate from the first one: never more than N in a second, no burst', () => {
    let t = 0;
    const b = new TokenBucket(2, () => t);
    expect(b.take()).toBe(0);
    expect(b.take()).toBe(500);
    t += 500;
    expect(b.take()).toBe(500);
    t += 5000;
    // Idle time does not store a burst either.
    expect([b.take(), b.take()]).toEqual([0, 500]);
  });
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    // Not delay-seconds and no date (V8's Date.parse reads "-5" as a year): none at all.
    for (const odd of ['-5', '', ' ', '1.5', '1e3', '0x10', '+5']) expect(retryAfterMs(odd, 0), odd).toBeUndefined();
    expect(retryAfterMs('0', 0)).toBe(0);
  });
});

describe('retries honour what the target asked', () => {
  /** A target answering `status` with Retry-After `after` seconds `times` times, then 200. */
  function target(status: number, after: string, times: number): { transport: Transport; sent: () => number } {
    let sent = 0;
    const transport = {
      name: 'live',
      send: async (request: OutgoingRequest): Promise<Exchange> => {
        sent++;
        const refused = sent <= times;
        const text = refused ? '{"error":{"message":"slow down"}}' : '{"object":"list","data":[]}';
        return {
          request: { method: request.method, url: request.url, headers: {}, body: { kind: 'none' } },
          response: { status: refused ? status : 200, headers: refused ? { 'retry-after': after } : {}, text, bytes: Buffer.from(text), truncated: false, json: JSON.parse(text) as unknown },
          attachments: {}, timing: { startedAt: 0, durationMs: 1 },
        } as Exchange;
      },
      close: async () => {},
    } as unknown as Transport;
    return { transport, sent: () => sent };
  }
  const get = { method: 'GET', url: 'http://127.0.0.1:9/v1/models', headers: {}, body: { kind: 'none' } } as unknown as OutgoingRequest;

  it('waits the whole Retry-After (30 s), not a capped 20 s', async () => {
    const slept: number[] = [];
    const t = target(429, '30', 1);
    const throttled = new ThrottledTransport(t.transport, { sleep: async (ms) => { slept.push(ms); }, now: () => 0 });
    const ex = await throttled.send(get, { timeoutMs: 1000 });
    expect(ex.response?.status).toBe(200);
    expect(slept).toEqual([30_000]);
  });

  it('a Retry-After beyond what retries may wait is not shortened: the run stops there and says why', async () => {
    const slept: number[] = [];
    const t = target(429, '90', 5);
    const throttled = new ThrottledTransport(t.transport, { sleep: async (ms) => { slept.push(ms); }, now: () => 0 });
    const ex = await throttled.send(get, { timeoutMs: 1000 });
    expect(slept).toEqual([]);
    expect(t.sent()).toBe(1);
    expect(ex.error).toMatchObject({ kind: 'rate-limited', message: expect.stringMatching(/asked to wait 90 s more \(Retry-After\), beyond the 60 s retries may wait/) });
  });

  it('"Retry-After: 0" (or an unreadable one) is not a licence to spend every retry at once: the backoff still applies', async () => {
    for (const after of ['0', '-5', '']) {
      const slept: number[] = [];
      const t = target(429, after, 2);
      const throttled = new ThrottledTransport(t.transport, { sleep: async (ms) => { slept.push(ms); }, now: () => 0 });
      expect((await throttled.send(get, { timeoutMs: 1000 })).response?.status).toBe(200);
      expect(slept, after).toEqual([500, 1000]);
    }
    // A 503 whose Retry-After is no delay is not "a 503 with Retry-After": judged at once, as one without.
    const t = target(503, '-5', 10);
    expect((await new ThrottledTransport(t.transport, { sleep: async () => {}, now: () => 0 }).send(get, { timeoutMs: 1000 })).response?.status).toBe(503);
    expect(t.sent()).toBe(1);
  });

  it('a poll (retry: rate-limit) is retried after a 429, but waits for a 503 itself', async () => {
    const limited = target(429, '1', 1);
    const ex = await new ThrottledTransport(limited.transport, { sleep: async () => {}, now: () => 0 }).send(get, { timeoutMs: 1000, retry: 'rate-limit' });
    expect(ex.response?.status).toBe(200);
    expect(limited.sent()).toBe(2);
    const loading = target(503, '1', 1);
    const answer = await new ThrottledTransport(loading.transport, { sleep: async () => {}, now: () => 0 }).send(get, { timeoutMs: 1000, retry: 'rate-limit' });
    expect(answer.response?.status).toBe(503);
    expect(loading.sent()).toBe(1);
  });

  it('a target still unavailable (503) after its retries is judged on that answer, not excused as a rate limit', async () => {
    const t = target(503, '1', 10);
    const throttled = new ThrottledTransport(t.transport, { sleep: async () => {}, now: () => 0 });
    const ex = await throttled.send(get, { timeoutMs: 1000 });
    expect(ex.error).toBeUndefined();
    expect(ex.response?.status).toBe(503);
    expect(t.sent()).toBe(5);
  });

  it('an interrupt cuts a Retry-After wait short, and nothing is sent after it (the case is not judged)', async () => {
    const t = target(429, '30', 5);
    const interrupt = new AbortController();
    const throttled = new ThrottledTransport(t.transport, { interrupt: interrupt.signal });
    setTimeout(() => interrupt.abort(), 20);
    const ex = await throttled.send(get, { timeoutMs: 1000 });
    expect(ex.error?.kind).toBe('aborted');
    expect(t.sent()).toBe(1);
  }, 10_000);
});
