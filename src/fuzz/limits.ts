// Every parameter limit of the spec, declared once as data: the Limits table and every Rules column of the
// endpoint tables. Each entry names the endpoint, the parameter path, the rule in the spec's words, the
// catalogue IDs it exercises (accept side and reject side) and the value domain the fuzzer draws from.
// Properties (src/fuzz/properties.ts) are derived from this table; nothing else restates a limit.
//
// Parameter paths: `json:/a/b` (JSON body, RFC 6901 pointer), `form:name` (multipart field),
// `file:name` (multipart file), `relation:<name>` (several parameters that constrain one another).
// Only limits the spec states are fuzzed on the reject side; conventions (e.g. top_p in 0..1, which
// the spec calls only "nucleus sampling") are fuzzed on the accept side only, citing the accept ID.

import type { Area, RequestSpec } from '../suite/types.ts';
import { DEFAULT_PLUGIN_LIMITS } from '../schema/plugin-limits.ts';

export type EndpointId =
  | 'completions' | 'chat' | 'edits'
  | 'images.generations' | 'images.edits' | 'images.variations'
  | 'embeddings' | 'audio.transcriptions' | 'audio.translations'
  | 'files' | 'fine-tunes' | 'moderations';

/** What an endpoint's accepted responses must satisfy, and how the fuzzer builds and cleans up its requests. */
export interface EndpointSpec {
  id: EndpointId;
  area: Area;
  /** The request every case starts from; `{{models.*}}` are the profile's model roles, `{{fuzz.*}}` are set up by the suite. */
  base: RequestSpec;
  /** Resource schema of a 2xx body (by response_format where that changes the body). */
  schema: string | { byField: string; default: string; values: Record<string, string | null> } | null;
  /** Registered checks whose requirements all start with one of these prefixes are the endpoint's invariants. */
  requirementPrefixes: readonly string[];
  /** Accepted responses carry one item per requested `n` at this pointer. */
  count?: { pointer: string; field: string; requirement: string };
  /** Accepted requests create something the fuzzer removes again. */
  creates?: 'file' | 'fine-tune';
  /** Set-up the suite performs before the first case (uploaded training files). */
  needs?: 'training-files';
}

export type Domain =
  /** A real number in [min, max] (either bound optional); `step` is the decimal one-step-past used as a boundary case. */
  | { kind: 'number'; min?: number; max?: number; step: number; span: number; acceptOnly?: boolean }
  /** An integer in [min, max]; accepted cases are drawn from [acceptMin, acceptMax] when the spec gives no upper bound. */
  | { kind: 'integer'; min?: number; max?: number; acceptMin?: number; acceptMax?: number; span: number; acceptOnly?: boolean }
  /** An array of at most `max` items (stop sequences). */
  | { kind: 'count'; max: number; span: number }
  /** A string of at most `max` characters drawn from `alphabet`. */
  | { kind: 'length'; max: number; min: number; alphabet: string; span: number }
  /** One of `values`; rejected: the listed invalid values and random strings outside the set. */
  | { kind: 'enum'; values: readonly string[]; invalid: readonly string[]; acceptOnly?: boolean; randomInvalid?: RegExp }
  /** Token count of an input given as token ids, at most `max` (a number or the profile's context length). */
  | { kind: 'tokens'; max: number; span: number }
  /** Several parameters at once; the generator is written in src/fuzz/relations.ts under this name. */
  | { kind: 'relation'; relation: RelationName }
  /** Declared for reference (and for other code to reuse); not fuzzed, with the reason. */
  | { kind: 'declared'; value: number | string | readonly string[]; reason: string };

export type RelationName =
  | 'completion-context' | 'chat-context' | 'best-of-n' | 'best-of-stream'
  | 'image-square' | 'image-png' | 'mask-dimensions' | 'edit-transparency' | 'edit-opaque-alpha'
  | 'audio-file-type' | 'jsonl-lines' | 'classification';

