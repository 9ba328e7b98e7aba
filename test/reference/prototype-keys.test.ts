// Names that collide with Object.prototype (found by the fuzzer: model "constructor" was accepted)
// must be plain unknown names everywhere the reference server looks a client-supplied name up.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import { encodeMultipart } from '../../src/transport/multipart.ts';
import { makeWav } from '../../src/fixtures/wav.ts';

let server: ReferenceServer;
beforeAll(async () => { server = await startReferenceServer(); });
afterAll(async () => { await server.close(); });

const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${server.credentials.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('prototype-named inputs are unknown names', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('moderation model %s is rejected', async (model) => {
    const res = await post('/v1/moderations', { input: 'hello', model });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it.each(['constructor', '__proto__'])('completion model %s is rejected', async (model) => {
    const res = await post('/v1/completions', { model, prompt: 'x' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('a multipart field named __proto__ is just a field', async () => {
    const { body, contentType } = encodeMultipart([
      { name: '__proto__', value: 'x' },
      { name: 'model', value: 'whisper-1' },
      { name: 'language', value: 'constructor' },
      { name: 'file', filename: 'a.wav', contentType: 'audio/wav', data: makeWav({ seconds: 0.2 }) },
    ], 'b-proto-test');
    const res = await fetch(`${server.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${server.credentials.apiKey}`, 'content-type': contentType }, body });
    expect(res.status).toBeLessThan(500);
  });
});
