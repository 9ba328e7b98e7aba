// A recording through the proxy replays each answer byte for byte, whatever JSON it is: JSON that re-serialises
// exactly is kept readable (an object), anything else as the bytes it was. Held through the proxy, judge on and
// off (either way the proxy hands the recording its reading of the body), and for storedResponse reading the
// bytes itself (as a HAR import does).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProxy } from '../../src/proxy/server.ts';
import { trafficSession } from '../../src/traffic/session.ts';
import type { CassetteDefinition } from '../../src/transport/cassette.ts';
import { serialisedResponse, storedResponse } from '../../src/transport/cassette-record.ts';
import { localServer, type LocalServer } from '../local-server.ts';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const floats = Array.from({ length: 1536 }, (_, i) => Math.sin(i) / 40);
/** Answers by path, and whether the cassette may keep each as an object (its JSON re-serialises to its bytes). */
const BODIES: Record<string, { bytes: Buffer; readable: boolean }> = {
  '/v1/embeddings': { bytes: Buffer.from(JSON.stringify({ object: 'list', data: [{ object: 'embedding', embedding: floats, index: 0 }], model: 'text-embedding-ada-002', usage: { prompt_tokens: 1, total_tokens: 1 } })), readable: true },
  '/v1/models': { bytes: Buffer.concat([BOM, Buffer.from('{"object":"list","data":[]}')]), readable: false },
  '/v1/engines': { bytes: Buffer.from('{ "object": "list", "data": [] }'), readable: false },
  '/v1/edits': { bytes: Buffer.from(JSON.stringify({ object: 'edit', choices: [{ text: 'a\nb', index: 0 }] }, null, 2)), readable: false },
  '/v1/files': { bytes: Buffer.from(JSON.stringify({ object: 'list', data: [], n: [1.0e3, 0.10] }).replace('[1000,0.1]', '[1.0e3,0.10]')), readable: false },
  // Deeper than a recording keeps as an object, and a shallow one with more brackets than that depth.
  '/v1/fine-tunes': { bytes: Buffer.from('['.repeat(600) + ']'.repeat(600)), readable: false },
  '/v1/moderations': { bytes: Buffer.from(JSON.stringify({ results: Array.from({ length: 700 }, (_, i) => ({ i })) })), readable: true },
};

const dirs: string[] = [];
const servers: LocalServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function upstream(): Promise<LocalServer> {
  const s = await localServer((req, res) => {
    const body = BODIES[req.url ?? '']!;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.bytes.length }).end(body.bytes);
  });
  servers.push(s);
  return s;
}

const bytesOf = async (base: string, path: string) => Buffer.from(await (await fetch(`${base}${path}`, { headers: { 'x-conformance-cassette': 'bytes' } })).arrayBuffer());

describe('answers recorded through the proxy', () => {
  for (const judging of [true, false]) {
    it(`replay byte for byte, readable where their JSON allows (judge ${judging ? 'on' : 'off'})`, async () => {
      const up = await upstream();
      const dir = mkdtempSync(join(tmpdir(), 'recorded-bytes-'));
      dirs.push(dir);
      const recording = await startProxy({ upstream: up.url, record: { dir, mode: 'record' }, ...(judging ? { judge: trafficSession(up.url).judge } : {}) });
      for (const [path, body] of Object.entries(BODIES)) expect(await bytesOf(recording.url, path)).toEqual(body.bytes);
      await recording.close();

      const text = readFileSync(join(dir, 'bytes.json'), 'utf8');
      const defs = JSON.parse(text) as CassetteDefinition[];
      // Whatever shortcut wrote it, the file is what serialising its entries one per line gives.
      expect(text).toBe(`[\n${defs.map((d) => `  ${JSON.stringify(d)}`).join(',\n')}\n]\n`);
      expect(defs.map((d) => [d.path, typeof d.response === 'object'])).toEqual(Object.entries(BODIES).map(([path, b]) => [path, b.readable]));

      const replaying = await startProxy({ record: { dir, mode: 'lockdown' }, timing: 'none' });
      for (const [path, body] of Object.entries(BODIES)) expect(await bytesOf(replaying.url, path), path).toEqual(body.bytes);
      await replaying.close();
    });
  }

  it('are read the same when storedResponse reads the bytes itself', () => {
    for (const [path, body] of Object.entries(BODIES)) {
      const stored = storedResponse(body.bytes, false, true);
      expect([path, typeof stored.response === 'object']).toEqual([path, body.readable]);
      const replayed = stored.responseIsBinary ? Buffer.from(stored.response as string, 'hex') : Buffer.from(typeof stored.response === 'string' ? stored.response : JSON.stringify(stored.response));
      expect(replayed, path).toEqual(body.bytes);
      if (body.readable) expect(serialisedResponse(stored.response)).toBe(body.bytes.toString('utf8'));
    }
  });
});
