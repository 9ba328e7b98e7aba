/**
 * Validates the real recorded service responses in ../shared/real-responses (read at test time,
 * never copied into the repo) against the resource schemas.
 *
 * Every recording is mapped (endpoint + status + content type + request parameters) to the schema
 * that applies. All must pass, except the entries of SKIPS below: recordings whose request uses
 * parameters the spec does not define, later model/API versions, endpoints outside the spec,
 * documentation examples that are not real bodies, and recordings that contradict the spec (the
 * contradiction is named and checked: the recording must fail exactly there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SchemaRegistry } from '../src/schema/registry.ts';
import type { SchemaIssue } from '../src/schema/registry.ts';
import { sharedPresent } from './shared.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = path.resolve(repoRoot, '../shared/real-responses');
const R = (name: string) => `resources/${name}.schema.json`;

// ---------------------------------------------------------------------------------------------
// Skip table

type SkipKind =
  | 'param-outside-spec' // request used a parameter the spec does not define
  | 'later-version' // a later model / API version than the spec describes
  | 'endpoint-outside-spec' // the endpoint is not part of the spec
  | 'not-a-body' // documentation example with placeholders, not a real body
  | 'contradicts-spec'; // the response contradicts a rule the spec states

interface Skip {
  file: string;
  kind: SkipKind;
  reason: string;
  /** param-outside-spec: the request parameter the spec does not define (checked to be present). */
  param?: string;
  /**
   * later-version / contradicts-spec: the failures, as "<keyword> <pointer>" (`*` = one pointer
   * segment). Checked both ways: each entry fails, and nothing else fails.
   */
  failsAt?: string[];
}

const NO_IS_USER_AUTH = 'api.is_user_authenticated missing (spec: api is {type, url, is_user_authenticated: boolean})';
const HAS_USER_AUTH = `early manifest uses api.has_user_authentication instead of is_user_authenticated; ${NO_IS_USER_AUTH}`;
const STORE_COPY = `plugin-store copy, not the served manifest: the store kept only api.type/api.url; ${NO_IS_USER_AUTH}`;
const LEGAL_NOT_URL = 'legal_info_url "hello@legal.com" is not a URL (spec: URL users are sent to for legal information)';

