import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SchemaRegistry, defaultSchemasDir, jsonType } from '../../src/schema/registry.ts';
import type { SchemaIssue } from '../../src/schema/registry.ts';
import { DEFAULT_PLUGIN_LIMITS, MANIFEST_LENGTH_FIELDS } from '../../src/schema/plugin-limits.ts';

const registry = SchemaRegistry.load();
const R = (name: string) => `resources/${name}.schema.json`;

// ---------------------------------------------------------------------------------------------
// Valid instances

const usage = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 };
const file = { id: 'file-abc', object: 'file', bytes: 140, created_at: 1613779121, filename: 'data.jsonl', purpose: 'fine-tune' };
const event = { object: 'fine-tune-event', created_at: 1614807352, level: 'info', message: 'Job enqueued. Queue number: 0.' };
const fineTune = {
  id: 'ft-abc',
  object: 'fine-tune',
  model: 'curie',
  created_at: 1614807352,
  updated_at: 1614807352,
  events: [event],
  fine_tuned_model: null,
  hyperparams: { batch_size: null, learning_rate_multiplier: null, n_epochs: 4, prompt_loss_weight: 0.01 },
  organization_id: 'org-x',
  result_files: [],
  validation_files: [],
  training_files: [file],
  status: 'pending',
};
const { events: _events, ...fineTuneListItem } = fineTune;
const CATS = ['hate', 'hate/threatening', 'self-harm', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'];
const moderation = {
  id: 'modr-1',
  model: 'text-moderation-004',
  results: [
    {
      categories: Object.fromEntries(CATS.map((c) => [c, false])),
      category_scores: Object.fromEntries(CATS.map((c) => [c, 0.001])),
      flagged: false,
    },
  ],
};
const manifest = {
  schema_version: 'v1',
  name_for_model: 'todo',
  name_for_human: 'TODO List',
  description_for_model: 'Plugin for managing a TODO list.',
  description_for_human: 'Manage your TODO list.',
  auth: { type: 'none' },
  api: { type: 'openapi', url: 'https://example.com/openapi.yaml', is_user_authenticated: false },
  logo_url: 'https://example.com/logo.png',
  contact_email: 'support@example.com',
  legal_info_url: 'https://example.com/legal',
};
const logprobs = {
  text_offset: [0, 3],
  token_logprobs: [null, -0.5],
  tokens: ['Are', ' bananas'],
  top_logprobs: [null, { ' bananas': -0.5, ' apples': 0 }],
};

interface Case {
  schema: string;
  valid: unknown;
  /** a mutation of a valid instance and the expected failing pointer + keyword */
  invalid: unknown;
  pointer: string;
  keyword: string;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}
function withPatch<T extends object>(base: T, patch: (x: T) => void): T {
  const c = clone(base);
  patch(c);
  return c;
}
function without<T extends object>(base: T, key: string): T {
  return withPatch(base, (x) => {
    delete (x as Record<string, unknown>)[key];
  });
}

const model = { id: 'curie', object: 'model', created: 1649359874, owned_by: 'openai', permission: [{ id: 'modelperm-1' }] };
const engine = { id: 'ada', object: 'engine', owner: 'openai', ready: true };
const completion = {
  id: 'cmpl-1',
  object: 'text_completion',
  created: 1589478378,
  model: 'text-davinci-003',
  choices: [{ text: 'This is a test', index: 0, logprobs: null, finish_reason: 'length' }],
  usage,
};
const chat = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1677652288,
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
  usage,
};
const edit = { object: 'edit', created: 1589478378, choices: [{ text: 'What day of the week is it?', index: 0 }], usage };
const image = { created: 1589478378, data: [{ url: 'https://example.com/a.png' }, { b64_json: 'iVBORw0KGgo=' }] };
const embedding = {
  object: 'list',
  data: [{ object: 'embedding', embedding: [0.0023, -0.0093], index: 0 }],
  model: 'text-embedding-ada-002',
  usage: { prompt_tokens: 8, total_tokens: 8 },
};
const completionChunk = {
  id: 'cmpl-1',
  object: 'text_completion',
  created: 1681963052,
  model: 'ada',
  choices: [{ text: ' world', index: 0, logprobs: null, finish_reason: null }],
};
const chatChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1681963053,
  model: 'gpt-3.5-turbo-0301',
  choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }],
};
const error = { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };

