import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng, readPngInfo } from '../../src/fixtures/png.ts';
import { makeWav } from '../../src/fixtures/wav.ts';
import type { ReferenceServer } from '../../src/reference/index.ts';
import { Client, expectError, form, startWithClient, uploadJsonl } from './helpers.ts';

let server: ReferenceServer;
let client: Client;
beforeAll(async () => ({ server, client } = await startWithClient()));
afterAll(() => server.close());

describe('auth', () => {
  it('rejects missing and invalid keys with 401 invalid_api_key', async () => {
    for (const key of [null, 'sk-wrong']) {
      const res = await client.get('/v1/models', { key });
      expectError(res, 401, null);
      expect(res.json.error.code).toBe('invalid_api_key');
      expect(res.headers.get('content-type')).toBe('application/json');
    }
  });
  it('selects the organization with Service-Organization and rejects non-members', async () => {
    expect((await client.get('/v1/files', { org: server.credentials.otherOrganization })).status).toBe(200);
    expectError(await client.get('/v1/files', { key: server.credentials.memberApiKey, org: server.credentials.otherOrganization }), 401);
    expectError(await client.get('/v1/files', { org: 'org-unknown' }), 401);
  });
  it('answers unknown routes and non-JSON bodies with error bodies', async () => {
    expectError(await client.get('/v1/nope'), 404);
    expectError(await client.get('/v1/files/'), 404);
    const bad = await client.call('POST', '/v1/completions', { headers: { 'Content-Type': 'application/json' }, form: undefined, json: undefined });
    expectError(bad, 400);
  });
});

describe('models and engines', () => {
  it('lists and retrieves models', async () => {
    const list = await client.get('/v1/models');
    expect(list.json.object).toBe('list');
    const ids = list.json.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['ada', 'davinci', 'text-davinci-003', 'gpt-3.5-turbo', 'gpt-4', 'whisper-1', 'text-embedding-ada-002']));
    for (const m of list.json.data) {
      expect(m).toMatchObject({ object: 'model', created: expect.any(Number), owned_by: expect.any(String), permission: expect.any(Array) });
    }
    expect((await client.get('/v1/models/curie')).json.id).toBe('curie');
    const missing = await client.get('/v1/models/nope');
    expectError(missing, 404, 'model');
    expect(missing.json.error.code).toBe('model_not_found');
  });
  it('refuses to delete base models (403) and unknown ones (404)', async () => {
    expectError(await client.call('DELETE', '/v1/models/curie'), 403);
    expectError(await client.call('DELETE', '/v1/models/curie:ft-x-2023-01-01-00-00-00'), 404);
  });
  it('lists engines', async () => {
    const list = await client.get('/v1/engines');
    expect(list.json.object).toBe('list');
    expect(list.json.data[0]).toMatchObject({ object: 'engine', ready: true, owner: expect.any(String) });
    expect((await client.get('/v1/engines/davinci')).json).toMatchObject({ id: 'davinci', object: 'engine', ready: true });
    expectError(await client.get('/v1/engines/nope'), 404);
  });
});

