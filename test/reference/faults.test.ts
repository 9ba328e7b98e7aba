// Every fault must be accepted by startReferenceServer AND be observable: each probe returns true
// when the one-rule violation is visible, and must return false against a conformant server.
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng, readPngInfo } from '../../src/fixtures/png.ts';
import { makeWav } from '../../src/fixtures/wav.ts';
import { FAULTS, startReferenceServer } from '../../src/reference/index.ts';
import type { FaultName, ReferenceOptions, ReferenceServer } from '../../src/reference/index.ts';
import { Client, TRAINING_JSONL, VALIDATION_JSONL, form, sseData, uploadJsonl, waitFor } from './helpers.ts';

const OPTIONS: ReferenceOptions = { trainingMs: 40, quotaBytes: 100_000 };
type Probe = (c: Client, s: ReferenceServer) => Promise<boolean>;

const completion = (c: Client, body: Record<string, unknown>) => c.post('/v1/completions', { model: 'ada', ...body });
const chat = (c: Client, body: Record<string, unknown>) =>
  c.post('/v1/chat/completions', { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'alpha beta gamma' }], ...body });
const ok = async (p: Promise<{ status: number }>) => (await p).status === 200;
const audio = (c: Client, fields: Record<string, string>, filename = 'a.wav') =>
  c.call('POST', '/v1/audio/transcriptions', { form: form({ model: 'whisper-1', ...fields }, { file: { data: makeWav({ seconds: 2 }), filename } }) });
const manifest = async (c: Client, s: ReferenceServer) => (await c.get(`${s.pluginUrl}/.well-known/ai-plugin.json`, { key: null })).json;

async function createJob(c: Client, body: Record<string, unknown> = {}) {
  const file = (await uploadJsonl(c, TRAINING_JSONL)).json.id;
  return (await c.post('/v1/fine-tunes', { training_file: file, n_epochs: 1, model: 'ada', ...body })).json;
}
async function succeeded(c: Client, body: Record<string, unknown> = {}) {
  const { id } = await createJob(c, body);
  return waitFor(async () => {
    const j = (await c.get(`/v1/fine-tunes/${id}`)).json;
    return j.status === 'succeeded' ? j : undefined;
  });
}
async function resultsHeader(c: Client, body: Record<string, unknown> = {}) {
  const job = await succeeded(c, body);
  return (await c.get(`/v1/files/${job.result_files[0].id}/content`)).text.split('\n')[0]!;
}
async function streamNeverEnds(s: ReferenceServer): Promise<boolean> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), 300);
  try {
    const res = await fetch(`${s.url}/v1/completions`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk-ref-owner', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'ada', prompt: 'a', max_tokens: 2, stream: true }),
      signal: ctl.signal,
    });
    await res.text();
    return false;
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}

let bigPng: Buffer | undefined;
const BIG_PNG = () => (bigPng ??= makePng({ width: 1200, height: 1200, noise: true }));