const CASES: Case[] = [
  { schema: R('model'), valid: model, invalid: without(model, 'permission'), pointer: '/', keyword: 'required' },
  { schema: R('model-list'), valid: { object: 'list', data: [model] }, invalid: { object: 'list', data: [{ ...model, object: 'engine' }] }, pointer: '/data/0/object', keyword: 'const' },
  { schema: R('engine'), valid: engine, invalid: { ...engine, ready: 'yes' }, pointer: '/ready', keyword: 'type' },
  // created is no Engine field of the spec: null there is a should (RES-TIMESTAMPS-PLAUSIBLE); a string is not a timestamp.
  { schema: R('engine-list'), valid: { object: 'list', data: [engine, { ...engine, created: null }] }, invalid: { object: 'list', data: [{ ...engine, created: '2022-09-01' }] }, pointer: '/data/0/created', keyword: 'type' },
  { schema: R('completion'), valid: completion, invalid: without(completion, 'usage'), pointer: '/', keyword: 'required' },
  {
    schema: R('completion'),
    valid: withPatch(completion, (c) => {
      c.choices[0]!.logprobs = logprobs as never;
    }),
    invalid: withPatch(completion, (c) => {
      c.choices[0]!.logprobs = { ...logprobs, text_offset: [0.5] } as never;
    }),
    pointer: '/choices/0/logprobs/text_offset/0',
    keyword: 'type',
  },
  { schema: R('completion'), valid: completion, invalid: { ...completion, created: 1.5 }, pointer: '/created', keyword: 'type' },
  { schema: R('chat-completion'), valid: chat, invalid: withPatch(chat, (c) => ((c.choices[0]!.message as { content: unknown }).content = null)), pointer: '/choices/0/message/content', keyword: 'type' },
  { schema: R('chat-completion'), valid: { ...chat, model: 'gpt-3.5-turbo-0301' }, invalid: { ...chat, object: 'chat.completion.chunk' }, pointer: '/object', keyword: 'const' },
  { schema: R('edit'), valid: edit, invalid: withPatch(edit, (e) => ((e.choices[0] as { index: unknown }).index = '0')), pointer: '/choices/0/index', keyword: 'type' },
  // An item with both fields still carries a field of the spec's shapes (only-one is RES-IMAGE-ITEM-ONE-FORMAT, a should).
  { schema: R('image-result'), valid: { created: 1, data: [{ url: 'u', b64_json: 'b' }] }, invalid: { created: 1, data: [{ url: 1 }] }, pointer: '/data/0/url', keyword: 'type' },
  { schema: R('image-result'), valid: { created: 1, data: [] }, invalid: { created: 1, data: [{}] }, pointer: '/data/0', keyword: 'anyOf' },
  { schema: R('embedding-result'), valid: embedding, invalid: withPatch(embedding, (e) => ((e.data[0] as { embedding: unknown }).embedding = 'AAAA')), pointer: '/data/0/embedding', keyword: 'type' },
  { schema: R('embedding-result'), valid: embedding, invalid: withPatch(embedding, (e) => ((e.usage as Record<string, unknown>)['prompt_tokens'] = undefined)), pointer: '/usage', keyword: 'required' },
  { schema: R('transcription-json'), valid: { text: 'Hello' }, invalid: { text: 3 }, pointer: '/text', keyword: 'type' },
  {
    schema: R('transcription-verbose-json'),
    valid: { task: 'transcribe', language: 'english', duration: 2.78, segments: [{ id: 0, seek: 0, start: 0, end: 2, text: ' Hi', tokens: [1, 2], transient: false }], text: 'Hi' },
    // The service's other fields are a should (audio_verbose_json_fields), so the schema judges text alone.
    invalid: { text: 2.78, duration: 2.78 },
    pointer: '/text',
    keyword: 'type',
  },
  { schema: R('transcription-verbose-json'), valid: { text: 'only text is required' }, invalid: { language: 'english' }, pointer: '/', keyword: 'required' },
  { schema: R('file'), valid: file, invalid: { ...file, created_at: '1613779121' }, pointer: '/created_at', keyword: 'type' },
  { schema: R('file'), valid: { ...file, purpose: 'some-future-purpose', status: 'processed', status_details: null }, invalid: { ...file, object: 'files' }, pointer: '/object', keyword: 'const' },
  { schema: R('file-list'), valid: { object: 'list', data: [file] }, invalid: { object: 'list', data: [without(file, 'bytes')] }, pointer: '/data/0', keyword: 'required' },
  { schema: R('file-deleted'), valid: { id: 'file-abc', object: 'file', deleted: true }, invalid: { id: 'file-abc', object: 'file', deleted: false }, pointer: '/deleted', keyword: 'const' },
  { schema: R('fine-tune'), valid: fineTune, invalid: { ...fineTune, status: 'queued' }, pointer: '/status', keyword: 'enum' },
  { schema: R('fine-tune'), valid: fineTuneListItem, invalid: withPatch(fineTune, (f) => ((f.hyperparams as Record<string, unknown>)['n_epochs'] = null)), pointer: '/hyperparams/n_epochs', keyword: 'type' },
  { schema: R('fine-tune'), valid: { ...fineTune, status: 'succeeded', fine_tuned_model: 'curie:ft-acmeco-2021-03-03-21-44-20' }, invalid: { ...fineTune, training_files: [{ ...file, bytes: 1.5 }] }, pointer: '/training_files/0/bytes', keyword: 'type' },
  { schema: R('fine-tune-with-events'), valid: fineTune, invalid: fineTuneListItem, pointer: '/', keyword: 'required' },
  { schema: R('fine-tune-list'), valid: { object: 'list', data: [fineTuneListItem] }, invalid: { object: 'list', data: [fineTune] }, pointer: '/data/0', keyword: 'not' },
  { schema: R('fine-tune-event'), valid: event, invalid: { ...event, object: 'event' }, pointer: '/object', keyword: 'const' },
  { schema: R('fine-tune-event-list'), valid: { object: 'list', data: [event] }, invalid: { object: 'list', data: [without(event, 'message')] }, pointer: '/data/0', keyword: 'required' },
  { schema: R('model-deleted'), valid: { id: 'curie:ft-acmeco-2021-03-03-21-44-20', object: 'model', deleted: true }, invalid: { id: 'x', object: 'file', deleted: true }, pointer: '/object', keyword: 'const' },
  // Names beyond the seven are MOD-CATEGORIES-NO-EXTRA (a should), not a schema failure; a missing one is.
  { schema: R('moderation'), valid: withPatch(moderation, (m) => ((m.results[0]!.categories as Record<string, unknown>)['harassment'] = false)), invalid: withPatch(moderation, (m) => delete (m.results[0]!.categories as Record<string, unknown>)['hate']), pointer: '/results/0/categories', keyword: 'required' },
  { schema: R('moderation'), valid: moderation, invalid: withPatch(moderation, (m) => ((m.results[0]!.category_scores as Record<string, unknown>)['hate'] = 1.2)), pointer: '/results/0/category_scores/hate', keyword: 'maximum' },
  { schema: R('moderation'), valid: moderation, invalid: withPatch(moderation, (m) => delete (m.results[0]!.categories as Record<string, unknown>)['self-harm']), pointer: '/results/0/categories', keyword: 'required' },
  { schema: R('completion-chunk'), valid: completionChunk, invalid: { ...completionChunk, object: 'text_completion.chunk' }, pointer: '/object', keyword: 'const' },
  { schema: R('completion-chunk'), valid: withPatch(completionChunk, (c) => (c.choices[0]!.finish_reason = 'stop' as never)), invalid: withPatch(completionChunk, (c) => (c.choices[0]!.finish_reason = 1 as never)), pointer: '/choices/0/finish_reason', keyword: 'type' },
  { schema: R('chat-completion-chunk'), valid: chatChunk, invalid: withPatch(chatChunk, (c) => ((c.choices[0]!.delta as Record<string, unknown>)['content'] = 5)), pointer: '/choices/0/delta/content', keyword: 'type' },
  { schema: R('chat-completion-chunk'), valid: withPatch(chatChunk, (c) => ((c.choices[0]! as Record<string, unknown>)['delta'] = {})), invalid: without(chatChunk, 'choices'), pointer: '/', keyword: 'required' },
  { schema: R('error'), valid: error, invalid: withPatch(error, (e) => ((e.error as Record<string, unknown>)['param'] = 3)), pointer: '/error/param', keyword: 'type' },
  { schema: R('error'), valid: error, invalid: withPatch(error, (e) => delete (e.error as Record<string, unknown>)['code']), pointer: '/error', keyword: 'required' },
  { schema: R('plugin-manifest'), valid: manifest, invalid: { ...manifest, name_for_model: 'x'.repeat(51) }, pointer: '/name_for_model', keyword: 'maxLength' },
  { schema: R('plugin-manifest'), valid: manifest, invalid: { ...manifest, description_for_human: 'd'.repeat(121) }, pointer: '/description_for_human', keyword: 'maxLength' },
  { schema: R('plugin-manifest'), valid: manifest, invalid: { ...manifest, api: { type: 'openapi', url: 'u', has_user_authentication: false } }, pointer: '/api', keyword: 'required' },
  { schema: R('plugin-manifest'), valid: manifest, invalid: { ...manifest, contact_email: 'TODO' }, pointer: '/contact_email', keyword: 'format' },
  { schema: R('plugin-manifest'), valid: manifest, invalid: { ...manifest, legal_info_url: 'hello@legal.com' }, pointer: '/legal_info_url', keyword: 'format' },
  { schema: R('plugin-manifest'), valid: manifest, invalid: { ...manifest, auth: { type: 'api_key' } }, pointer: '/auth/type', keyword: 'enum' },
  {
    schema: R('plugin-manifest'),
    valid: { ...manifest, auth: { type: 'user_http', authorization_type: 'bearer', instructions: '' } },
    invalid: { ...manifest, auth: { type: 'user_http', authorization_type: 'digest' } },
    pointer: '/auth/authorization_type',
    keyword: 'enum',
  },
  {
    schema: R('plugin-manifest'),
    valid: { ...manifest, auth: { type: 'service_http', authorization_type: 'basic', verification_tokens: { openai: 'abc' } } },
    invalid: { ...manifest, auth: { type: 'service_http', authorization_type: 'bearer', verification_tokens: { openai: 1 } } },
    pointer: '/auth/verification_tokens/openai',
    keyword: 'type',
  },
  {
    schema: R('plugin-manifest'),
    valid: {
      ...manifest,
      auth: {
        type: 'oauth',
        client_url: 'https://example.com/authorize',
        scope: 'search:read',
        authorization_url: 'https://example.com/token',
        authorization_content_type: 'application/json',
        verification_tokens: { openai: 'abc' },
      },
    },
    invalid: { ...manifest, auth: { type: 'oauth', client_url: 'https://example.com/authorize', scope: 's', authorization_url: 'https://example.com/token', verification_tokens: {} } },
    pointer: '/auth',
    keyword: 'required',
  },
];