export const SKIPS: Skip[] = [
  // --- request parameters the spec does not define
  ...['001-single-string', '002-string-array', '003-token-array', '004-array-of-token-arrays', '005-autogpt-array'].map(
    (n): Skip => ({
      file: `embeddings/${n}.json`,
      kind: 'param-outside-spec',
      param: 'encoding_format',
      reason: 'request sent encoding_format=base64 (not a spec parameter), so embedding is a base64 string instead of an array of floats',
    }),
  ),
  {
    file: 'chat/004-function-call.json',
    kind: 'param-outside-spec',
    param: 'functions',
    reason: 'request uses functions/function_call (not spec parameters); message.content is null (spec: content string) and finish_reason is function_call',
  },
  {
    file: 'chat/014-stream-function-call.json',
    kind: 'param-outside-spec',
    param: 'functions',
    reason: 'request uses functions (not a spec parameter); first delta has content null and function_call',
  },
  // --- later versions
  {
    file: 'models/002-list-nov2023.json',
    kind: 'later-version',
    reason: 'Nov 2023 model objects dropped permission (spec Model: permission array)',
    failsAt: ['required /data/*'],
  },
  {
    file: 'models/005-retrieve-nov2023.json',
    kind: 'later-version',
    reason: 'Nov 2023 model object dropped permission (spec Model: permission array)',
    failsAt: ['required /'],
  },
  // --- endpoints outside the spec
  ...[
    ['completions/013-legacy-engines-path.json', 'POST /v1/engines/{engine_id}/completions'],
    ['embeddings/006-legacy-engines-path.json', 'POST /v1/engines/{engine_id}/embeddings'],
    ['fine-tuning-jobs/001-retrieve.json', 'GET /v1/fine_tuning/jobs/{id} (newer fine-tuning API)'],
    ['fine-tuning-jobs/002-events.json', 'GET /v1/fine_tuning/jobs/{id}/events (newer fine-tuning API)'],
    ['fine-tuning-jobs/003-list.json', 'GET /v1/fine_tuning/jobs (newer fine-tuning API)'],
    ['errors/016-307-redirect-trailing-slash.json', 'GET /v1/fine_tuning/jobs/ (307 redirect, empty body)'],
    ['legacy-search-answers-classifications/001-answers-dec2022.json', 'POST /v1/answers'],
    ['legacy-search-answers-classifications/002-classifications-examples-sep2022.json', 'POST /v1/classifications'],
    ['legacy-search-answers-classifications/003-classifications-file-sep2022.json', 'POST /v1/classifications'],
    ['legacy-search-answers-classifications/004-engine-search-sep2022.json', 'POST /v1/engines/{engine_id}/search'],
    ['legacy-search-answers-classifications/docs-01-createSearch.json', 'POST /v1/engines/{engine_id}/search'],
    ['legacy-search-answers-classifications/docs-02-createAnswer.json', 'POST /v1/answers'],
    ['legacy-search-answers-classifications/docs-03-createClassification.json', 'POST /v1/classifications'],
  ].map(([file, ep]): Skip => ({ file: file!, kind: 'endpoint-outside-spec', reason: `endpoint outside the spec: ${ep}` })),
  // --- documentation examples that are not real bodies
  {
    file: 'embeddings/docs-01-createEmbedding.json',
    kind: 'not-a-body',
    reason: 'docs example: embedding array contains the placeholder ".... (1536 floats total for ada-002)"',
  },
  {
    file: 'fine-tunes/docs-02-listFineTunes.json',
    kind: 'not-a-body',
    reason: 'docs example: list items and hyperparams are "{ ... }" placeholders',
  },
  {
    file: 'fine-tunes/docs-04-cancelFineTune.json',
    kind: 'not-a-body',
    reason: 'docs example: hyperparams and file entries are "{ ... }" placeholders',
  },
  // --- contradictions of the spec
  {
    file: 'plugins/001-wellknown-slack_com.json',
    kind: 'contradicts-spec',
    reason: `${HAS_USER_AUTH}; contact_email and legal_info_url are "TODO" (spec: contact email, URL)`,
    failsAt: ['required /api', 'format /contact_email', 'format /legal_info_url'],
  },
  ...[
    '002-wellknown-klarna_com',
    '003-wellknown-zapier_com',
    '004-wellknown-pricerunner_se',
    '005-wellknown-server_shop_app',
    '006-wellknown-wolframalpha_com',
    '007-wellknown-wolframcloud_com',
    '029-retrieval-user_http',
  ].map((n): Skip => ({ file: `plugins/${n}.json`, kind: 'contradicts-spec', reason: HAS_USER_AUTH, failsAt: ['required /api'] })),
  ...['031-retrieval-example-oauth', '032-retrieval-example-service_http', '033-retrieval-example-user_http', '034-retrieval-example-memory'].map(
    (n): Skip => ({
      file: `plugins/${n}.json`,
      kind: 'contradicts-spec',
      reason: `${HAS_USER_AUTH}; ${LEGAL_NOT_URL}`,
      failsAt: ['required /api', 'format /legal_info_url'],
    }),
  ),
  ...[
    '008-store-Zapier',
    '010-store-noteable',
    '012-store-Wolfram',
    '014-store-expedia',
    '015-store-kiwicom_assistant_and_flights_search',
    '017-store-wikipedia',
    '019-store-speak',
    '021-store-KAYAK',
    '023-store-Instacart',
    '025-store-canva',
  ].map((n): Skip => ({ file: `plugins/${n}.json`, kind: 'contradicts-spec', reason: STORE_COPY, failsAt: ['required /api'] })),
  {
    file: 'plugins/027-openai-plugins-quickstart-todo.json',
    kind: 'contradicts-spec',
    reason: `official quickstart template: ${NO_IS_USER_AUTH}`,
    failsAt: ['required /api'],
  },
  {
    file: 'plugins/030-retrieval-example-no-auth.json',
    kind: 'contradicts-spec',
    reason: `official template: ${NO_IS_USER_AUTH}; ${LEGAL_NOT_URL}`,
    failsAt: ['required /api', 'format /legal_info_url'],
  },
];

// ---------------------------------------------------------------------------------------------
// Recording -> schema mapping

interface Recording {
  file: string;
  endpoint: string;
  tier: string;
  request: { method: string; path: string; headers: Record<string, unknown>; body: unknown };
  response: { status: number; headers: Record<string, unknown>; body: unknown; body_lenient_parse?: unknown };
}

type Mapping =
  | { kind: 'json'; schema: string }
  | { kind: 'sse'; schema: string }
  | { kind: 'not-schema'; reason: string } // artifacts other checks handle (CSV, OpenAPI, plain text, file content)
  | { kind: 'unmapped'; reason: string };