export interface LimitSpec {
  /** Unique; properties are `<name>.accept` and `<name>.reject`. */
  name: string;
  endpoint: EndpointId | 'plugin-manifest' | 'plugin-openapi' | 'plugin-api' | 'fine-tune-data';
  /** Parameter path (see the header). */
  param: string;
  /** The rule, in the spec's words. */
  rule: string;
  domain: Domain;
  /** Catalogue IDs the accept side (values within the limit give a valid 2xx) exercises. */
  accept?: readonly string[];
  /**
   * Catalogue IDs the reject side (values outside are refused) exercises. Each side's severity is its IDs' in the
   * catalogue (properties.ts, severityOfCited): a reading only a should holds to cites that should.
   */
  reject?: readonly string[];
  /** Cases that create billable resources (fine-tune jobs): fewer random runs. */
  costly?: boolean;
}

const PNG_IMAGE = { field: 'image', filename: 'image.png', png: { width: 32, height: 32, alpha: 'transparent-region' as const } };
const WAV_FILE = { field: 'file', filename: 'speech.wav', wav: { seconds: 1 } };

export const ENDPOINTS: Readonly<Record<EndpointId, EndpointSpec>> = {
  completions: {
    id: 'completions', area: 'completions',
    base: { method: 'POST', path: '/v1/completions', json: { model: '{{models.completion}}', prompt: 'Say this is a test', max_tokens: 5 } },
    schema: 'resources/completion.schema.json',
    requirementPrefixes: ['COMP-', 'RES-COMPLETION', 'RES-TIMESTAMPS'],
    count: { pointer: '/choices', field: 'n', requirement: 'COMP-N-CHOICES' },
  },
  chat: {
    id: 'chat', area: 'chat',
    base: { method: 'POST', path: '/v1/chat/completions', json: { model: '{{models.chat}}', messages: [{ role: 'user', content: 'Say this is a test' }], max_tokens: 5 } },
    schema: 'resources/chat-completion.schema.json',
    requirementPrefixes: ['CHAT-', 'RES-CHAT', 'RES-TIMESTAMPS'],
    count: { pointer: '/choices', field: 'n', requirement: 'CHAT-N-CHOICES' },
  },
  edits: {
    id: 'edits', area: 'edits',
    base: { method: 'POST', path: '/v1/edits', json: { model: '{{models.edit}}', input: 'What day of the wek is it?', instruction: 'Fix the spelling mistakes' } },
    schema: 'resources/edit.schema.json',
    requirementPrefixes: ['EDIT-', 'RES-EDIT', 'RES-TIMESTAMPS'],
    count: { pointer: '/choices', field: 'n', requirement: 'EDIT-N-CHOICES' },
  },
  'images.generations': {
    id: 'images.generations', area: 'images',
    base: { method: 'POST', path: '/v1/images/generations', json: { prompt: 'A cute baby sea otter', size: '256x256' } },
    schema: 'resources/image-result.schema.json',
    requirementPrefixes: ['IMG-GEN-', 'RES-IMAGE', 'IMG-B64', 'RES-TIMESTAMPS'],
    count: { pointer: '/data', field: 'n', requirement: 'IMG-GEN-N-RANGE-ACCEPT' },
  },
  'images.edits': {
    id: 'images.edits', area: 'images',
    base: { method: 'POST', path: '/v1/images/edits', multipart: { fields: { prompt: 'A sunlit indoor lounge area with a pool', size: '256x256' }, files: [PNG_IMAGE] } },
    schema: 'resources/image-result.schema.json',
    requirementPrefixes: ['IMG-EDIT-', 'RES-IMAGE', 'IMG-B64', 'RES-TIMESTAMPS'],
    count: { pointer: '/data', field: 'n', requirement: 'IMG-EDIT-N' },
  },
  'images.variations': {
    id: 'images.variations', area: 'images',
    base: { method: 'POST', path: '/v1/images/variations', multipart: { fields: { size: '256x256' }, files: [PNG_IMAGE] } },
    schema: 'resources/image-result.schema.json',
    requirementPrefixes: ['IMG-VAR-', 'RES-IMAGE', 'IMG-B64', 'RES-TIMESTAMPS'],
    count: { pointer: '/data', field: 'n', requirement: 'IMG-VAR-N' },
  },
  embeddings: {
    id: 'embeddings', area: 'embeddings',
    base: { method: 'POST', path: '/v1/embeddings', json: { model: '{{models.embedding}}', input: 'The food was delicious and the waiter was kind.' } },
    schema: 'resources/embedding-result.schema.json',
    requirementPrefixes: ['EMB-', 'RES-EMBEDDING'],
  },
  'audio.transcriptions': {
    id: 'audio.transcriptions', area: 'audio',
    base: { method: 'POST', path: '/v1/audio/transcriptions', multipart: { fields: { model: '{{models.transcription}}' }, files: [WAV_FILE] } },
    schema: { byField: 'response_format', default: 'resources/transcription-json.schema.json', values: { json: 'resources/transcription-json.schema.json', verbose_json: 'resources/transcription-verbose-json.schema.json', text: null, srt: null, vtt: null } },
    requirementPrefixes: ['AUDIO-', 'RES-TRANSCRIPTION'],
  },
  'audio.translations': {
    id: 'audio.translations', area: 'audio',
    base: { method: 'POST', path: '/v1/audio/translations', multipart: { fields: { model: '{{models.transcription}}' }, files: [WAV_FILE] } },
    schema: { byField: 'response_format', default: 'resources/transcription-json.schema.json', values: { json: 'resources/transcription-json.schema.json', verbose_json: 'resources/transcription-verbose-json.schema.json', text: null, srt: null, vtt: null } },
    requirementPrefixes: ['AUDIO-', 'RES-TRANSCRIPTION'],
  },
  files: {
    id: 'files', area: 'files',
    base: { method: 'POST', path: '/v1/files', multipart: { fields: { purpose: 'fine-tune' }, files: [{ field: 'file', filename: 'fuzz.jsonl', jsonl: [{ prompt: 'ping ->', completion: ' pong\n' }] }] } },
    schema: 'resources/file.schema.json',
    requirementPrefixes: ['FILE-UPLOAD', 'RES-FILE', 'RES-TIMESTAMPS'],
    creates: 'file',
  },
  'fine-tunes': {
    id: 'fine-tunes', area: 'fine-tunes',
    base: { method: 'POST', path: '/v1/fine-tunes', json: { training_file: '{{fuzz.training_file}}', model: '{{models.fine_tune_base}}' } },
    schema: 'resources/fine-tune-with-events.schema.json',
    requirementPrefixes: ['RES-FT-JOB', 'FT-STATE-CREATE', 'RES-TIMESTAMPS'],
    creates: 'fine-tune',
    needs: 'training-files',
  },
  moderations: {
    id: 'moderations', area: 'moderations',
    base: { method: 'POST', path: '/v1/moderations', json: { input: 'I want to hug them.' } },
    schema: 'resources/moderation.schema.json',
    requirementPrefixes: ['MOD-', 'RES-MODERATION'],
  },
};

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PROMPT_CHARS = 'abcdefghijklmnopqrstuvwxyz ';
const IMAGE_SIZES = ['256x256', '512x512', '1024x1024'] as const;
const IMAGE_FORMATS = ['url', 'b64_json'] as const;
const AUDIO_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
/** A token id every tokenizer of the service knows (logit_bias keys are token ids). */
export const BIAS_TOKEN = '1000';

