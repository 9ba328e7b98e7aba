// A user's own nock-based test loads a cassette as it is: through nock.back (fixtures dir + file name)
// and through nock.define(nock.loadDefs(file)). Written the way a user would, with undici and fetch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RecordTransport } from '../../src/transport/record.ts';
import { Redactor } from '../../src/util/redact.ts';
import { getRequest, jsonRequest, KEY, multipartRequest, profileFor, SSE_BODY, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
let dir: string;
let origin: string;

beforeAll(async () => {
  server = await startTestServer();
  origin = server.url;
  dir = mkdtempSync(join(tmpdir(), 'rr-nockback-'));
  const t = new RecordTransport({ dir, mode: 'update', redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: [KEY] }), profile: profileFor(server.url), seed: 1 });
  await t.beginSuite('completions');
  const opts = { timeoutMs: 5000 };
  await t.send(jsonRequest(server.url, '/v1/json', { model: 'm', prompt: 'hello' }), opts);
  await t.send(jsonRequest(server.url, '/v1/stream', { stream: true }, { stream: true }), opts);
  await t.send(multipartRequest(server.url, 'x'), opts);
  await t.send(getRequest(server.url, '/v1/gzip'), opts);
  await t.endSuite('completions', { seed: 1 });
  await t.close();
  await server.close(); // from here on, only the cassette can answer
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

async function userCalls(): Promise<void> {
  const json = await request(`${origin}/v1/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', prompt: 'hello' }) });
  expect(json.statusCode).toBe(200);
  expect(((await json.body.json()) as { echo: unknown }).echo).toEqual({ model: 'm', prompt: 'hello' });

  const stream = await fetch(`${origin}/v1/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true }) });
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(await stream.text()).toBe(SSE_BODY);

  const form = new FormData();
  form.set('prompt', 'a cat');
  form.set('image', new Blob([new Uint8Array(700)], { type: 'image/png' }), 'image.png');
  const upload = await fetch(`${origin}/v1/upload`, { method: 'POST', body: form });
  expect(upload.status).toBe(200);

  const gz = await fetch(`${origin}/v1/gzip`);
  expect(((await gz.json()) as { data: unknown[] }).data).toHaveLength(300);
}

describe("loading a cassette from a user's own test", () => {
  it('nock.back (lockdown) loads DIR/<suite>.json and every recorded call is used', async () => {
    nock.back.fixtures = dir;
    nock.back.setMode('lockdown');
    const { nockDone, context } = await nock.back('completions.json');
    try {
      expect(context.isLoaded).toBe(true);
      await userCalls();
      context.assertScopesFinished();
    } finally {
      nockDone();
      nock.back.setMode('dryrun');
    }
  });

  it('nock.define(nock.loadDefs(file)) works too', async () => {
    nock.disableNetConnect();
    const scopes = nock.define(nock.loadDefs(join(dir, 'completions.json')));
    expect(scopes).toHaveLength(4);
    await userCalls();
    expect(nock.isDone()).toBe(true);
  });

  it('a before hook can point the cassette at another host', async () => {
    nock.back.fixtures = dir;
    nock.back.setMode('lockdown');
    const { nockDone } = await nock.back('completions.json', { before: (def) => { def.scope = 'https://api.example.test'; } });
    try {
      const res = await fetch('https://api.example.test/v1/gzip');
      expect(res.status).toBe(200);
    } finally {
      nockDone();
      nock.back.setMode('dryrun');
    }
  });
});