const PROBES: Record<FaultName, Probe> = {
  'missing-authorization-accepted': (c) => ok(c.get('/v1/models', { key: null })),
  'invalid-api-key-accepted': (c) => ok(c.get('/v1/models', { key: 'sk-bad' })),
  'foreign-organization-accepted': (c, s) => ok(c.get('/v1/files', { key: s.credentials.memberApiKey, org: s.credentials.otherOrganization })),
  'auth-scheme-ignored': async (c) => (await c.get('/v1/models', { headers: { Authorization: `Token ${c.server.credentials.apiKey}` }, key: null })).status === 200,
  'auth-error-not-wrapped': async (c) => (await c.get('/v1/models', { key: null })).json.error === undefined,

  'member-may-delete-model': async (c, s) => ok(c.call('DELETE', `/v1/models/${(await succeeded(c)).fine_tuned_model}`, { key: s.credentials.memberApiKey })),
  'model-list-object-wrong': async (c) => (await c.get('/v1/models')).json.object !== 'list',
  'deleted-model-still-listed': async (c) => {
    const model = (await succeeded(c)).fine_tuned_model;
    await c.call('DELETE', `/v1/models/${model}`);
    return ok(c.get(`/v1/models/${model}`));
  },
  'model-created-not-integer': async (c) => typeof (await c.get('/v1/models')).json.data[0].created !== 'number',
  'fine-tuned-model-owned-by-openai': async (c) => {
    const model = (await succeeded(c)).fine_tuned_model;
    return (await c.get(`/v1/models/${model}`)).json.owned_by === 'openai';
  },
  'fine-tuned-model-not-listed': async (c) => {
    const model = (await succeeded(c)).fine_tuned_model;
    return !(await c.get('/v1/models')).json.data.some((m: { id: string }) => m.id === model);
  },

  'engine-ready-missing': async (c) => !('ready' in (await c.get('/v1/engines')).json.data[0]),
  'engine-object-wrong': async (c) => (await c.get('/v1/engines')).json.data[0].object !== 'engine',
  'engines-include-fine-tuned': async (c) => {
    const model = (await succeeded(c)).fine_tuned_model;
    return (await c.get('/v1/engines')).json.data.some((e: { id: string }) => e.id === model);
  },

  'stop-allows-5': (c) => ok(completion(c, { stop: ['a', 'b', 'c', 'd', 'e'] })),
  'stop-sequence-in-text': async (c) => (await completion(c, { prompt: 'alpha beta gamma', stop: 'gamma' })).json.choices[0].text.includes('gamma'),
  'max-tokens-default-32': async (c) => (await completion(c, { prompt: 'x' })).json.usage.completion_tokens !== 16,
  'usage-total-not-sum': async (c) => {
    const u = (await completion(c, { prompt: 'x' })).json.usage;
    return u.total_tokens !== u.prompt_tokens + u.completion_tokens;
  },
  'n-ignored': async (c) => (await completion(c, { prompt: 'x', n: 2 })).json.choices.length !== 2,
  'echo-missing-prompt': async (c) => !(await completion(c, { prompt: 'hello', echo: true })).json.choices[0].text.startsWith('hello'),
  'top-logprobs-extra-entries': async (c) =>
    (await completion(c, { prompt: 'a b', logprobs: 1 })).json.choices[0].logprobs.top_logprobs.some((m: object) => Object.keys(m).length > 2),
  'suffix-returned-in-text': async (c) => (await completion(c, { prompt: 'x', suffix: ' the end.', max_tokens: 2 })).json.choices[0].text.endsWith(' the end.'),
  'logprobs-placeholder-zeros': async (c) =>
    (await completion(c, { prompt: 'a b', logprobs: 2 })).json.choices[0].logprobs.top_logprobs.every((m: Record<string, number>) => Object.values(m).every((v) => v === 0)),
  'temperature-2.5-accepted': (c) => ok(completion(c, { temperature: 2.5 })),
  'context-length-unchecked': (c) => ok(completion(c, { prompt: 'hi', max_tokens: 2048 })),
  'best-of-below-n-accepted': (c) => ok(completion(c, { n: 2, best_of: 1 })),
  'logprobs-not-null': async (c) => (await completion(c, {})).json.choices[0].logprobs !== null,
  'finish-reason-length-on-stop': async (c) => (await completion(c, { prompt: 'a b', stop: 'b' })).json.choices[0].finish_reason !== 'stop',
  'choice-index-per-prompt': async (c) => (await completion(c, { prompt: ['a', 'b'] })).json.choices.map((x: { index: number }) => x.index).join() !== '0,1',

  'stream-missing-done': async (c) => !(await completion(c, { stream: true })).text.includes('data: [DONE]'),
  'stream-event-lines': async (c) => /^(event|id):/m.test((await completion(c, { stream: true })).text),
  'stream-hangs': (_c, s) => streamNeverEnds(s),
  'stream-best-of-accepted': (c) => ok(completion(c, { stream: true, best_of: 2 })),
  'stream-json-content-type': async (c) => (await completion(c, { stream: true })).headers.get('content-type') !== 'text/event-stream',
  'stream-chat-no-finish-chunk': async (c) => !(await chat(c, { stream: true })).text.includes('"finish_reason":"stop"'),

  'chat-role-bot': async (c) => (await chat(c, {})).json.choices[0].message.role !== 'assistant',
  'chat-object-wrong': async (c) => (await chat(c, {})).json.object !== 'chat.completion',
  'chat-empty-messages-accepted': (c) => ok(chat(c, { messages: [] })),
  'chat-accepts-completion-model': (c) => ok(chat(c, { model: 'davinci' })),
  'chat-stop-ignored': async (c) => (await chat(c, { stop: 'beta' })).json.choices[0].message.content.includes('beta'),

  'edit-accepts-any-model': (c) => ok(c.post('/v1/edits', { model: 'davinci', instruction: 'x' })),
  'edit-instruction-optional': (c) => ok(c.post('/v1/edits', { model: 'text-davinci-edit-001', input: 'x' })),
  'edit-object-wrong': async (c) => (await c.post('/v1/edits', { model: 'text-davinci-edit-001', instruction: 'x' })).json.object !== 'edit',

  'image-n-11-accepted': (c) => ok(c.post('/v1/images/generations', { prompt: 'x', n: 11, size: '256x256' })),
  'image-size-ignored': async (c) => {
    const res = await c.post('/v1/images/generations', { prompt: 'x', size: '256x256', response_format: 'b64_json' });
    const item = res.json.data[0];
    const png = item.b64_json ? Buffer.from(item.b64_json, 'base64') : Buffer.from(await (await fetch(item.url)).arrayBuffer());
    return readPngInfo(png).width !== 256;
  },
  'b64-json-returns-url': async (c) => !('b64_json' in (await c.post('/v1/images/generations', { prompt: 'x', size: '256x256', response_format: 'b64_json' })).json.data[0]),
  'image-edit-accepts-non-square': (c) =>
    ok(c.call('POST', '/v1/images/variations', { form: form({ size: '256x256' }, { image: { data: makePng({ width: 32, height: 16 }), filename: 'a.png' } }) })),
  'image-prompt-1001-accepted': (c) => ok(c.post('/v1/images/generations', { prompt: 'x'.repeat(1001), size: '256x256' })),
  'image-edit-opaque-without-mask': (c) =>
    ok(c.call('POST', '/v1/images/edits', { form: form({ prompt: 'x', size: '256x256' }, { image: { data: makePng({ width: 16, height: 16 }), filename: 'a.png' } }) })),
  'image-item-both-fields': async (c) => Object.keys((await c.post('/v1/images/generations', { prompt: 'x', size: '256x256' })).json.data[0]).length !== 1,

  'embeddings-1535-dims': async (c) => (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'x' })).json.data[0].embedding.length !== 1536,
  'embeddings-reversed-order': async (c) => {
    const both = (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: ['a', 'b'] })).json.data;
    const a = (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'a' })).json.data[0].embedding;
    return JSON.stringify(both.find((d: { index: number }) => d.index === 0)?.embedding) !== JSON.stringify(a) || both[0].index !== 0;
  },
  'embeddings-input-too-long-accepted': (c) => ok(c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'w '.repeat(8193) })),
  'embeddings-index-from-one': async (c) => (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'x' })).json.data[0].index !== 0,

  'audio-temperature-1.5-accepted': (c) => ok(audio(c, { temperature: '1.5' })),
  'srt-malformed-timestamps': async (c) => !/\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}/.test((await audio(c, { response_format: 'srt' })).text),
  'verbose-json-missing-segments': async (c) => !Array.isArray((await audio(c, { response_format: 'verbose_json' })).json.segments),
  'whisper-2-accepted': (c) => ok(audio(c, { model: 'whisper-2' })),
  'audio-wav-only': async (c) => (await audio(c, {}, 'a.mp3')).status >= 400,
  'audio-any-extension-accepted': (c) => ok(audio(c, {}, 'a.txt')),
  'vtt-missing-header': async (c) => !(await audio(c, { response_format: 'vtt' })).text.startsWith('WEBVTT'),

  'files-list-other-org': async (c, s) => {
    const id = (await uploadJsonl(c, 'x', 'search', { org: s.credentials.otherOrganization })).json.id;
    return (await c.get('/v1/files')).json.data.some((f: { id: string }) => f.id === id);
  },
  'file-content-differs': async (c) => {
    const id = (await uploadJsonl(c, 'a\nb', 'search')).json.id;
    return (await c.get(`/v1/files/${id}/content`)).text !== 'a\nb';
  },
  'file-delete-not-removed': async (c) => {
    const id = (await uploadJsonl(c, 'a', 'search')).json.id;
    await c.call('DELETE', `/v1/files/${id}`);
    return ok(c.get(`/v1/files/${id}`));
  },
  'jsonl-missing-completion-accepted': (c) => ok(uploadJsonl(c, '{"prompt":"a"}\n')),
  'file-quota-unchecked': (c) => ok(uploadJsonl(c, 'x'.repeat(150_000), 'search')),

  'fine-tune-suffix-41-accepted': async (c) => (await createJob(c, { suffix: 'x'.repeat(41) })).object === 'fine-tune',
  'fine-tuned-model-set-while-pending': async (c) => (await createJob(c)).fine_tuned_model !== null,
  'results-csv-missing-elapsed-examples': async (c) => !(await resultsHeader(c)).includes('elapsed_examples'),
  'results-csv-validation-columns-always': async (c) => (await resultsHeader(c)).includes('validation_loss'),
  'fine-tune-events-out-of-order': async (c) => !(await createJob(c)).events[0].message.startsWith('Created fine-tune'),
  'fine-tune-event-stream-missing-done': async (c) => {
    const { id } = await createJob(c);
    await c.post(`/v1/fine-tunes/${id}/cancel`, {});
    return !(await c.get(`/v1/fine-tunes/${id}/events?stream=true`)).text.includes('data: [DONE]');
  },
  'cancel-leaves-running': async (c) => {
    const { id } = await createJob(c);
    return (await c.post(`/v1/fine-tunes/${id}/cancel`, {})).json.status !== 'cancelled';
  },
  'fine-tune-list-includes-events': async (c) => {
    await createJob(c);
    return (await c.get('/v1/fine-tunes')).json.data.some((j: object) => 'events' in j);
  },
  'classification-metrics-without-validation-accepted': async (c) =>
    (await createJob(c, { compute_classification_metrics: true, classification_n_classes: 2 })).object === 'fine-tune',
  'cancel-terminal-accepted': async (c) => ok(c.post(`/v1/fine-tunes/${(await succeeded(c)).id}/cancel`, {})),

  'moderation-6-categories': async (c) => Object.keys((await c.post('/v1/moderations', { input: 'x' })).json.results[0].categories).length !== 7,
  'moderation-score-above-1': async (c) =>
    Object.values((await c.post('/v1/moderations', { input: 'kill' })).json.results[0].category_scores as Record<string, number>).some((v) => v > 1),
  'moderation-flagged-inconsistent': async (c) => {
    const r = (await c.post('/v1/moderations', { input: 'kill' })).json.results[0];
    return r.flagged !== Object.values(r.categories).some(Boolean);
  },
  'moderation-array-first-only': async (c) => (await c.post('/v1/moderations', { input: ['a', 'b'] })).json.results.length !== 2,
  'moderation-any-model-accepted': (c) => ok(c.post('/v1/moderations', { input: 'x', model: 'text-moderation-999' })),

  'manifest-name-for-model-51': async (c, s) => (await manifest(c, s)).name_for_model.length > 50,
  'manifest-missing': async (_c, s) => (await fetch(`${s.pluginUrl}/.well-known/ai-plugin.json`)).status !== 200,
  'openapi-operation-without-operation-id': async (_c, s) => {
    const doc = YAML.parse(await (await fetch(`${s.pluginUrl}/openapi.yaml`)).text());
    return Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).some((ops) => Object.values(ops).some((op) => !op.operationId));
  },
  'plugin-auth-oauth-localhost': async (c, s) => (await manifest(c, s)).auth.type !== 'none',
  'plugin-response-not-json': async (_c, s) => !(await fetch(`${s.pluginUrl}/todos`)).headers.get('content-type')?.startsWith('application/json'),
  'plugin-no-cors': async (_c, s) => !(await fetch(`${s.pluginUrl}/.well-known/ai-plugin.json`, { headers: { Origin: 'https://x.example' } })).headers.get('access-control-allow-origin'),
  'manifest-description-for-human-121': async (c, s) => (await manifest(c, s)).description_for_human.length > 120,
  'manifest-logo-url-broken': async (c, s) => (await fetch((await manifest(c, s)).logo_url)).status !== 200,
  'manifest-description-steers-model': async (c, s) => /always use/i.test((await manifest(c, s)).description_for_model),

  // Second catalogue (issue 11): faults aimed at vacuous passes and at values the suites did not compare.
  'api-key-prefix-match': (c) => ok(c.get('/v1/models', { key: 'sk-ref-o-altered-key-0000' })),
  'post-without-authorization-accepted': (c) => ok(c.post('/v1/completions', { model: 'ada', prompt: 'x', max_tokens: 1 }, { key: null })),
  'model-retrieve-owner-differs': async (c) => {
    const list = (await c.get('/v1/models')).json.data as { id: string; owned_by: string }[];
    for (const m of list) if ((await c.get(`/v1/models/${m.id}`)).json.owned_by !== m.owned_by) return true;
    return false;
  },
  'model-retrieve-stale-subset': async (c) => {
    const list = (await c.get('/v1/models')).json.data as { id: string }[];
    for (const m of list) if ((await c.get(`/v1/models/${m.id}`)).status !== 200) return true;
    return false;
  },
  'model-retrieve-unknown-200': (c) => ok(c.get('/v1/models/no-such-model-xyz')),
  'base-model-delete-accepted': (c) => ok(c.call('DELETE', '/v1/models/ada')),
  'deleted-model-still-usable': async (c) => {
    const model = (await succeeded(c)).fine_tuned_model;
    await c.call('DELETE', `/v1/models/${model}`);
    return ok(c.post('/v1/completions', { model, prompt: 'x', max_tokens: 1 }));
  },
  'engine-retrieve-unknown-200': (c) => ok(c.get('/v1/engines/no-such-engine')),
  'engine-retrieve-wrong-id': async (c) => (await c.get('/v1/engines/davinci')).json.id !== 'davinci',
  'engine-owner-missing': async (c) => !('owner' in (await c.get('/v1/engines')).json.data[0]),
  'max-tokens-plus-one': async (c) => (await completion(c, { prompt: 'a b c', max_tokens: 3 })).json.usage.completion_tokens > 3,
  'max-tokens-exceeded-usage-capped': async (c) => (await completion(c, { prompt: 'a b c', max_tokens: 3 })).json.choices[0].text.split(' ').length - 1 > 3,
  'n-duplicates-first-choice': async (c) => new Set((await completion(c, { prompt: 'alpha beta gamma delta', n: 3, temperature: 1 })).json.choices.map((x: { text: string }) => x.text)).size === 1,
  'chat-n-duplicates': async (c) => new Set((await chat(c, { n: 3, temperature: 1 })).json.choices.map((x: { message: { content: string } }) => x.message.content)).size === 1,
  'n-extra-choice': async (c) => (await completion(c, { prompt: 'x', n: 2 })).json.choices.length !== 2,
  'stop-array-first-only': async (c) => (await completion(c, { prompt: 'alpha beta gamma', stop: ['zzz', 'gamma'] })).json.choices[0].text.includes('gamma'),
  'logprobs-6-accepted': (c) => ok(completion(c, { logprobs: 6 })),
  'presence-penalty-2.5-accepted': (c) => ok(completion(c, { presence_penalty: 2.5 })),
  'logit-bias-101-accepted': (c) => ok(completion(c, { logit_bias: { '50256': 101 } })),
  'temperature-negative-accepted': (c) => ok(completion(c, { temperature: -0.5 })),
  'completion-object-wrong': async (c) => (await completion(c, {})).json.object !== 'text_completion',
  'finish-reason-null': async (c) => (await completion(c, {})).json.choices[0].finish_reason === null,
  'echo-logprobs-misaligned': async (c) => {
    const choice = (await completion(c, { prompt: 'alpha beta', echo: true, logprobs: 1, max_tokens: 3 })).json.choices[0];
    const lp = choice.logprobs as { tokens: string[]; text_offset: number[] };
    return lp.tokens.some((t, i) => choice.text.slice(lp.text_offset[i], lp.text_offset[i]! + t.length) !== t);
  },
  'text-offset-off-by-one': async (c) => (await completion(c, { prompt: 'alpha', logprobs: 1, max_tokens: 2 })).json.choices[0].logprobs.text_offset[0] !== 'alpha'.length,
  'logprobs-never-computed': async (c) => (await completion(c, { prompt: 'alpha', logprobs: 1, max_tokens: 2 })).json.choices[0].logprobs.token_logprobs.every((v: unknown) => v === null),
  'token-prompt-rejected': async (c) => !(await ok(completion(c, { prompt: [1, 2, 3] }))),
  'prompt-array-first-only': async (c) => (await completion(c, { prompt: ['a', 'b'] })).json.choices.length !== 2,
  'stream-chunk-after-done': async (c) => !(await completion(c, { stream: true })).text.trimEnd().endsWith('data: [DONE]'),
  'stream-single-chunk': async (c) => sseData((await completion(c, { prompt: 'a b c', max_tokens: 4, stream: true })).text).length <= 2,
  'stream-n-ignored': async (c) => !sseData((await completion(c, { n: 2, stream: true })).text).some((e) => typeof e === 'object' && (e as { choices: { index: number }[] }).choices[0]!.index === 1),
  'chat-n-ignored': async (c) => (await chat(c, { n: 2 })).json.choices.length !== 2,
  'chat-index-all-zero': async (c) => (await chat(c, { n: 2 })).json.choices[1].index !== 1,
  'chat-max-tokens-ignored': async (c) => (await chat(c, { max_tokens: 1 })).json.usage.completion_tokens > 1,
  'chat-usage-total-not-sum': async (c) => {
    const u = (await chat(c, {})).json.usage;
    return u.total_tokens !== u.prompt_tokens + u.completion_tokens;
  },
  'chat-temperature-2.5-accepted': (c) => ok(chat(c, { temperature: 2.5 })),
  'chat-finish-reason-null': async (c) => (await chat(c, {})).json.choices[0].finish_reason === null,
  'edit-n-ignored': async (c) => (await c.post('/v1/edits', { model: 'text-davinci-edit-001', instruction: 'x', n: 2 })).json.choices.length !== 2,
  'edit-input-required': async (c) => !(await ok(c.post('/v1/edits', { model: 'text-davinci-edit-001', instruction: 'x' }))),
  'edit-usage-total-not-sum': async (c) => {
    const u = (await c.post('/v1/edits', { model: 'text-davinci-edit-001', instruction: 'x', input: 'y' })).json.usage;
    return u.total_tokens !== u.prompt_tokens + u.completion_tokens;
  },
  'edit-temperature-2.5-accepted': (c) => ok(c.post('/v1/edits', { model: 'text-davinci-edit-001', instruction: 'x', temperature: 2.5 })),
  'image-url-404': async (c) => (await fetch((await c.post('/v1/images/generations', { prompt: 'x', size: '256x256' })).json.data[0].url)).status !== 200,
  'image-b64-not-png': async (c) => {
    const b64 = (await c.post('/v1/images/generations', { prompt: 'x', size: '256x256', response_format: 'b64_json' })).json.data[0].b64_json;
    try { readPngInfo(Buffer.from(b64, 'base64')); return false; } catch { return true; }
  },
  'image-b64-size-ignored': async (c) => {
    const b64 = (await c.post('/v1/images/generations', { prompt: 'x', size: '512x512', response_format: 'b64_json' })).json.data[0].b64_json;
    return readPngInfo(Buffer.from(b64, 'base64')).width !== 512;
  },
  'image-edit-accepts-jpeg': (c) =>
    ok(c.call('POST', '/v1/images/variations', { form: form({ size: '256x256' }, { image: { data: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), filename: 'a.png' } }) })),
  // A valid PNG over 4 MB (incompressible noise), so only the size rule is broken.
  'image-edit-size-unchecked': (c) =>
    ok(c.call('POST', '/v1/images/variations', { form: form({ size: '256x256' }, { image: { data: BIG_PNG(), filename: 'a.png' } }) })),
  'image-mask-size-unchecked': (c) =>
    ok(c.call('POST', '/v1/images/edits', { form: form({ prompt: 'x', size: '256x256' }, { image: { data: makePng({ width: 1200, height: 1200, alpha: 'transparent-region' }), filename: 'a.png' }, mask: { data: BIG_PNG(), filename: 'm.png' } }) })),
  'image-mask-dimension-mismatch-accepted': (c) =>
    ok(c.call('POST', '/v1/images/edits', { form: form({ prompt: 'x', size: '256x256' }, { image: { data: makePng({ width: 16, height: 16 }), filename: 'a.png' }, mask: { data: makePng({ width: 32, height: 32 }), filename: 'm.png' } }) })),
  'image-variation-n-ignored': async (c) =>
    (await c.call('POST', '/v1/images/variations', { form: form({ size: '256x256', n: '2' }, { image: { data: makePng({ width: 16, height: 16 }), filename: 'a.png' } }) })).json.data.length !== 2,
  'image-edit-prompt-optional': (c) =>
    ok(c.call('POST', '/v1/images/edits', { form: form({ size: '256x256' }, { image: { data: makePng({ width: 16, height: 16 }), filename: 'a.png' }, mask: { data: makePng({ width: 16, height: 16 }), filename: 'm.png' } }) })),
  'image-edit-format-ignored': async (c) =>
    !('b64_json' in (await c.call('POST', '/v1/images/variations', { form: form({ size: '256x256', response_format: 'b64_json' }, { image: { data: makePng({ width: 16, height: 16 }), filename: 'a.png' } }) })).json.data[0]),
  'embeddings-usage-total-differs': async (c) => {
    const u = (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'x y' })).json.usage;
    return u.total_tokens !== u.prompt_tokens;
  },
  'embeddings-item-object-wrong': async (c) => (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'x' })).json.data[0].object !== 'embedding',
  'embeddings-token-array-rejected': async (c) => !(await ok(c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: [1, 2, 3] }))),
  'embeddings-array-first-only': async (c) => (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: ['a', 'b'] })).json.data.length !== 2,
  'embeddings-model-missing': async (c) => !('model' in (await c.post('/v1/embeddings', { model: 'text-embedding-ada-002', input: 'x' })).json),
  'audio-text-format-json': async (c) => (await audio(c, { response_format: 'text' })).json !== undefined,
  'srt-json-content-type': async (c) => !(await audio(c, { response_format: 'srt' })).headers.get('content-type')!.startsWith('text/plain'),
  'vtt-returns-srt': async (c) => !(await audio(c, { response_format: 'vtt' })).text.startsWith('WEBVTT'),
  'verbose-json-missing-language': async (c) => !('language' in (await audio(c, { response_format: 'verbose_json' })).json),
  'verbose-json-missing-duration': async (c) => !('duration' in (await audio(c, { response_format: 'verbose_json' })).json),
  'verbose-json-text-not-segments': async (c) => {
    const v = (await audio(c, { response_format: 'verbose_json' })).json as { text: string; segments: Array<{ text: string }> };
    return v.text.trim() !== v.segments.map((s) => s.text.trim()).join(' ');
  },
  'verbose-json-segment-times-reversed': async (c) => ((await audio(c, { response_format: 'verbose_json' })).json as { segments: Array<{ start: number; end: number }> }).segments.some((s) => s.end < s.start),
  'audio-language-invalid-accepted': (c) => ok(audio(c, { language: 'english' })),
  'audio-default-format-text': async (c) => (await audio(c, {})).json === undefined,
  'audio-prompt-rejected': async (c) => !(await ok(audio(c, { prompt: 'a hint' }))),
  'file-bytes-counts-characters': async (c) => (await uploadJsonl(c, 'héllo wörld', 'search')).json.bytes !== Buffer.byteLength('héllo wörld'),
  'file-filename-not-echoed': async (c) => (await uploadJsonl(c, 'x', 'search')).json.filename === 'file',
  'file-purpose-not-echoed': async (c) => (await uploadJsonl(c, 'x', 'search')).json.purpose !== 'search',
  'file-delete-content-still-served': async (c) => {
    const id = (await uploadJsonl(c, 'a', 'search')).json.id;
    await c.call('DELETE', `/v1/files/${id}`);
    return ok(c.get(`/v1/files/${id}/content`));
  },
  'file-delete-still-listed': async (c) => {
    const id = (await uploadJsonl(c, 'a', 'search')).json.id;
    await c.call('DELETE', `/v1/files/${id}`);
    return (await c.get('/v1/files')).json.data.some((f: { id: string }) => f.id === id);
  },
  'file-retrieve-other-org': async (c, s) => ok(c.get(`/v1/files/${(await uploadJsonl(c, 'x', 'search', { org: s.credentials.otherOrganization })).json.id}`)),
  'file-content-other-org': async (c, s) => ok(c.get(`/v1/files/${(await uploadJsonl(c, 'x', 'search', { org: s.credentials.otherOrganization })).json.id}/content`)),
  'file-delete-other-org': async (c, s) => ok(c.call('DELETE', `/v1/files/${(await uploadJsonl(c, 'x', 'search', { org: s.credentials.otherOrganization })).json.id}`)),
  'jsonl-invalid-json-accepted': (c) => ok(uploadJsonl(c, '{"prompt":"a","completion":"b"}\nnot json\n')),
  'file-created-at-ms': async (c) => (await uploadJsonl(c, 'x', 'search')).json.created_at > 1e11,
  'fine-tune-hyperparams-not-echoed': async (c) => (await createJob(c, { n_epochs: 2 })).hyperparams.n_epochs !== 2,
  'fine-tune-suffix-ignored': async (c) => !(await succeeded(c, { suffix: 'mysuffix' })).fine_tuned_model.includes('mysuffix'),
  'fine-tune-model-not-echoed': async (c) => (await createJob(c, { model: 'ada' })).model !== 'ada',
  'fine-tune-training-files-empty': async (c) => (await createJob(c)).training_files.length !== 1,
  'fine-tune-validation-files-empty': async (c) => {
    const validation = (await uploadJsonl(c, VALIDATION_JSONL)).json.id;
    return (await createJob(c, { validation_file: validation })).validation_files.length !== 1;
  },
  'fine-tune-result-files-empty': async (c) => (await succeeded(c)).result_files.length !== 1,
  'fine-tune-result-file-purpose-wrong': async (c) => (await succeeded(c)).result_files[0].purpose !== 'fine-tune-results',
  'fine-tune-events-of-other-job': async (c) => {
    await createJob(c);
    const { id } = await createJob(c);
    return !(await c.get(`/v1/fine-tunes/${id}/events`)).json.data[0].message.includes(id);
  },
  'fine-tune-retrieve-other-org': async (c, s) => {
    const file = (await uploadJsonl(c, TRAINING_JSONL, 'fine-tune', { org: s.credentials.otherOrganization })).json.id;
    const { id } = (await c.post('/v1/fine-tunes', { training_file: file, model: 'ada' }, { org: s.credentials.otherOrganization })).json;
    return ok(c.get(`/v1/fine-tunes/${id}`));
  },
  'fine-tune-list-other-org': async (c, s) => {
    const file = (await uploadJsonl(c, TRAINING_JSONL, 'fine-tune', { org: s.credentials.otherOrganization })).json.id;
    const { id } = (await c.post('/v1/fine-tunes', { training_file: file, model: 'ada' }, { org: s.credentials.otherOrganization })).json;
    return (await c.get('/v1/fine-tunes')).json.data.some((j: { id: string }) => j.id === id);
  },
  'default-batch-size-512-unreported': async (c) => {
    const job = await succeeded(c);
    const csv = (await c.get(`/v1/files/${job.result_files[0].id}/content`)).text;
    const [header, first] = csv.trim().split('\n');
    return job.hyperparams.batch_size === null && first!.split(',')[header!.split(',').indexOf('elapsed_examples')] === '512';
  },
  'fine-tune-cancel-missing': async (c) => {
    const { id } = await createJob(c);
    const statuses = await Promise.all(['POST', 'PUT', 'PATCH', 'DELETE', 'GET'].map(async (m) => (await c.call(m, `/v1/fine-tunes/${id}/cancel`)).status));
    return statuses.every((s) => s === 404);
  },
  'cancel-sets-fine-tuned-model': async (c) => (await c.post(`/v1/fine-tunes/${(await createJob(c)).id}/cancel`, {})).json.fine_tuned_model !== null,
  'fine-tune-wrong-purpose-file-accepted': async (c) => ok(c.post('/v1/fine-tunes', { training_file: (await uploadJsonl(c, TRAINING_JSONL, 'search')).json.id })),
  'fine-tune-unknown-file-accepted': (c) => ok(c.post('/v1/fine-tunes', { training_file: 'file-doesnotexist' })),
  'moderation-scores-missing-key': async (c) => !('self-harm' in (await c.post('/v1/moderations', { input: 'x' })).json.results[0].category_scores),
  'moderation-id-missing': async (c) => !('id' in (await c.post('/v1/moderations', { input: 'x' })).json),
  'moderation-category-underscore': async (c) => !('self-harm' in (await c.post('/v1/moderations', { input: 'x' })).json.results[0].categories),
  'moderation-flagged-always-true': async (c) => (await c.post('/v1/moderations', { input: 'a friendly hello' })).json.results[0].flagged === true,
  'moderation-scores-as-strings': async (c) => Object.values((await c.post('/v1/moderations', { input: 'x' })).json.results[0].category_scores).some((v) => typeof v !== 'number'),
  'manifest-schema-version-v2': async (c, s) => (await manifest(c, s)).schema_version !== 'v1',
  'manifest-contact-email-missing': async (c, s) => !('contact_email' in (await manifest(c, s))),
  'manifest-name-for-human-51': async (c, s) => (await manifest(c, s)).name_for_human.length > 50,
  'openapi-url-404': async (c, s) => (await fetch((await manifest(c, s)).api.url)).status !== 200,
  'openapi-description-201': async (_c, s) => {
    const doc = YAML.parse(await (await fetch(`${s.pluginUrl}/openapi.yaml`)).text());
    return Object.values(doc.paths as Record<string, Record<string, { description?: string }>>).some((ops) => Object.values(ops).some((op) => (op.description ?? '').length > 200));
  },
  'plugin-response-missing-field': async (_c, s) => !('title' in ((await (await fetch(`${s.pluginUrl}/todos/1`)).json()) as object)),
  'plugin-response-id-as-string': async (_c, s) => typeof ((await (await fetch(`${s.pluginUrl}/todos/1`)).json()) as { id: unknown }).id === 'string',
  'plugin-response-oversized': async (_c, s) => (await (await fetch(`${s.pluginUrl}/todos`)).text()).length > 100_000,
  'plugin-auth-none-demands-key': async (c, s) => (await manifest(c, s)).auth.type === 'none' && (await fetch(`${s.pluginUrl}/todos`)).status === 401,
  'openapi-response-schema-missing': async (_c, s) => {
    const doc = YAML.parse(await (await fetch(`${s.pluginUrl}/openapi.yaml`)).text());
    return doc.paths['/todos/{id}'].get.responses['200'].content['application/json'].schema === undefined;
  },
};