describe('completions', () => {
  it('cycles prompt words, stops before the stop sequence, and counts usage', async () => {
    const res = await client.post('/v1/completions', { model: 'davinci', prompt: 'alpha beta gamma delta', stop: 'gamma' });
    expect(res.status).toBe(200);
    const c = res.json.choices[0];
    expect(res.json).toMatchObject({ object: 'text_completion', model: 'davinci', id: expect.stringMatching(/^cmpl-/) });
    expect(c).toEqual({ text: ' alpha beta ', index: 0, logprobs: null, finish_reason: 'stop' });
    expect(res.json.usage.total_tokens).toBe(res.json.usage.prompt_tokens + res.json.usage.completion_tokens);
    expect(res.json.usage.prompt_tokens).toBe(4);
  });
  it('defaults to 16 tokens with finish_reason length', async () => {
    const res = await client.post('/v1/completions', { model: 'ada', prompt: 'one two' });
    expect(res.json.usage.completion_tokens).toBe(16);
    expect(res.json.choices[0].finish_reason).toBe('length');
  });
  it('orders n choices per prompt and accepts every prompt form', async () => {
    const res = await client.post('/v1/completions', { model: 'ada', prompt: ['a', 'b'], n: 2, max_tokens: 2 });
    expect(res.json.choices.map((c: { index: number; text: string }) => [c.index, c.text])).toEqual([[0, ' a a'], [1, ' a a'], [2, ' b b'], [3, ' b b']]);
    expect((await client.post('/v1/completions', { model: 'ada', prompt: [1, 2], max_tokens: 1 })).json.choices[0].text).toBe(' de');
    expect((await client.post('/v1/completions', { model: 'ada', prompt: [[1], [2]], max_tokens: 1 })).json.choices).toHaveLength(2);
    expect((await client.post('/v1/completions', { model: 'ada', max_tokens: 3 })).json.choices[0].text).toBe(' the model writes');
    expectError(await client.post('/v1/completions', { model: 'ada', prompt: [123456] }), 400, 'prompt');
  });
  it('echo + logprobs: prompt first, null first logprob, at most logprobs+1 entries', async () => {
    const res = await client.post('/v1/completions', { model: 'ada', prompt: 'x y', echo: true, logprobs: 3, max_tokens: 2 });
    const c = res.json.choices[0];
    expect(c.text).toBe('x y x y');
    expect(c.logprobs.tokens).toEqual(['x', ' y', ' x', ' y']);
    expect(c.logprobs.token_logprobs[0]).toBeNull();
    expect(c.logprobs.top_logprobs[0]).toBeNull();
    expect(c.logprobs.text_offset).toEqual([0, 1, 3, 5]);
    for (const m of c.logprobs.top_logprobs.slice(1)) expect(Object.keys(m).length).toBeLessThanOrEqual(4);
  });
  it('rejects rule violations with 400 naming the field', async () => {
    expectError(await client.post('/v1/completions', { model: 'ada', stop: ['a', 'b', 'c', 'd', 'e'] }), 400, 'stop');
    expectError(await client.post('/v1/completions', { model: 'ada', temperature: 2.5 }), 400, 'temperature');
    expectError(await client.post('/v1/completions', { model: 'ada', logprobs: 6 }), 400, 'logprobs');
    expectError(await client.post('/v1/completions', { model: 'ada', best_of: 1, n: 2 }), 400, 'best_of');
    expectError(await client.post('/v1/completions', { model: 'ada', best_of: 2, stream: true }), 400, 'best_of');
    expectError(await client.post('/v1/completions', { model: 'ada', max_tokens: 2048, prompt: 'hi' }), 400, 'max_tokens');
    expectError(await client.post('/v1/completions', { model: 'ada', logit_bias: { '50256': -101 } }), 400, 'logit_bias');
    expectError(await client.post('/v1/completions', { model: 'gpt-4', prompt: 'x' }), 400, 'model');
    expectError(await client.post('/v1/completions', { model: 'nope', prompt: 'x' }), 404, 'model');
    expect((await client.post('/v1/completions', { model: 'ada', best_of: 2, n: 2, max_tokens: 1 })).status).toBe(200);
  });
});

describe('chat', () => {
  it('replies with the last user message words; above temperature 0 each of n choices is its own sample', async () => {
    const res = await client.post('/v1/chat/completions', { model: 'gpt-3.5-turbo', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hello big world' }], n: 2 });
    expect(res.json.object).toBe('chat.completion');
    expect(res.json.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'hello big world' }, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'big world hello' }, finish_reason: 'stop' },
    ]);
    const cold = await client.post('/v1/chat/completions', { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hello big world' }], n: 2, temperature: 0 });
    expect(cold.json.choices.map((c: { message: { content: string } }) => c.message.content)).toEqual(['hello big world', 'hello big world']);
    expect(res.json.usage.total_tokens).toBe(res.json.usage.prompt_tokens + res.json.usage.completion_tokens);
  });
  it('rejects empty messages, bad roles and completion models', async () => {
    expectError(await client.post('/v1/chat/completions', { model: 'gpt-4', messages: [] }), 400, 'messages');
    expectError(await client.post('/v1/chat/completions', { model: 'gpt-4', messages: [{ role: 'bot', content: 'x' }] }), 400, 'messages.[0].role');
    expectError(await client.post('/v1/chat/completions', { model: 'davinci', messages: [{ role: 'user', content: 'x' }] }), 400, 'model');
  });
});

describe('edits', () => {
  it('edits with the edit models only', async () => {
    const res = await client.post('/v1/edits', { model: 'code-davinci-edit-001', input: 'fix me. please', instruction: 'fix' });
    expect(res.json).toMatchObject({ object: 'edit', created: expect.any(Number), choices: [{ text: 'Fix me. Please\n', index: 0 }] });
    expectError(await client.post('/v1/edits', { model: 'davinci', instruction: 'x' }), 400, 'model');
    expectError(await client.post('/v1/edits', { model: 'text-davinci-edit-001' }), 400, 'instruction');
  });
});