/** Request fields the spec defines, per endpoint (section "Endpoints"). */
const SPEC_REQUEST_FIELDS: Record<string, string[]> = {
  'POST /v1/completions': ['model', 'prompt', 'suffix', 'max_tokens', 'temperature', 'top_p', 'n', 'stream', 'logprobs', 'echo', 'stop', 'presence_penalty', 'frequency_penalty', 'best_of', 'logit_bias', 'user'],
  'POST /v1/chat/completions': ['model', 'messages', 'temperature', 'top_p', 'n', 'stream', 'stop', 'max_tokens', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'user'],
  'POST /v1/edits': ['model', 'input', 'instruction', 'n', 'temperature', 'top_p'],
  'POST /v1/images/generations': ['prompt', 'n', 'size', 'response_format', 'user'],
  'POST /v1/images/edits': ['image', 'mask', 'prompt', 'n', 'size', 'response_format', 'user'],
  'POST /v1/images/variations': ['image', 'n', 'size', 'response_format', 'user'],
  'POST /v1/embeddings': ['model', 'input', 'user'],
  'POST /v1/audio/transcriptions': ['file', 'model', 'prompt', 'response_format', 'temperature', 'language'],
  'POST /v1/audio/translations': ['file', 'model', 'prompt', 'response_format', 'temperature'],
  'POST /v1/files': ['file', 'purpose'],
  'POST /v1/fine-tunes': ['training_file', 'validation_file', 'model', 'n_epochs', 'batch_size', 'learning_rate_multiplier', 'prompt_loss_weight', 'compute_classification_metrics', 'classification_n_classes', 'classification_positive_class', 'classification_betas', 'suffix'],
  'POST /v1/moderations': ['input', 'model'],
};

function requestFields(rec: Recording): Record<string, unknown> {
  const body = rec.request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const mp = (body as Record<string, unknown>)['multipart_form_data'] as
      | { fields?: Record<string, unknown>; files?: { field: string }[] }
      | undefined;
    if (mp) {
      const out: Record<string, unknown> = { ...(mp.fields ?? {}) };
      for (const f of mp.files ?? []) out[f.field] = '<file>';
      return out;
    }
    return body as Record<string, unknown>;
  }
  return {};
}

function undeclaredParams(rec: Recording): string[] {
  const known = SPEC_REQUEST_FIELDS[rec.endpoint];
  if (!known) return [];
  return Object.keys(requestFields(rec)).filter((k) => !known.includes(k));
}

function contentType(rec: Recording): string {
  const ct = rec.response.headers['content-type'];
  return String(Array.isArray(ct) ? ct[0] : (ct ?? '')).toLowerCase();
}

