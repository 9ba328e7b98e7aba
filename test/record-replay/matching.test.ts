// Replay matching: volatile parts normalised; an unmatched request fails clearly (never a network fallback);
// recorded interactions never used are reported as a notice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOf, normalise, targetOfRequest } from '../../src/transport/cassette-match.ts';
import { RecordTransport } from '../../src/transport/record.ts';
import { ReplayTransport } from '../../src/transport/replay.ts';
import { Redactor } from '../../src/util/redact.ts';
import { getRequest, jsonRequest, KEY, multipartRequest, profileFor, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
let dir: string;
const redactor = new Redactor({ secretHeaders: ['authorization'], secretValues: [KEY] });
const opts = { timeoutMs: 5000 };

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'cassettes-'));
  const rec = new RecordTransport({ dir, mode: 'update', redactor, profile: profileFor(server.url), seed: 1 });
  await rec.beginSuite('match');
  await rec.send(jsonRequest(server.url, '/v1/json', { model: 'm', prompt: 'hello', max_tokens: 5, created_at: '2024-01-01T00:00:00Z' }), opts);
  await rec.send(multipartRequest(server.url, 'match/upload'), opts);
  await rec.send(getRequest(server.url, '/v1/json/once'), opts);
  await rec.send(getRequest(server.url, '/v1/binary'), opts);
  await rec.endSuite('match', { seed: 1 });
  await rec.close();
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function replay<T>(fn: (t: ReplayTransport) => Promise<T>): Promise<{ result: T; notices: string[]; hits: string[] }> {
  const before = server.hits.length;
  const notices: string[] = [];
  const t = new ReplayTransport({ dir, redactor, maxResponseBytes: 1e7, onNotice: (m) => notices.push(m) });
  try {
    await t.beginSuite('match');
    const result = await fn(t);
    await t.endSuite();
    return { result, notices, hits: server.hits.slice(before) };
  } finally {
    await t.close();
  }
}

describe('normalisation', () => {
  it('ignores key order, timestamps and volatile keys', () => {
    expect(normalise({ b: 1, a: '2024-05-01T10:00:00.123Z', nested: { timestamp: 5, x: [{ created: 1 }] } })).toEqual({
      a: '<timestamp>', b: 1, nested: { timestamp: '<volatile>', x: [{ created: '<volatile>' }] },
    });
  });

  it('matches a multipart body by its summary, whatever the boundary', () => {
    const a = targetOfRequest('POST', 'http://h/v1/upload', multipartRequest('http://h', 'seed-a').bodySummary, redactor);
    const b = targetOfRequest('POST', 'http://h/v1/upload', multipartRequest('http://h', 'seed-b').bodySummary, redactor);
    expect(keyOf(a)).toBe(keyOf(b));
    expect(keyOf(a)).not.toContain('boundary');
  });

  it('ignores query parameter order', () => {
    const a = targetOfRequest('GET', 'http://h/v1/x?b=2&a=1', { kind: 'none' }, redactor);
    const b = targetOfRequest('GET', 'http://h/v1/x?a=1&b=2', { kind: 'none' }, redactor);
    expect(keyOf(a)).toBe(keyOf(b));
  });
});

describe('replay matching', () => {
  it('matches despite a new timestamp, another key order and another multipart boundary', async () => {
    const { result, hits } = await replay(async (t) => [
      await t.send(jsonRequest(server.url, '/v1/json', { created_at: '2031-12-31T23:59:59Z', max_tokens: 5, prompt: 'hello', model: 'm' }), opts),
      await t.send(multipartRequest(server.url, 'a-different-boundary-seed'), opts),
    ]);
    expect(result.map((e) => e.error)).toEqual([undefined, undefined]);
    expect(result.map((e) => e.response?.status)).toEqual([200, 200]);
    expect(hits).toEqual([]);
  });

  it('fails an unmatched request with a message naming it and the nearest recorded one, without any network', async () => {
    const { result, hits } = await replay((t) => t.send(jsonRequest(server.url, '/v1/json', { model: 'm', prompt: 'hello', max_tokens: 7, created_at: 'x' }), opts));
    expect(result.response).toBeUndefined();
    expect(result.error?.kind).toBe('unmatched');
    expect(result.error?.message).toContain('no recorded interaction in');
    expect(result.error?.message).toContain('matches POST /v1/json');
    expect(result.error?.message).toContain('nearest recorded: POST /v1/json');
    expect(result.error?.message).toContain('/max_tokens: recorded 5, sent 7');
    expect(result.error?.message).not.toContain(KEY);
    expect(hits).toEqual([]);
  });

  it('names the nearest recorded path for an unknown path', async () => {
    const { result } = await replay((t) => t.send(getRequest(server.url, '/v1/json/onse'), opts));
    expect(result.error?.kind).toBe('unmatched');
    expect(result.error?.message).toMatch(/nearest recorded: GET \/v1\/json\/once \(path: recorded \/v1\/json\/once, sent \/v1\/json\/onse\)/);
  });

  it('serves each recording once: a repeated request beyond the recording is unmatched', async () => {
    const { result } = await replay(async (t) => [await t.send(getRequest(server.url, '/v1/json/once'), opts), await t.send(getRequest(server.url, '/v1/json/once'), opts)]);
    expect(result[0]!.response?.status).toBe(200);
    expect(result[1]!.error?.kind).toBe('unmatched');
    expect(result[1]!.error?.message).toContain('was recorded 1 time');
  });

  it('reports recorded interactions never used as a notice', async () => {
    const { notices } = await replay((t) => t.send(getRequest(server.url, '/v1/binary'), opts));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/3 recorded interactions never used: POST \/v1\/json .*POST \/v1\/upload .*GET \/v1\/json\/once/);
  });

  it('fails every request of a suite without a cassette as unmatched', async () => {
    const notices: string[] = [];
    const t = new ReplayTransport({ dir, redactor, maxResponseBytes: 1e7, onNotice: (m) => notices.push(m) });
    try {
      await t.beginSuite('never-recorded');
      const ex = await t.send(getRequest(server.url, '/v1/binary'), opts);
      expect(ex.error?.kind).toBe('unmatched');
      expect(ex.error?.message).toContain('no cassette for suite "never-recorded"');
      expect(notices[0]).toContain('never-recorded');
    } finally {
      await t.close();
    }
  });

  it('restores the network after close()', async () => {
    await replay(async () => undefined);
    const res = await fetch(`${server.url}/v1/json/after`);
    expect(res.status).toBe(200);
  });
});