describe('images', () => {
  it('generates real PNGs of the requested size as url or b64_json', async () => {
    const res = await client.post('/v1/images/generations', { prompt: 'a red cube', n: 2, size: '256x256' });
    expect(res.json.data).toHaveLength(2);
    expect(Object.keys(res.json.data[0])).toEqual(['url']);
    const img = await fetch(res.json.data[0].url);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(readPngInfo(Buffer.from(await img.arrayBuffer()))).toMatchObject({ width: 256, height: 256 });
    const b64 = await client.post('/v1/images/generations', { prompt: 'x', size: '512x512', response_format: 'b64_json' });
    expect(Object.keys(b64.json.data[0])).toEqual(['b64_json']);
    expect(readPngInfo(Buffer.from(b64.json.data[0].b64_json, 'base64')).width).toBe(512);
  });
  it('validates generation fields', async () => {
    expectError(await client.post('/v1/images/generations', { prompt: 'x', n: 11 }), 400, 'n');
    expectError(await client.post('/v1/images/generations', { prompt: 'x'.repeat(1001) }), 400, 'prompt');
    expectError(await client.post('/v1/images/generations', { prompt: 'x', size: '300x300' }), 400, 'size');
    expectError(await client.post('/v1/images/generations', {}), 400, 'prompt');
  });
  it('edits need square PNGs with transparency or a matching mask', async () => {
    const transparent = makePng({ width: 64, height: 64, alpha: 'transparent-region' });
    const opaque = makePng({ width: 64, height: 64 });
    const edit = (files: Parameters<typeof form>[1], fields: Record<string, string> = { prompt: 'add a hat', size: '256x256' }) =>
      client.call('POST', '/v1/images/edits', { form: form(fields, files) });
    const ok = await edit({ image: { data: transparent, filename: 'a.png', type: 'image/png' } });
    expect(ok.status).toBe(200);
    expect(ok.json.data[0].url).toMatch(/\/images\/256x256-/);
    expect((await edit({ image: { data: opaque, filename: 'a.png' }, mask: { data: transparent, filename: 'm.png' } })).status).toBe(200);
    expectError(await edit({ image: { data: opaque, filename: 'a.png' } }), 400, 'image');
    expectError(await edit({ image: { data: makePng({ width: 64, height: 32, alpha: 'transparent-region' }), filename: 'a.png' } }), 400, 'image');
    expectError(await edit({ image: { data: opaque, filename: 'a.png' }, mask: { data: makePng({ width: 32, height: 32 }), filename: 'm.png' } }), 400, 'mask');
    expectError(await edit({ image: { data: Buffer.from('not png'), filename: 'a.png' } }), 400, 'image');
    const variation = await client.call('POST', '/v1/images/variations', { form: form({ n: '2', response_format: 'b64_json', size: '256x256' }, { image: { data: opaque, filename: 'a.png' } }) });
    expect(variation.json.data).toHaveLength(2);
    expect(readPngInfo(Buffer.from(variation.json.data[1].b64_json, 'base64')).width).toBe(256);
  });
});

describe('embeddings', () => {
  it('returns one deterministic 1536-float vector per input, in order', async () => {
    const res = await client.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: ['a', 'b', 'a'] });
    expect(res.json.object).toBe('list');
    expect(res.json.data.map((d: { index: number }) => d.index)).toEqual([0, 1, 2]);
    expect(res.json.data[0].embedding).toHaveLength(1536);
    expect(res.json.data[0].embedding).toEqual(res.json.data[2].embedding);
    expect(res.json.data[0].embedding).not.toEqual(res.json.data[1].embedding);
    expect(res.json.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
  });
  it('rejects inputs over 8192 tokens', async () => {
    expectError(await client.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'w '.repeat(8193) }), 400, 'input');
    expectError(await client.post('/v1/embeddings', { model: 'text-embedding-ada-002' }), 400, 'input');
  });
});

describe('audio', () => {
  const wav = makeWav({ seconds: 7 });
  const audio = (path: string, fields: Record<string, string>, filename = 'speech.wav') =>
    client.call('POST', path, { form: form({ model: 'whisper-1', ...fields }, { file: { data: wav, filename } }) });
  it('transcribes in every response format', async () => {
    expect((await audio('/v1/audio/transcriptions', {})).json).toEqual({ text: expect.any(String) });
    const verbose = await audio('/v1/audio/transcriptions', { response_format: 'verbose_json', language: 'de' });
    expect(verbose.json).toMatchObject({ task: 'transcribe', language: 'german', duration: 7 });
    expect(verbose.json.segments).toHaveLength(2);
    const srt = await audio('/v1/audio/transcriptions', { response_format: 'srt' });
    expect(srt.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(srt.text).toMatch(/^1\n00:00:00,000 --> 00:00:03,500\n.+\n\n2\n00:00:03,500 --> 00:00:07,000\n/);
    const vtt = await audio('/v1/audio/translations', { response_format: 'vtt' });
    expect(vtt.text).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:03\.500\n/);
    expect((await audio('/v1/audio/translations', { response_format: 'text' })).text).toMatch(/\.\n$/);
  });
  it('rejects bad models, extensions, temperatures and languages', async () => {
    expectError(await audio('/v1/audio/transcriptions', { model: 'whisper-2' }), 404, 'model');
    expectError(await audio('/v1/audio/transcriptions', {}, 'speech.txt'), 400, 'file');
    expectError(await audio('/v1/audio/transcriptions', { temperature: '1.5' }), 400, 'temperature');
    expectError(await audio('/v1/audio/transcriptions', { language: 'english' }), 400, 'language');
  });
});