function mapRecording(rec: Recording): Mapping {
  const { endpoint } = rec;
  const status = rec.response.status;
  const ct = contentType(rec);
  const req = requestFields(rec);
  if (endpoint === 'GET <plugin api.url> (OpenAPI document)') return { kind: 'not-schema', reason: 'plugin OpenAPI document (checked by the OpenAPI checks)' };
  if (endpoint === 'GET /v1/files/{file_id}/content') return { kind: 'not-schema', reason: 'file content (JSONL / results CSV, checked by the file-content checks)' };
  if (status >= 400) return { kind: 'json', schema: R('error') };
  if (status < 200 || status >= 300) return { kind: 'unmapped', reason: `status ${status}` };
  const stream = req['stream'] === true || req['stream'] === 'true' || ct.startsWith('text/event-stream');
  switch (endpoint) {
    case 'GET /.well-known/ai-plugin.json':
      return { kind: 'json', schema: R('plugin-manifest') };
    case 'GET /v1/models':
      return { kind: 'json', schema: R('model-list') };
    case 'GET /v1/models/{model}':
      return { kind: 'json', schema: R('model') };
    case 'DELETE /v1/models/{model}':
      return { kind: 'json', schema: R('model-deleted') };
    case 'GET /v1/engines':
      return { kind: 'json', schema: R('engine-list') };
    case 'GET /v1/engines/{engine_id}':
      return { kind: 'json', schema: R('engine') };
    case 'POST /v1/completions':
      return stream ? { kind: 'sse', schema: R('completion-chunk') } : { kind: 'json', schema: R('completion') };
    case 'POST /v1/chat/completions':
      return stream ? { kind: 'sse', schema: R('chat-completion-chunk') } : { kind: 'json', schema: R('chat-completion') };
    case 'POST /v1/edits':
      return { kind: 'json', schema: R('edit') };
    case 'POST /v1/images/generations':
    case 'POST /v1/images/edits':
    case 'POST /v1/images/variations':
      return { kind: 'json', schema: R('image-result') };
    case 'POST /v1/embeddings':
      return { kind: 'json', schema: R('embedding-result') };
    case 'POST /v1/audio/transcriptions':
    case 'POST /v1/audio/translations': {
      const fmt = String(req['response_format'] ?? 'json');
      if (fmt === 'json') return { kind: 'json', schema: R('transcription-json') };
      if (fmt === 'verbose_json') return { kind: 'json', schema: R('transcription-verbose-json') };
      return { kind: 'not-schema', reason: `response_format=${fmt}: plain-text transcript (no JSON schema)` };
    }
    case 'GET /v1/files':
      return { kind: 'json', schema: R('file-list') };
    case 'POST /v1/files':
    case 'GET /v1/files/{file_id}':
      return { kind: 'json', schema: R('file') };
    case 'DELETE /v1/files/{file_id}':
      return { kind: 'json', schema: R('file-deleted') };
    case 'POST /v1/fine-tunes':
    case 'GET /v1/fine-tunes/{fine_tune_id}':
    case 'POST /v1/fine-tunes/{fine_tune_id}/cancel':
      return { kind: 'json', schema: R('fine-tune-with-events') };
    case 'GET /v1/fine-tunes':
      return { kind: 'json', schema: R('fine-tune-list') };
    case 'GET /v1/fine-tunes/{fine_tune_id}/events':
      return stream ? { kind: 'sse', schema: R('fine-tune-event') } : { kind: 'json', schema: R('fine-tune-event-list') };
    case 'POST /v1/moderations':
      return { kind: 'json', schema: R('moderation') };
    default:
      return { kind: 'unmapped', reason: `endpoint ${endpoint} is not in the spec` };
  }
}

/** The JSON body: parsed JSON, the corpus' lenient parse, or a lenient (YAML flow) parse of docs text. */
function jsonBody(rec: Recording): unknown {
  if (rec.response.body_lenient_parse !== undefined) return rec.response.body_lenient_parse;
  const body = rec.response.body;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return YAML.parse(body) as unknown; // docs examples with trailing commas
  }
}

interface SseParse {
  chunks: unknown[];
  endsWithDone: boolean;
}

function sseChunks(rec: Recording): SseParse {
  const text = String(rec.response.body);
  const data = text
    .split(/\r?\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trim());
  const endsWithDone = data[data.length - 1] === '[DONE]';
  return { chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as unknown), endsWithDone };
}

interface Outcome {
  file: string;
  mapping: Mapping;
  issues: SchemaIssue[];
  instances: number;
  error?: string;
}

function evaluate(registry: SchemaRegistry, rec: Recording): Outcome {
  const mapping = mapRecording(rec);
  const out: Outcome = { file: rec.file, mapping, issues: [], instances: 0 };
  try {
    if (mapping.kind === 'json') {
      out.instances = 1;
      out.issues = registry.validate(mapping.schema, jsonBody(rec));
    } else if (mapping.kind === 'sse') {
      const { chunks } = sseChunks(rec);
      out.instances = chunks.length;
      chunks.forEach((chunk, i) => {
        for (const issue of registry.validate(mapping.schema, chunk)) {
          out.issues.push({ ...issue, pointer: `chunk[${i}]${issue.pointer}`, message: `chunk ${i}: ${issue.message}` });
        }
      });
    }
  } catch (err) {
    out.error = (err as Error).message;
  }
  return out;
}

function failurePattern(f: string): RegExp {
  const escaped = f.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

// ---------------------------------------------------------------------------------------------

function listRecordings(): Recording[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) files.push(p);
    }
  };
  walk(corpusDir);
  return files.sort().map((p) => ({
    ...(JSON.parse(fs.readFileSync(p, 'utf8')) as Omit<Recording, 'file'>),
    file: path.relative(corpusDir, p).split(path.sep).join('/'),
  }));
}

const haveCorpus = sharedPresent('real-responses');