function temperature(endpoint: EndpointId, at: string, max: number, accept: string[], reject: string[]): LimitSpec {
  return { name: `${endpoint}.temperature`, endpoint, param: at, rule: `temperature 0 to ${max}`, domain: { kind: 'number', min: 0, max, step: 0.01, span: 10 }, accept, reject };
}
function penalty(endpoint: 'completions' | 'chat', field: 'presence_penalty' | 'frequency_penalty', prefix: 'COMP' | 'CHAT'): LimitSpec {
  const id = field === 'presence_penalty' ? 'PRESENCE' : 'FREQUENCY';
  return {
    name: `${endpoint}.${field}`, endpoint, param: `json:/${field}`, rule: `${field} -2.0 to 2.0`,
    domain: { kind: 'number', min: -2, max: 2, step: 0.01, span: 10 },
    accept: [`${prefix}-${id}-PENALTY-RANGE-ACCEPT`], reject: [`${prefix}-${id}-PENALTY-RANGE-REJECT`],
  };
}
function imageParams(endpoint: 'images.generations' | 'images.edits' | 'images.variations'): LimitSpec[] {
  const at = endpoint === 'images.generations' ? (f: string) => `json:/${f}` : (f: string) => `form:${f}`;
  const ids = {
    'images.generations': { nA: ['IMG-GEN-N-RANGE-ACCEPT'], nR: ['IMG-GEN-N-RANGE-REJECT'], sA: ['IMG-GEN-SIZE-ACCEPT'], sR: ['IMG-GEN-SIZE-REJECT'], fA: ['IMG-GEN-FORMAT-ACCEPT', 'RES-IMAGE-ITEM-MATCHES-FORMAT'], fR: ['IMG-GEN-FORMAT-REJECT'] },
    'images.edits': { nA: ['IMG-EDIT-N'], nR: ['IMG-EDIT-N'], sA: ['IMG-EDIT-SIZE'], sR: ['IMG-EDIT-SIZE'], fA: ['IMG-EDIT-FORMAT', 'RES-IMAGE-ITEM-MATCHES-FORMAT'], fR: ['IMG-EDIT-FORMAT'] },
    'images.variations': { nA: ['IMG-VAR-N'], nR: ['IMG-VAR-N'], sA: ['IMG-VAR-SIZE'], sR: ['IMG-VAR-SIZE'], fA: ['IMG-VAR-FORMAT', 'RES-IMAGE-ITEM-MATCHES-FORMAT'], fR: ['IMG-VAR-FORMAT'] },
  }[endpoint];
  const out: LimitSpec[] = [
    { name: `${endpoint}.n`, endpoint, param: at('n'), rule: 'n 1 to 10', domain: { kind: 'integer', min: 1, max: 10, span: 1000 }, accept: ids.nA, reject: ids.nR },
    { name: `${endpoint}.size`, endpoint, param: at('size'), rule: 'size one of 256x256, 512x512, 1024x1024', domain: { kind: 'enum', values: IMAGE_SIZES, invalid: ['128x128', '1024x512', '2048x2048', '256'] }, accept: ids.sA, reject: ids.sR },
    { name: `${endpoint}.response_format`, endpoint, param: at('response_format'), rule: 'response_format one of url, b64_json', domain: { kind: 'enum', values: IMAGE_FORMATS, invalid: ['png', 'b64', 'json'] }, accept: ids.fA, reject: ids.fR },
  ];
  if (endpoint !== 'images.variations') {
    const prompt = endpoint === 'images.generations' ? 'IMG-GEN-PROMPT-MAX1000' : 'IMG-EDIT-PROMPT-MAX1000';
    out.push({ name: `${endpoint}.prompt`, endpoint, param: at('prompt'), rule: 'prompt max 1000 characters', domain: { kind: 'length', min: 1, max: 1000, alphabet: PROMPT_CHARS, span: 1000 }, accept: [prompt], reject: [prompt] });
  }
  return out;
}
function audioParams(endpoint: 'audio.transcriptions' | 'audio.translations'): LimitSpec[] {
  const t = endpoint === 'audio.translations';
  const ids = (a: string[]) => (t ? ['AUDIO-TRANSLATE-FIELDS'] : a);
  const out: LimitSpec[] = [
    temperature(endpoint, 'form:temperature', 1, ids(['AUDIO-TEMPERATURE-RANGE-ACCEPT']), ids(['AUDIO-TEMPERATURE-RANGE-REJECT'])),
    { name: `${endpoint}.model`, endpoint, param: 'form:model', rule: 'model: only whisper-1 is available', domain: { kind: 'enum', values: ['whisper-1'], invalid: ['whisper-2', 'text-davinci-003', 'whisper'] }, accept: ids(['AUDIO-MODEL-WHISPER-ONLY']), reject: ids(['AUDIO-MODEL-WHISPER-ONLY']) },
    { name: `${endpoint}.response_format`, endpoint, param: 'form:response_format', rule: 'response_format one of json, text, srt, verbose_json, vtt', domain: { kind: 'enum', values: AUDIO_FORMATS, invalid: ['xml', 'mp3', 'csv'] }, accept: ids(['AUDIO-FORMAT-DEFAULT-JSON', 'AUDIO-FORMAT-TEXT', 'AUDIO-FORMAT-SRT', 'AUDIO-FORMAT-VERBOSE-JSON', 'AUDIO-FORMAT-VTT']), reject: ids(['AUDIO-FORMAT-REJECT']) },
    { name: `${endpoint}.file`, endpoint, param: 'relation:audio-file-type', rule: 'file: mp3, mp4, mpeg, mpga, m4a, wav or webm', domain: { kind: 'relation', relation: 'audio-file-type' }, accept: ids(['AUDIO-FILE-TYPES']), reject: ids(['AUDIO-FILE-TYPE-REJECT']) },
  ];
  if (!t) {
    out.push({ name: `${endpoint}.language`, endpoint, param: 'form:language', rule: 'language: ISO-639-1 code', domain: { kind: 'enum', values: ['en', 'fr', 'de', 'es', 'it', 'ja', 'zh', 'pt', 'nl'], invalid: ['english', 'EN', 'en-US', 'e', 'eng', '12'], randomInvalid: /^(?![a-z]{2}$)/ }, accept: ['AUDIO-LANGUAGE-ISO639'], reject: ['AUDIO-LANGUAGE-INVALID'] });
  }
  return out;
}