describe('fault table', () => {
  it('has at least 45 kebab-case faults covering every area, each with a probe', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const f of FAULTS) expect(f.name).toMatch(/^[a-z0-9]+(?:[-.][a-z0-9]+)*$/);
    const areas = new Set(FAULTS.map((f) => f.area));
    for (const a of ['auth', 'models', 'engines', 'completions', 'streaming', 'chat', 'edits', 'images', 'embeddings', 'audio', 'files', 'fine-tunes', 'moderations', 'plugins']) {
      expect(areas.has(a as never), a).toBe(true);
    }
    expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });
  it('rejects unknown fault names with a did-you-mean and where the list is, not the whole list', async () => {
    await expect(startReferenceServer({ faults: ['stop-allow-5'] })).rejects.toThrow(/unknown fault "stop-allow-5" — did you mean "stop-allows-5"\? \(conformance serve --list-faults lists the \d+ faults, one per line\)$/);
    await expect(startReferenceServer({ faults: ['no-such-thing-at-all'] })).rejects.toThrow(/^unknown fault "no-such-thing-at-all" \(conformance serve --list-faults/);
  });
});

describe('conformant server shows none of the violations', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer(OPTIONS);
  });
  afterAll(() => server.close());
  it.each(FAULTS.map((f) => f.name))('%s: not observable without the fault', async (name) => {
    expect(await PROBES[name](new Client(server), server)).toBe(false);
  });
});

describe('each fault is accepted and observable', () => {
  it.each(FAULTS.map((f) => f.name))('%s', async (name) => {
    const server = await startReferenceServer({ ...OPTIONS, faults: [name] });
    try {
      expect(server.faults).toEqual([name]);
      expect(await PROBES[name](new Client(server), server)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('README', () => {
  it('lists every fault', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../src/reference/README.md', import.meta.url), 'utf8');
    for (const f of FAULTS) expect(readme, f.name).toContain(`| \`${f.name}\` | ${f.area} |`);
  });
});