describe.skipIf(!haveCorpus)('real recorded responses vs resource schemas', () => {
  const registry = SchemaRegistry.load();
  const recordings = haveCorpus ? listRecordings() : [];
  const byFile = new Map(recordings.map((r) => [r.file, r]));
  const skipByFile = new Map(SKIPS.map((s) => [s.file, s]));

  it('finds the corpus', () => {
    expect(recordings.length).toBeGreaterThan(150);
  });

  it('prints the skip list with reasons', () => {
    console.log(`\nReal recordings skipped by the schema test (${SKIPS.length}):`);
    console.table(SKIPS.map((s) => ({ file: s.file, kind: s.kind, reason: s.reason })));
    const notSchema = recordings
      .map((r) => ({ file: r.file, m: mapRecording(r) }))
      .filter((x) => x.m.kind === 'not-schema' && !skipByFile.has(x.file))
      .map((x) => ({ file: x.file, reason: (x.m as { reason: string }).reason }));
    console.log(`Recordings that are not JSON resources (left to other checks): ${notSchema.length}`);
    console.table(notSchema);
    expect(new Set(SKIPS.map((s) => s.file)).size).toBe(SKIPS.length);
  });

  for (const rec of recordings) {
    const skip = skipByFile.get(rec.file);
    if (skip) continue;
    const mapping = mapRecording(rec);
    if (mapping.kind === 'not-schema') continue;
    it(`${rec.file} (${rec.endpoint} ${rec.response.status}) matches ${'schema' in mapping ? mapping.schema : '?'}`, () => {
      expect(mapping.kind, `unmapped recording: ${'reason' in mapping ? mapping.reason : ''}`).not.toBe('unmapped');
      const outcome = evaluate(registry, rec);
      expect(outcome.error).toBeUndefined();
      expect(outcome.instances).toBeGreaterThan(0);
      expect(outcome.issues.map((i) => `${i.pointer}: ${i.message}`)).toEqual([]);
      if (mapping.kind === 'sse') {
        // Events 1: the stream ends with `data: [DONE]`.
        expect(sseChunks(rec).endsWithDone).toBe(true);
      }
    });
  }

  describe('skip table has no stale entries', () => {
    for (const skip of SKIPS) {
      it(`${skip.file} [${skip.kind}]`, () => {
        const rec = byFile.get(skip.file);
        expect(rec, `skipped file ${skip.file} does not exist in the corpus`).toBeDefined();
        if (!rec) return;
        const mapping = mapRecording(rec);
        switch (skip.kind) {
          case 'endpoint-outside-spec':
            expect(mapping.kind).toBe('unmapped');
            break;
          case 'param-outside-spec':
            expect(skip.param).toBeDefined();
            expect(undeclaredParams(rec)).toContain(skip.param);
            expect(evaluate(registry, rec).issues.length, 'recording validates; the skip is not needed').toBeGreaterThan(0);
            break;
          case 'not-a-body': {
            expect(rec.tier).toBe('docs-example');
            const outcome = evaluate(registry, rec);
            expect(outcome.error !== undefined || outcome.issues.length > 0).toBe(true);
            break;
          }
          case 'later-version':
          case 'contradicts-spec': {
            expect(mapping.kind).not.toBe('unmapped');
            const outcome = evaluate(registry, rec);
            expect(outcome.error).toBeUndefined();
            expect(outcome.issues.length, 'skipped as contradicting the spec but it validates').toBeGreaterThan(0);
            const patterns = (skip.failsAt ?? []).map((f) => ({ f, re: failurePattern(f) }));
            expect(patterns.length, 'failsAt must name the contradiction').toBeGreaterThan(0);
            const failures = outcome.issues.map((i) => `${i.keyword} ${i.pointer}`);
            for (const { f, re } of patterns) expect(failures.some((x) => re.test(x)), `expected a failure "${f}"`).toBe(true);
            const unexplained = failures.filter((x) => !patterns.some(({ re }) => re.test(x)));
            expect(unexplained, 'failures not named in the skip reason').toEqual([]);
            if (skip.reason.includes('has_user_authentication')) {
              const api = (jsonBody(rec) as { api?: Record<string, unknown> }).api ?? {};
              expect(Object.keys(api)).toContain('has_user_authentication');
              expect(Object.keys(api)).not.toContain('is_user_authenticated');
            }
            break;
          }
        }
      });
    }
  });

  it('every recording is either validated, left to other checks, or in the skip table', () => {
    const unmapped = recordings.filter((r) => mapRecording(r).kind === 'unmapped' && !skipByFile.has(r.file)).map((r) => r.file);
    expect(unmapped).toEqual([]);
  });
});