/** The limits table. */
export const LIMIT_SPECS: readonly LimitSpec[] = [
  // ---------------------------------------------------------------- completions
  temperature('completions', 'json:/temperature', 2, ['COMP-TEMPERATURE-RANGE-ACCEPT'], ['COMP-TEMPERATURE-RANGE-REJECT']),
  { name: 'completions.top_p', endpoint: 'completions', param: 'json:/top_p', rule: 'top_p: nucleus sampling (no range stated; 0 < top_p <= 1 accepted: a server reading it as the nucleus mass refuses 0)', domain: { kind: 'number', min: 0.01, max: 1, step: 0.01, span: 1, acceptOnly: true }, accept: ['COMP-TOP-P'] },
  { name: 'completions.n', endpoint: 'completions', param: 'json:/n', rule: 'n: completions per prompt (no maximum stated)', domain: { kind: 'integer', min: 1, acceptMax: 5, span: 0, acceptOnly: true }, accept: ['COMP-N-CHOICES'] },
  { name: 'completions.max_tokens', endpoint: 'completions', param: 'relation:completion-context', rule: 'prompt tokens + max_tokens must not exceed the model context length', domain: { kind: 'relation', relation: 'completion-context' }, accept: ['COMP-CONTEXT-AT-LIMIT', 'LIMIT-CONTEXT-LENGTH'], reject: ['COMP-CONTEXT-EXCEEDED', 'LIMIT-CONTEXT-LENGTH'] },
  { name: 'completions.logprobs', endpoint: 'completions', param: 'json:/logprobs', rule: 'logprobs max 5', domain: { kind: 'integer', acceptMin: 0, max: 5, span: 1000 }, accept: ['COMP-LOGPROBS-MAX5', 'COMP-LOGPROBS-TOP-COUNT'], reject: ['COMP-LOGPROBS-MAX5'] },
  { name: 'completions.stop', endpoint: 'completions', param: 'json:/stop', rule: 'stop: up to 4 sequences', domain: { kind: 'count', max: 4, span: 12 }, accept: ['COMP-STOP-MAX4', 'COMP-STOP-EXCLUDED'], reject: ['COMP-STOP-MAX4'] },
  penalty('completions', 'presence_penalty', 'COMP'),
  penalty('completions', 'frequency_penalty', 'COMP'),
  { name: 'completions.best_of', endpoint: 'completions', param: 'relation:best-of-n', rule: 'best_of must be greater than n', domain: { kind: 'relation', relation: 'best-of-n' }, accept: ['COMP-BEST-OF-GT-N'], reject: ['COMP-BEST-OF-LT-N'] },
  { name: 'completions.best_of_stream', endpoint: 'completions', param: 'relation:best-of-stream', rule: 'best_of cannot be streamed', domain: { kind: 'relation', relation: 'best-of-stream' }, reject: ['COMP-BEST-OF-STREAM-REFUSED'] },
  { name: 'completions.logit_bias', endpoint: 'completions', param: `json:/logit_bias/${BIAS_TOKEN}`, rule: 'logit_bias values -100 to 100', domain: { kind: 'number', min: -100, max: 100, step: 0.5, span: 1000 }, accept: ['COMP-LOGIT-BIAS-RANGE-ACCEPT'], reject: ['COMP-LOGIT-BIAS-RANGE-REJECT'] },
  // ---------------------------------------------------------------- chat
  temperature('chat', 'json:/temperature', 2, ['CHAT-TEMPERATURE-RANGE-ACCEPT'], ['CHAT-TEMPERATURE-RANGE-REJECT']),
  { name: 'chat.top_p', endpoint: 'chat', param: 'json:/top_p', rule: 'top_p (no range stated; 0 < top_p <= 1 accepted: a server reading it as the nucleus mass refuses 0)', domain: { kind: 'number', min: 0.01, max: 1, step: 0.01, span: 1, acceptOnly: true }, accept: ['CHAT-TOP-P'] },
  { name: 'chat.n', endpoint: 'chat', param: 'json:/n', rule: 'n: choices per input (no maximum stated)', domain: { kind: 'integer', min: 1, acceptMax: 5, span: 0, acceptOnly: true }, accept: ['CHAT-N-CHOICES'] },
  { name: 'chat.stop', endpoint: 'chat', param: 'json:/stop', rule: 'stop: up to 4 sequences', domain: { kind: 'count', max: 4, span: 12 }, accept: ['CHAT-STOP-MAX4'], reject: ['CHAT-STOP-MAX4'] },
  { name: 'chat.max_tokens', endpoint: 'chat', param: 'relation:chat-context', rule: 'input plus generated tokens limited by model context length', domain: { kind: 'relation', relation: 'chat-context' }, accept: ['CHAT-MAX-TOKENS-BOUND'], reject: ['CHAT-MAX-TOKENS-OVER-CONTEXT-REFUSED'] },
  penalty('chat', 'presence_penalty', 'CHAT'),
  penalty('chat', 'frequency_penalty', 'CHAT'),
  { name: 'chat.logit_bias', endpoint: 'chat', param: `json:/logit_bias/${BIAS_TOKEN}`, rule: 'logit_bias -100 to 100', domain: { kind: 'number', min: -100, max: 100, step: 0.5, span: 1000 }, accept: ['CHAT-LOGIT-BIAS-RANGE-ACCEPT'], reject: ['CHAT-LOGIT-BIAS-RANGE-REJECT'] },
  // ---------------------------------------------------------------- edits
  { name: 'edits.model', endpoint: 'edits', param: 'json:/model', rule: 'model: text-davinci-edit-001 or code-davinci-edit-001', domain: { kind: 'enum', values: ['text-davinci-edit-001', 'code-davinci-edit-001'], invalid: ['text-davinci-003', 'davinci', 'text-davinci-edit-002'] }, accept: ['EDIT-MODEL-ALLOWED'], reject: ['EDIT-MODEL-OTHER-REJECTED'] },
  temperature('edits', 'json:/temperature', 2, ['EDIT-TEMPERATURE-RANGE-ACCEPT'], ['EDIT-TEMPERATURE-RANGE-REJECT']),
  { name: 'edits.top_p', endpoint: 'edits', param: 'json:/top_p', rule: 'top_p (no range stated; 0 < top_p <= 1 accepted: a server reading it as the nucleus mass refuses 0)', domain: { kind: 'number', min: 0.01, max: 1, step: 0.01, span: 1, acceptOnly: true }, accept: ['EDIT-TOP-P'] },
  { name: 'edits.n', endpoint: 'edits', param: 'json:/n', rule: 'n: edits per input (no maximum stated)', domain: { kind: 'integer', min: 1, acceptMax: 5, span: 0, acceptOnly: true }, accept: ['EDIT-N-CHOICES'] },
  // ---------------------------------------------------------------- images
  ...imageParams('images.generations'),
  ...imageParams('images.edits'),
  ...imageParams('images.variations'),
  { name: 'images.edits.image_square', endpoint: 'images.edits', param: 'relation:image-square', rule: 'image: valid PNG, square', domain: { kind: 'relation', relation: 'image-square' }, accept: ['IMG-EDIT-CREATE'], reject: ['IMG-EDIT-IMAGE-SQUARE'] },
  { name: 'images.variations.image_square', endpoint: 'images.variations', param: 'relation:image-square', rule: 'image: valid PNG, square', domain: { kind: 'relation', relation: 'image-square' }, accept: ['IMG-VAR-CREATE'], reject: ['IMG-VAR-IMAGE-SQUARE'] },
  { name: 'images.edits.image_png', endpoint: 'images.edits', param: 'relation:image-png', rule: 'image: valid PNG', domain: { kind: 'relation', relation: 'image-png' }, reject: ['IMG-EDIT-IMAGE-PNG'] },
  { name: 'images.variations.image_png', endpoint: 'images.variations', param: 'relation:image-png', rule: 'image: valid PNG', domain: { kind: 'relation', relation: 'image-png' }, reject: ['IMG-VAR-IMAGE-PNG'] },
  { name: 'images.edits.mask', endpoint: 'images.edits', param: 'relation:mask-dimensions', rule: 'mask: valid PNG, same dimensions as image', domain: { kind: 'relation', relation: 'mask-dimensions' }, accept: ['IMG-EDIT-MASK-OPTIONAL', 'IMG-EDIT-CREATE'], reject: ['IMG-EDIT-MASK-SAME-DIMENSIONS'] },
  { name: 'images.edits.transparency', endpoint: 'images.edits', param: 'relation:edit-transparency', rule: 'image must have transparency if no mask is given', domain: { kind: 'relation', relation: 'edit-transparency' }, accept: ['IMG-EDIT-MASK-OPTIONAL'], reject: ['IMG-EDIT-TRANSPARENCY-NO-MASK'] },
  // An alpha channel whose pixels are all opaque has "transparency" under one reading of the register, not under the other.
  { name: 'images.edits.transparency_pixels', endpoint: 'images.edits', param: 'relation:edit-opaque-alpha', rule: 'image must have transparency if no mask is given (transparent pixels)', domain: { kind: 'relation', relation: 'edit-opaque-alpha' }, reject: ['IMG-EDIT-TRANSPARENCY-PIXELS'] },
  { name: 'images.file_size', endpoint: 'images.edits', param: 'file:image', rule: 'image and mask files under 4MB', domain: { kind: 'declared', value: 4 * 1024 * 1024, reason: 'one boundary (4 MiB) with multi-megabyte bodies: exercised by the YAML suites, too slow to fuzz' }, accept: ['IMG-EDIT-IMAGE-SIZE-4MB'], reject: ['IMG-EDIT-IMAGE-SIZE-4MB', 'IMG-EDIT-MASK-SIZE-4MB', 'IMG-VAR-IMAGE-SIZE-4MB'] },
  // ---------------------------------------------------------------- embeddings
  { name: 'embeddings.input', endpoint: 'embeddings', param: 'json:/input', rule: 'each input at most 8192 tokens', domain: { kind: 'tokens', max: 8192, span: 400 }, accept: ['EMB-INPUT-8192-AS-TOKEN-ARRAY'], reject: ['EMB-INPUT-MAX-8192'] },
  // ---------------------------------------------------------------- audio
  ...audioParams('audio.transcriptions'),
  ...audioParams('audio.translations'),
  // ---------------------------------------------------------------- files
  { name: 'files.jsonl', endpoint: 'files', param: 'relation:jsonl-lines', rule: "purpose fine-tune: JSON Lines, each line needing prompt and completion", domain: { kind: 'relation', relation: 'jsonl-lines' }, accept: ['FILE-FINE-TUNE-VALID', 'FILE-UPLOAD'], reject: ['FILE-FINE-TUNE-VALIDATION-AT-UPLOAD'] },
  { name: 'files.storage', endpoint: 'files', param: 'file:file', rule: 'up to 1 GB of uploaded files per organization', domain: { kind: 'declared', value: 1024 ** 3, reason: 'uploading 1 GB per run is impractical (catalogue: untestable)' }, reject: ['FILE-STORAGE-1GB'] },
  { name: 'fine-tune-data.example_tokens', endpoint: 'fine-tune-data', param: 'file:file', rule: 'prompt + completion at most 2048 tokens', domain: { kind: 'declared', value: 2048, reason: 'token counts of free text depend on the target tokenizer' }, accept: ['FTDATA-EXAMPLE-MAX-2048'], reject: ['FTDATA-EXAMPLE-MAX-2048'] },
  // ---------------------------------------------------------------- fine-tunes
  { name: 'fine-tunes.suffix', endpoint: 'fine-tunes', param: 'json:/suffix', rule: 'suffix at most 40 characters', domain: { kind: 'length', min: 1, max: 40, alphabet: `${ALNUM}-`, span: 80 }, accept: ['FT-SUFFIX-MAX40'], reject: ['FT-SUFFIX-MAX40'], costly: true },
  { name: 'fine-tunes.model', endpoint: 'fine-tunes', param: 'json:/model', rule: 'model: ada, babbage, curie, davinci (or a recent fine-tuned model)', domain: { kind: 'enum', values: ['ada', 'babbage', 'curie', 'davinci'], invalid: [], acceptOnly: true }, accept: ['FT-MODEL-BASE-ALLOWED'], costly: true },
  { name: 'fine-tunes.classification', endpoint: 'fine-tunes', param: 'relation:classification', rule: 'compute_classification_metrics requires validation_file and either classification_n_classes or classification_positive_class', domain: { kind: 'relation', relation: 'classification' }, accept: ['FT-N-CLASSES', 'FT-POSITIVE-CLASS'], reject: ['FT-CCM-REQUIRES-VALIDATION', 'FT-CCM-REQUIRES-CLASS'], costly: true },
  { name: 'fine-tunes.batch_size_default', endpoint: 'fine-tunes', param: 'json:/batch_size', rule: 'batch_size default about 0.2% of examples, max 256', domain: { kind: 'declared', value: 256, reason: 'a property of the default, visible only after training (results CSV)' }, accept: ['FT-BATCH-SIZE-DEFAULT-CAP'] },
  // ---------------------------------------------------------------- moderations
  { name: 'moderations.model', endpoint: 'moderations', param: 'json:/model', rule: 'model: text-moderation-latest or text-moderation-stable', domain: { kind: 'enum', values: ['text-moderation-latest', 'text-moderation-stable'], invalid: ['text-davinci-003', 'text-moderation', 'moderation-latest'] }, accept: ['MOD-MODEL-ALLOWED'], reject: ['MOD-MODEL-OTHER-REJECTED'] },
  // ---------------------------------------------------------------- plugins (the plugin checker owns these; listed so it can reuse them)
  { name: 'plugin.name_for_model', endpoint: 'plugin-manifest', param: 'json:/name_for_model', rule: 'max 50 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.name_for_model, reason: 'checked by the plugin checker (src/schema/plugin-limits.ts)' }, reject: ['PLUGIN-NAME-FOR-MODEL-MAX50'] },
  { name: 'plugin.name_for_human', endpoint: 'plugin-manifest', param: 'json:/name_for_human', rule: 'max 50 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.name_for_human, reason: 'checked by the plugin checker' }, reject: ['PLUGIN-NAME-FOR-HUMAN-MAX50'] },
  { name: 'plugin.description_for_model', endpoint: 'plugin-manifest', param: 'json:/description_for_model', rule: 'max 8000 characters (decreasing over time)', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.description_for_model, reason: 'checked by the plugin checker' }, reject: ['PLUGIN-DESC-FOR-MODEL-MAX8000'] },
  { name: 'plugin.description_for_human', endpoint: 'plugin-manifest', param: 'json:/description_for_human', rule: 'max 120 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.description_for_human, reason: 'checked by the plugin checker' }, reject: ['PLUGIN-DESC-FOR-HUMAN-MAX120'] },
  { name: 'plugin.response_body', endpoint: 'plugin-api', param: 'response', rule: 'plugin API response body 100000 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.apiResponseChars, reason: 'a limit on the plugin\'s responses, checked by the plugin checker' }, reject: ['PLUGIN-RESPONSE-MAX-100000'] },
  { name: 'plugin.openapi_summary', endpoint: 'plugin-openapi', param: 'json:/paths/*/*/summary', rule: 'operation summary 200 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.openapiSummary, reason: 'checked by the plugin checker' }, reject: ['PLUGIN-OPENAPI-SUMMARY-MAX200'] },
  { name: 'plugin.openapi_description', endpoint: 'plugin-openapi', param: 'json:/paths/*/*/description', rule: 'operation description 200 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.openapiDescription, reason: 'checked by the plugin checker' }, reject: ['PLUGIN-OPENAPI-DESCRIPTION-MAX200'] },
  { name: 'plugin.openapi_parameter_description', endpoint: 'plugin-openapi', param: 'json:/paths/*/*/parameters/*/description', rule: 'parameter description 200 characters', domain: { kind: 'declared', value: DEFAULT_PLUGIN_LIMITS.openapiParameterDescription, reason: 'checked by the plugin checker' }, reject: ['PLUGIN-OPENAPI-PARAM-DESC-MAX200'] },
];

export function limitByName(name: string): LimitSpec | undefined {
  return LIMIT_SPECS.find((l) => l.name === name);
}

export function isFuzzable(l: LimitSpec): l is LimitSpec & { endpoint: EndpointId } {
  return l.domain.kind !== 'declared' && l.endpoint in ENDPOINTS;
}