describe('files', () => {
  it('uploads, lists, downloads exact bytes and deletes', async () => {
    const content = '{"prompt":"a ->","completion":" b END"}\r\n{"prompt":"c ->","completion":" d END"}\n';
    const up = await uploadJsonl(client, content);
    expect(up.json).toMatchObject({ object: 'file', id: expect.stringMatching(/^file-/), bytes: Buffer.byteLength(content), purpose: 'fine-tune', status: 'uploaded', status_details: null, filename: 'data.jsonl' });
    expect((await client.get('/v1/files')).json.data.map((f: { id: string }) => f.id)).toContain(up.json.id);
    expect((await client.get(`/v1/files/${up.json.id}`)).json.status).toBe('processed');
    const raw = await client.get(`/v1/files/${up.json.id}/content`);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(raw.text).toBe(content);
    expect((await client.get('/v1/files', { org: server.credentials.otherOrganization })).json.data).toEqual([]);
    expectError(await client.get(`/v1/files/${up.json.id}`, { org: server.credentials.otherOrganization }), 404);
    expect((await client.call('DELETE', `/v1/files/${up.json.id}`)).json).toEqual({ id: up.json.id, object: 'file', deleted: true });
    expectError(await client.get(`/v1/files/${up.json.id}`), 404);
  });
  it('validates fine-tune JSONL but not other purposes', async () => {
    const bad = await uploadJsonl(client, '{"prompt":"a"}\n');
    expectError(bad, 400, 'file');
    expect(bad.json.error.message).toMatch(/line 1/);
    expect((await uploadJsonl(client, 'anything', 'search')).status).toBe(200);
  });
});

describe('moderations', () => {
  it('classifies keywords into exactly 7 categories', async () => {
    const res = await client.post('/v1/moderations', { input: ['I will kill them', 'a quiet day', 'a fight'] });
    expect(res.json.id).toMatch(/^modr-/);
    expect(res.json.model).toBe('text-moderation-latest');
    const [kill, calm, fight] = res.json.results;
    expect(Object.keys(kill.categories).sort()).toEqual(['hate', 'hate/threatening', 'self-harm', 'sexual', 'sexual/minors', 'violence', 'violence/graphic']);
    expect(kill.flagged).toBe(true);
    expect(kill.categories.violence).toBe(true);
    expect(calm.flagged).toBe(false);
    expect(fight.category_scores.violence).toBe(0.3);
    expect(fight.flagged).toBe(false);
    expectError(await client.post('/v1/moderations', { input: 'x', model: 'text-moderation-999' }), 404, 'model');
  });
});

describe('plugin host', () => {
  it('serves manifest, OpenAPI, logo, legal and JSON operations with CORS', async () => {
    const m = await client.get(`${server.pluginUrl}/.well-known/ai-plugin.json`, { key: null, headers: { Origin: 'https://chat.example' } });
    expect(m.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    expect(m.json).toMatchObject({ schema_version: 'v1', auth: { type: 'none' }, api: { type: 'openapi', url: `${server.pluginUrl}/openapi.yaml`, is_user_authenticated: false } });
    expect(m.json.description_for_model).toMatch(/^Plugin for /);
    for (const url of [m.json.api.url, m.json.logo_url, m.json.legal_info_url]) expect((await fetch(url)).status).toBe(200);
    const todos = await client.get(`${server.pluginUrl}/todos?limit=1`, { key: null });
    expect(todos.json.todos).toHaveLength(1);
    const added = await client.post(`${server.pluginUrl}/todos`, { title: 'new one' }, { key: null });
    expect(added.status).toBe(201);
    expect((await client.get(`${server.pluginUrl}/todos/${added.json.id}`, { key: null })).json.title).toBe('new one');
    const pre = await fetch(`${server.pluginUrl}/todos`, { method: 'OPTIONS', headers: { Origin: 'https://chat.example', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