describe('resource schemas: valid instances pass, invalid instances fail at the right pointer', () => {
  it.each(CASES.map((c, i) => [`${i}: ${c.schema} (${c.keyword} at ${c.pointer})`, c] as const))('%s', (_name, c) => {
    expect(registry.validate(c.schema, c.valid)).toEqual([]);
    const issues = registry.validate(c.schema, c.invalid);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.map((i) => `${i.keyword} ${i.pointer}`)).toContain(`${c.keyword} ${c.pointer}`);
  });

  it('covers every resource schema', () => {
    const covered = new Set(CASES.map((c) => c.schema));
    const resources = registry.refs().filter((r) => r.startsWith('resources/'));
    expect(resources.filter((r) => !covered.has(r))).toEqual([]);
  });
});

describe('resource schema files', () => {
  const resources = registry.refs().filter((r) => r.startsWith('resources/'));

  it('includes the expected files', () => {
    for (const n of [
      'model', 'model-list', 'engine', 'engine-list', 'completion', 'chat-completion', 'edit', 'image-result', 'embedding-result',
      'transcription-json', 'transcription-verbose-json', 'file', 'file-list', 'file-deleted', 'fine-tune', 'fine-tune-list',
      'fine-tune-event', 'fine-tune-event-list', 'model-deleted', 'moderation', 'completion-chunk', 'chat-completion-chunk', 'error',
      'plugin-manifest',
    ]) {
      expect(resources).toContain(R(n));
    }
  });

  it.each(resources)('%s: draft-07, $id = path, title, description citing the spec', (ref) => {
    const s = registry.schema(ref)!;
    expect(s['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(s['$id']).toBe(ref);
    expect(typeof s['title']).toBe('string');
    expect(String(s['description'])).toMatch(/service-api-and-plugin-spec\.md.*section/);
  });

  it('sets additionalProperties false nowhere (fields the spec does not list are never a must-failure); timestamps are integers', () => {
    const falsePaths: string[] = [];
    const tsTypes: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      const o = node as Record<string, unknown>;
      if (o['additionalProperties'] === false) falsePaths.push(at);
      const props = o['properties'] as Record<string, Record<string, unknown>> | undefined;
      for (const k of ['created', 'created_at', 'updated_at']) if (props?.[k]) tsTypes.push(String(props[k]['type']));
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    for (const ref of resources) walk(registry.schema(ref), ref);
    expect(falsePaths).toEqual([]);
    expect(tsTypes.length).toBeGreaterThan(10);
    // Engine's created is an extra field (null on 2022 engines of the real service); every listed one is an integer.
    expect(new Set(tsTypes)).toEqual(new Set(['integer', 'integer,null']));
  });

  it('plugin manifest maxLength values equal DEFAULT_PLUGIN_LIMITS', () => {
    const props = registry.schema(R('plugin-manifest'))!['properties'] as Record<string, { maxLength?: number }>;
    for (const f of MANIFEST_LENGTH_FIELDS) expect(props[f]!.maxLength).toBe(DEFAULT_PLUGIN_LIMITS[f]);
    expect(DEFAULT_PLUGIN_LIMITS).toEqual({
      name_for_model: 50,
      name_for_human: 50,
      description_for_model: 8000,
      description_for_human: 120,
      apiResponseChars: 100000,
      openapiSummary: 200,
      openapiDescription: 200,
      openapiParameterDescription: 200,
    });
  });
});

describe('SchemaIssue conversion: readable sentences with expected / actual', () => {
  const find = (issues: SchemaIssue[], keyword: string, pointer: string) => issues.find((i) => i.keyword === keyword && i.pointer === pointer);

  it('required', () => {
    const i = find(registry.validate(R('completion'), without(completion, 'usage')), 'required', '/');
    expect(i).toEqual({ pointer: '/', keyword: 'required', message: 'Missing required property "usage" in the object at /.', expected: 'property usage', actual: 'missing' });
  });

  it('type reports the expected type and the JSON type of the value', () => {
    const i = find(registry.validate(R('fine-tune'), { ...fineTune, fine_tuned_model: 3 }), 'type', '/fine_tuned_model');
    expect(i).toMatchObject({ expected: 'string or null', actual: 'integer', message: 'The value at /fine_tuned_model must be of type string or null, but it is integer.' });
    expect(find(registry.validate(R('completion'), { ...completion, created: 1.5 }), 'type', '/created')).toMatchObject({ expected: 'integer', actual: 'number' });
  });

  it('const and enum report the allowed value(s) and the actual value', () => {
    expect(find(registry.validate(R('file'), { ...file, object: 'files' }), 'const', '/object')).toMatchObject({
      expected: 'file',
      actual: 'files',
      message: 'The value at /object must be "file", but it is "files".',
    });
    expect(find(registry.validate(R('fine-tune'), { ...fineTune, status: 'queued' }), 'enum', '/status')).toMatchObject({
      expected: ['pending', 'running', 'succeeded', 'failed', 'cancelled'],
      actual: 'queued',
    });
  });

  it('maxLength reports "≤ N characters" and the actual length', () => {
    expect(find(registry.validate(R('plugin-manifest'), { ...manifest, name_for_human: 'n'.repeat(57) }), 'maxLength', '/name_for_human')).toEqual({
      pointer: '/name_for_human',
      keyword: 'maxLength',
      message: 'The value at /name_for_human must be at most 50 characters long, but it has 57 characters.',
      expected: '≤ 50 characters',
      actual: 57,
    });
  });

  it('additionalProperties (a user\'s own schema) points at the extra property', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-extra-'));
    const file = path.join(dir, 'scores.schema.json');
    fs.writeFileSync(file, JSON.stringify({ type: 'object', properties: { scores: { type: 'object', properties: { hate: { type: 'number' } }, additionalProperties: false } } }));
    const own = SchemaRegistry.load();
    const ref = own.addFile(file);
    const i = find(own.validate(ref, { scores: { hate: 0.1, 'self-harm/intent': 0.1 } }), 'additionalProperties', '/scores/self-harm~1intent');
    expect(i?.actual).toBe('self-harm/intent');
    expect(i?.message).toMatch(/^Property "self-harm\/intent" is not allowed in the object at \/scores; allowed properties: hate/);
  });

  it('anyOf noise is folded into one issue per item', () => {
    const none = registry.validate(R('image-result'), { created: 1, data: [{}] });
    expect(none).toHaveLength(1);
    expect(none[0]!.actual).toBe('matches none');
    expect(none[0]!.message).toContain('Missing required property "url"');
    expect(none[0]!.message).toContain('Missing required property "b64_json"');
  });

  it('if/then auth variants report only the concrete failures', () => {
    const issues = registry.validate(R('plugin-manifest'), { ...manifest, auth: { type: 'service_http', authorization_type: 'bearer' } });
    expect(issues).toEqual([
      {
        pointer: '/auth',
        keyword: 'required',
        message: 'Missing required property "verification_tokens" in the object at /auth.',
        expected: 'property verification_tokens',
        actual: 'missing',
      },
    ]);
  });

  it('format', () => {
    expect(find(registry.validate(R('plugin-manifest'), { ...manifest, contact_email: 'TODO' }), 'format', '/contact_email')).toMatchObject({
      expected: 'format email',
      actual: 'TODO',
      message: 'The value at /contact_email must be a valid email (format "email"), but it is "TODO".',
    });
  });

  it('every message is a sentence naming the pointer', () => {
    const all = CASES.flatMap((c) => registry.validate(c.schema, c.invalid));
    for (const i of all) {
      expect(i.message).toMatch(/\.$/);
      expect(i.message.includes(i.pointer) || i.keyword === 'additionalProperties').toBe(true);
    }
  });

  it('jsonType', () => {
    expect([null, [], 1, 1.5, 's', {}, true].map(jsonType)).toEqual(['null', 'array', 'integer', 'number', 'string', 'object', 'boolean']);
  });
});

describe('SchemaRegistry', () => {
  it('defaults to <repo>/schemas and loads every *.schema.json recursively', () => {
    expect(defaultSchemasDir).toBe(path.resolve(import.meta.dirname, '../../schemas'));
    expect(registry.dir).toBe(defaultSchemasDir);
    expect(registry.has(R('file'))).toBe(true);
    expect(registry.has('resources/nope.schema.json')).toBe(false);
  });

  it('throws on an unknown ref, listing the known refs', () => {
    expect(() => registry.validate('resources/nope.schema.json', {})).toThrow(/Unknown schema ref "resources\/nope\.schema\.json"\. Known refs: .*resources\/file\.schema\.json/);
  });

  it('compiles lazily and once', () => {
    const r = SchemaRegistry.load();
    expect(r.compiledRefs()).toEqual([]);
    r.validate(R('file-list'), { object: 'list', data: [] });
    expect(r.compiledRefs()).toEqual([R('file-list')]);
    const fn1 = (r as unknown as { compiled: Map<string, unknown> }).compiled.get(R('file-list'));
    r.validate(R('file-list'), { object: 'list', data: [file] });
    r.validate(R('file-list'), {});
    const fn2 = (r as unknown as { compiled: Map<string, unknown> }).compiled.get(R('file-list'));
    expect(fn2).toBe(fn1);
    expect(r.compiledRefs()).toEqual([R('file-list')]);
  });

  it('loads nested dirs, resolves relative refs, tolerates broken files until used', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
    try {
      fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'top.schema.json'), JSON.stringify({ $id: 'top.schema.json', type: 'object', properties: { x: { $ref: 'a/b/leaf.schema.json' } } }));
      fs.writeFileSync(path.join(dir, 'a', 'b', 'leaf.schema.json'), JSON.stringify({ $id: 'a/b/leaf.schema.json', type: 'integer' }));
      fs.writeFileSync(path.join(dir, 'a', 'no-id.schema.json'), JSON.stringify({ type: 'string' }));
      fs.writeFileSync(path.join(dir, 'a', 'broken.schema.json'), '{ nope');
      fs.writeFileSync(path.join(dir, 'a', 'ignored.json'), '{}');
      const r = SchemaRegistry.load(dir);
      expect(r.refs()).toEqual(['a/b/leaf.schema.json', 'a/broken.schema.json', 'a/no-id.schema.json', 'top.schema.json']);
      expect(r.validate('top.schema.json', { x: 1 })).toEqual([]);
      expect(r.validate('top.schema.json', { x: 'one' })[0]).toMatchObject({ pointer: '/x', keyword: 'type' });
      expect(r.validate('a/no-id.schema.json', 3)[0]).toMatchObject({ pointer: '/', expected: 'string', actual: 'integer' });
      expect(() => r.validate('a/broken.schema.json', {})).toThrow(/could not be loaded: invalid JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hands Ajv only the schemas a validation needs, following references by path and by declared $id', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
    try {
      fs.mkdirSync(path.join(dir, 'deep'));
      fs.writeFileSync(path.join(dir, 'a.schema.json'), JSON.stringify({ $id: 'a.schema.json', type: 'object', properties: { b: { $ref: 'deep/b.schema.json' } } }));
      fs.writeFileSync(path.join(dir, 'deep', 'b.schema.json'), JSON.stringify({ $id: 'deep/b.schema.json', type: 'object', properties: { c: { $ref: 'https://schemas.test/c.json' } } }));
      fs.writeFileSync(path.join(dir, 'c.schema.json'), JSON.stringify({ $id: 'https://schemas.test/c.json', type: 'integer', minimum: 1 }));
      fs.writeFileSync(path.join(dir, 'unused-and-invalid.schema.json'), JSON.stringify({ type: 'nope' }));
      fs.writeFileSync(path.join(dir, 'to-invalid.schema.json'), JSON.stringify({ properties: { x: { $ref: 'unused-and-invalid.schema.json' } } }));
      fs.writeFileSync(path.join(dir, 'dangling.schema.json'), JSON.stringify({ properties: { x: { $ref: 'nowhere.schema.json' } } }));
      const r = SchemaRegistry.load(dir);
      // Three levels of references, the last by an absolute $id: each one added when the compile asks for it.
      expect(r.validate('a.schema.json', { b: { c: 2 } })).toEqual([]);
      expect(r.validate('a.schema.json', { b: { c: 0 } })[0]).toMatchObject({ pointer: '/b/c', keyword: 'minimum' });
      const added = (r as unknown as { added: Set<string> }).added;
      expect([...added].sort()).toEqual(['a.schema.json', 'c.schema.json', 'deep/b.schema.json']);
      // An invalid schema is an error of the schema that refers to it, as when every schema was added up front.
      expect(() => r.validate('to-invalid.schema.json', { x: 1 })).toThrow(/to-invalid\.schema\.json .*failed to compile/);
      expect(() => r.validate('dangling.schema.json', { x: 1 })).toThrow(/failed to compile: can't resolve reference nowhere\.schema\.json/);
      // A user's own schema file (registered by absolute path) refers to its neighbour the same way.
      const own = fs.mkdtempSync(path.join(os.tmpdir(), 'own-'));
      try {
        fs.writeFileSync(path.join(own, 'top.json'), JSON.stringify({ type: 'object', properties: { n: { $ref: 'part.json' } } }));
        fs.writeFileSync(path.join(own, 'part.json'), JSON.stringify({ type: 'string' }));
        const top = r.addFile(path.join(own, 'top.json'));
        r.addFile(path.join(own, 'part.json'));
        expect(r.validate(top, { n: 'x' })).toEqual([]);
        expect(r.validate(top, { n: 1 })[0]).toMatchObject({ pointer: '/n', keyword: 'type' });
      } finally {
        fs.rmSync(own, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks every schema against draft-07 (the generated meta-validator), and names another draft it does not know', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
    try {
      fs.writeFileSync(path.join(dir, 'typo.schema.json'), JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } }));
      fs.writeFileSync(path.join(dir, 'later-draft.schema.json'), JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' }));
      fs.writeFileSync(path.join(dir, 'good.schema.json'), JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' }));
      const r = SchemaRegistry.load(dir);
      expect(() => r.validate('typo.schema.json', {})).toThrow(/is not a valid JSON Schema: schema is invalid: .*minimum must be number/);
      expect(() => r.validate('later-draft.schema.json', 'x')).toThrow(/is not a valid JSON Schema: .*draft\/2020-12/);
      expect(r.validate('good.schema.json', 'x')).toEqual([]);
      // A user's schema file added later is checked the same way.
      const own = path.join(dir, 'own.json');
      fs.writeFileSync(own, JSON.stringify({ type: 'strin' }));
      expect(() => r.validate(r.addFile(own), 'x')).toThrow(/is not a valid JSON Schema/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every shipped schema is a valid draft-07 schema', () => {
    for (const ref of registry.refs()) expect(() => registry.validate(ref, null), ref).not.toThrow(/not a valid JSON Schema|could not be loaded/);
  });

  it('plugin length limits can be overridden', () => {
    const r = SchemaRegistry.load(undefined, { pluginLimits: { description_for_model: 100, name_for_model: 10 } });
    const long = { ...manifest, description_for_model: 'd'.repeat(101) };
    expect(r.validate(R('plugin-manifest'), long)[0]).toMatchObject({ pointer: '/description_for_model', expected: '≤ 100 characters', actual: 101 });
    expect(r.validate(R('plugin-manifest'), { ...manifest, name_for_model: 'n'.repeat(11) })[0]).toMatchObject({ expected: '≤ 10 characters' });
    expect(registry.validate(R('plugin-manifest'), long)).toEqual([]);
  });
});
