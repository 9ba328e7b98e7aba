// Secrets never reach a cassette (even echoed back inside a gzip'd body); cassettes are written atomically
// and an interrupted or failed recording leaves the previous cassette intact.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readCassette } from '../../src/transport/cassette.ts';
import { RecordTransport } from '../../src/transport/record.ts';
import { Redactor } from '../../src/util/redact.ts';
import { getRequest, jsonRequest, KEY, ORG, profileFor, startTestServer, type TestServer } from './helpers.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return { ...real, rename: vi.fn(real.rename) };
});

let server: TestServer;
let root: string;
const redactor = new Redactor({ secretHeaders: ['authorization', 'service-organization'], secretValues: [KEY] });
const opts = { timeoutMs: 5000 };

beforeAll(async () => {
  server = await startTestServer();
  root = mkdtempSync(join(tmpdir(), 'rr-secrets-'));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function recorder(dir: string): RecordTransport {
  return new RecordTransport({ dir, mode: 'update', redactor, profile: profileFor(server.url), seed: 3 });
}

describe('secrets', () => {
  it('redacts keys in paths, request bodies, response headers and (compressed) response bodies', async () => {
    const dir = join(root, 'secrets');
    const t = recorder(dir);
    await t.beginSuite('secrets');
    await t.send(jsonRequest(server.url, `/v1/json?key=${KEY}`, { note: `my key is ${KEY}` }), opts);
    const plain = await t.send(getRequest(server.url, '/v1/echo-auth'), opts);
    await t.send(getRequest(server.url, '/v1/echo-auth', { 'x-gzip': '1' }), opts);
    await t.endSuite('secrets', { seed: 3 });
    await t.close();
    expect(plain.response?.text).toContain(KEY); // the server did echo it

    const text = readFileSync(join(dir, 'secrets.json'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(encodeURIComponent(KEY));
    const defs = readCassette(join(dir, 'secrets.json'));
    expect(defs[0]!.path).toBe('/v1/json?key=REDACTED');
    expect(defs[0]!.body).toEqual({ note: 'my key is REDACTED' });
    expect(JSON.stringify(defs[1]!.response)).toContain('Bearer REDACTED');
    expect(defs[1]!.rawHeaders).toContain('Bearer REDACTED');
    // The gzip'd echo is re-encoded with the key redacted, and content-length stays consistent.
    const gz = Buffer.from(String(defs[2]!.response), 'hex');
    expect(gunzipSync(gz).toString()).toContain('Bearer REDACTED');
    expect(gunzipSync(gz).toString()).not.toContain(KEY);
    // Only whether a key was given is recorded, never the key.
    expect(defs[0]!.conformance?.credentials).toEqual({ api_key: true, member_api_key: false, organization: ORG });
  });
});

describe('atomic writes', () => {
  it('writes through a temporary file and a rename, leaving no temporary file', async () => {
    const dir = join(root, 'atomic');
    const t = recorder(dir);
    await t.beginSuite('s');
    await t.send(getRequest(server.url, '/v1/json/a'), opts);
    await t.endSuite('s', { seed: 3 });
    await t.close();
    const renames = vi.mocked(fsp.rename).mock.calls.map((c) => String(c[1]));
    expect(renames).toContain(join(dir, 's.json'));
    expect(readdirSync(dir)).toEqual(['s.json']);
  });

  it('keeps the previous cassette when writing fails', async () => {
    const dir = join(root, 'failing');
    const t0 = recorder(dir);
    await t0.beginSuite('s');
    await t0.send(getRequest(server.url, '/v1/json/first'), opts);
    await t0.endSuite('s', { seed: 3 });
    await t0.close();
    const before = readFileSync(join(dir, 's.json'), 'utf8');

    vi.mocked(fsp.rename).mockRejectedValueOnce(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    const t = recorder(dir);
    await t.beginSuite('s');
    await t.send(getRequest(server.url, '/v1/json/second'), opts);
    await expect(t.endSuite('s', { seed: 3 })).rejects.toThrow('disk full');
    await t.close();
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['s.json']);
  });

  it('does not write the cassette of an interrupted suite: the previous one stays intact', async () => {
    const dir = join(root, 'interrupted');
    const t0 = recorder(dir);
    await t0.beginSuite('s');
    await t0.send(getRequest(server.url, '/v1/json/first'), opts);
    await t0.endSuite('s', { seed: 3 });
    await t0.close();
    const before = readFileSync(join(dir, 's.json'), 'utf8');

    const controller = new AbortController();
    const notices: string[] = [];
    const t = new RecordTransport({ dir, mode: 'update', redactor, profile: profileFor(server.url), seed: 3, onNotice: (m) => notices.push(m) });
    await t.beginSuite('s');
    await t.send(getRequest(server.url, '/v1/json/second'), { ...opts, signal: controller.signal });
    controller.abort(); // Ctrl-C: the engine stops starting cases and ends the suite
    await t.endSuite('s', { seed: 3 });
    await t.close();
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(before);
    expect(notices.join("\n")).toMatch(/suite "s" did not complete: no cassette of this recording replaces what .* holds \(the previous cassette is kept\)/);
  });
});
