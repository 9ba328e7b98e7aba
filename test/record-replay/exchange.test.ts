// Record against a real server on 127.0.0.1, replay offline through nock: identical Exchanges.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../../src/transport/cassette.ts';
import { RecordTransport } from '../../src/transport/record.ts';
import { ReplayTransport } from '../../src/transport/replay.ts';
import type { Exchange, OutgoingRequest, SseEvent } from '../../src/transport/types.ts';
import { Redactor } from '../../src/util/redact.ts';
import { comparable, getRequest, jsonRequest, KEY, multipartRequest, profileFor, SSE_BODY, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
let dir: string;
const redactor = new Redactor({ secretHeaders: ['authorization', 'service-organization'], secretValues: [KEY] });

function requests(base: string): OutgoingRequest[] {
  return [
    jsonRequest(base, '/v1/json?b=2&a=1', { model: 'm', prompt: 'hello', n: 2 }),
    jsonRequest(base, '/v1/pretty', { x: 1 }),
    multipartRequest(base, 'suite/case-1'),
    jsonRequest(base, '/v1/stream', { stream: true }, { stream: true, headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream', 'content-type': 'application/json' } }),
    getRequest(base, '/v1/gzip'),
    getRequest(base, '/v1/binary'),
    getRequest(base, '/v1/empty'),
    getRequest(base, '/v1/json/same'),
    getRequest(base, '/v1/json/same'),
  ];
}

async function sendAll(t: RecordTransport | ReplayTransport, reqs: OutgoingRequest[]): Promise<Array<{ exchange: Exchange; events: SseEvent[] }>> {
  const out: Array<{ exchange: Exchange; events: SseEvent[] }> = [];
  for (const req of reqs) {
    const events: SseEvent[] = [];
    const exchange = await t.send(req, { timeoutMs: 5000, onEvent: (e) => events.push(e) });
    out.push({ exchange, events });
  }
  return out;
}

let recorded: Array<{ exchange: Exchange; events: SseEvent[] }>;
let replayed: Array<{ exchange: Exchange; events: SseEvent[] }>;
let hitsDuringReplay: string[];

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'cassettes-'));
  const rec = new RecordTransport({ dir, mode: 'update', redactor, profile: profileFor(server.url), seed: 7 });
  await rec.beginSuite('exchanges');
  recorded = await sendAll(rec, requests(server.url));
  await rec.endSuite('exchanges', { seed: 7, tool: 'model-api-conformance@test', spec: 'spec.md', target: server.url });
  await rec.close();

  const before = server.hits.length;
  const rep = new ReplayTransport({ dir, redactor, maxResponseBytes: 10_000_000 });
  await rep.beginSuite('exchanges');
  replayed = await sendAll(rep, requests(server.url));
  await rep.endSuite();
  await rep.close();
  hitsDuringReplay = server.hits.slice(before);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('record → replay', () => {
  it('recorded real responses', () => {
    expect(recorded.map((r) => r.exchange.response?.status)).toEqual([200, 200, 200, 200, 200, 200, 204, 200, 200]);
    expect(recorded.every((r) => r.exchange.error === undefined)).toBe(true);
  });

  it('replays without touching the network', () => {
    expect(hitsDuringReplay).toEqual([]);
  });

  it('gives identical Exchanges (status, headers, bytes, json, stream summary) and the same SSE events', () => {
    expect(replayed.length).toBe(recorded.length);
    for (const [i, r] of recorded.entries()) {
      expect(comparable(replayed[i]!.exchange), `exchange ${i} ${r.exchange.request.url}`).toEqual(comparable(r.exchange));
      expect(replayed[i]!.events, `events ${i}`).toEqual(r.events);
    }
  });

  it('keeps the SSE body byte-exact in the cassette and replays it byte-exact', () => {
    const defs = readCassette(join(dir, 'exchanges.json'));
    const stream = defs.find((d) => d.path === '/v1/stream')!;
    expect(stream.response).toBe(SSE_BODY);
    expect(stream.responseIsBinary).toBe(false);
    const ex = replayed[3]!.exchange;
    expect(ex.stream).toMatchObject({ end: 'done', eventCount: 3, bytes: Buffer.byteLength(SSE_BODY) });
    expect(replayed[3]!.events.map((e) => e.data)).toEqual(['{"i":0,"text":"hé"}', '{"i":1}', '[DONE]']);
    expect(replayed[3]!.events[1]!.otherFields).toEqual(['event']);
  });

  it('stores gzip bodies as the bytes on the wire and decodes them on replay', () => {
    const defs = readCassette(join(dir, 'exchanges.json'));
    const gz = defs.find((d) => d.path === '/v1/gzip')!;
    expect(gz.responseIsBinary).toBe(true);
    expect(String(gz.response).startsWith('1f8b')).toBe(true);
    expect(replayed[4]!.exchange.response?.headers['content-encoding']).toBe('gzip');
    expect((replayed[4]!.exchange.response?.json as { data: unknown[] }).data).toHaveLength(300);
  });

  it('keeps JSON readable when it re-serialises exactly, and byte-exact (hex) when it would not', () => {
    const defs = readCassette(join(dir, 'exchanges.json'));
    expect(typeof defs[0]!.response).toBe('object');
    expect(defs[0]!.body).toEqual({ model: 'm', prompt: 'hello', n: 2 });
    const pretty = defs.find((d) => d.path === '/v1/pretty')!;
    expect(pretty.responseIsBinary).toBe(true);
    expect(replayed[1]!.exchange.response?.text).toBe('{\n  "pretty": 1.50\n}\n');
  });

  it('records multipart bodies as a readable, boundary-free summary', () => {
    const defs = readCassette(join(dir, 'exchanges.json'));
    const up = defs.find((d) => d.path === '/v1/upload')!;
    expect(up.body).toBeUndefined();
    expect(up.multipart).toEqual({
      fields: { prompt: 'a cat' },
      files: [{ field: 'image', filename: 'image.png', contentType: 'image/png', size: 700, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    expect(readFileSync(join(dir, 'exchanges.json'), 'utf8')).not.toContain('conformance-');
  });

  it('puts the run metadata on the first definition', () => {
    const defs = readCassette(join(dir, 'exchanges.json'));
    expect(defs[0]!.conformance).toMatchObject({ format: 1, suite: 'exchanges', seed: 7, base_url: server.url, tool: 'model-api-conformance@test', spec: 'spec.md', interactions: 9, credentials: { api_key: true, member_api_key: false } });
    expect(defs.slice(1).every((d) => d.conformance === undefined)).toBe(true);
    // The time of a recording is in the folder's manifest only: cassettes of the same run are byte-identical.
    expect(defs[0]!.conformance!.recorded_at).toBeUndefined();
  });
});
