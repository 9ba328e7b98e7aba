// Limits that tie several parameters (or a parameter and a file) together. Each relation gives the accept
// and/or reject side of one limit of src/fuzz/limits.ts, with boundary examples.

import fc from 'fast-check';
import type { FileFixtureSpec } from '../suite/types.ts';
import type { LimitSpec, RelationName } from './limits.ts';
import { set, type Patch } from './patch.ts';
import { chars, tokenIds, type Side, type Sides } from './primitives.ts';

export interface RelationContext {
  /** Context length of the profile's completion and chat models (the Limits table: 2048 or 4096). */
  contextLength: { completion: number; chat: number };
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TEXT = 'abcdefghijklmnopqrstuvwxyz ';

function side<V>(s: Side<V>): Side {
  return s as unknown as Side;
}

function png(field: string, width: number, height: number, alpha: 'opaque' | 'transparent-region' | 'none' = 'transparent-region'): FileFixtureSpec {
  return { field, filename: `${field}.png`, png: { width, height, alpha } };
}

const side8to64 = fc.integer({ min: 8, max: 64 });
const unequalPair = fc.tuple(side8to64, side8to64).filter(([a, b]) => a !== b);

// What the upload row states: each line is JSON and needs prompt and completion. Their types (a number as prompt)
// are the data format's, not what the upload is said to validate, so no must asks for their refusal.
type Defect = 'missing-completion' | 'missing-prompt' | 'not-json';
const DEFECTS: readonly Defect[] = ['missing-completion', 'missing-prompt', 'not-json'];
function defectiveLine(d: Defect): unknown {
  switch (d) {
    case 'missing-completion': return { prompt: 'broken ->' };
    case 'missing-prompt': return { completion: ' broken\n' };
    case 'not-json': return 'this line is not JSON';
  }
}
const example = fc.record({ prompt: fc.string({ unit: chars(TEXT), minLength: 1, maxLength: 24 }), completion: fc.string({ unit: chars(TEXT), minLength: 1, maxLength: 24 }) });
function jsonlFile(lines: unknown[]): FileFixtureSpec {
  return { field: 'file', filename: 'fuzz.jsonl', jsonl: lines };
}

export const RELATIONS: Record<RelationName, (rc: RelationContext, limit: LimitSpec) => Sides> = {
  /** prompt tokens + max_tokens ≤ context length; the prompt is given as token ids so its length is exact on every tokenizer. */
  'completion-context': (rc) => {
    const ctx = rc.contextLength.completion;
    type A = { k: number; m: number };
    type R = { k: number; over: number };
    const prompt = (k: number): Patch => set('json:/prompt', tokenIds(k));
    return {
      accept: side<A>({
        arbitrary: fc.record({ k: fc.integer({ min: 1, max: 32 }), m: fc.integer({ min: 1, max: 64 }) }),
        examples: [{ k: 1, m: ctx - 1 }, { k: 16, m: ctx - 16 }],
        patches: ({ k, m }) => [prompt(k), set('json:/max_tokens', m)],
        describe: ({ k, m }) => `${k} prompt tokens + max_tokens ${m} = ${k + m} (context length ${ctx})`,
      }),
      // Two or more over: the exact boundary may be off by one (COMP-CONTEXT-EXACT-BOUNDARY, a should; the register).
      reject: side<R>({
        arbitrary: fc.record({ k: fc.integer({ min: 1, max: 32 }), over: fc.integer({ min: 2, max: 1000 }) }),
        examples: [{ k: 1, over: 2 }],
        patches: ({ k, over }) => [prompt(k), set('json:/max_tokens', ctx - k + over)],
        describe: ({ k, over }) => `${k} prompt tokens + max_tokens ${ctx - k + over} = ${ctx + over} (context length ${ctx})`,
      }),
    };
  },
  /** Chat input tokens are not predictable across tokenizers (per-message overhead), so the reject side uses max_tokens ≥ context length. */
  'chat-context': (rc) => {
    const ctx = rc.contextLength.chat;
    return {
      accept: side<number>({ arbitrary: fc.integer({ min: 1, max: 64 }), examples: [1, 64], patches: (m) => [set('json:/max_tokens', m)], describe: (m) => `max_tokens = ${m}` }),
      reject: side<number>({
        arbitrary: fc.integer({ min: 0, max: 1000 }),
        examples: [0],
        patches: (e) => [set('json:/max_tokens', ctx + e)],
        describe: (e) => `max_tokens = ${ctx + e} with a non-empty input (context length ${ctx})`,
      }),
    };
  },
  'best-of-n': () => ({
    accept: side<{ n: number; extra: number }>({
      arbitrary: fc.record({ n: fc.integer({ min: 1, max: 3 }), extra: fc.integer({ min: 1, max: 3 }) }),
      examples: [{ n: 1, extra: 2 }, { n: 2, extra: 1 }],
      patches: ({ n, extra }) => [set('json:/n', n), set('json:/best_of', n + extra)],
      describe: ({ n, extra }) => `n = ${n}, best_of = ${n + extra}`,
    }),
    reject: side<{ n: number; d: number }>({
      arbitrary: fc.record({ n: fc.integer({ min: 2, max: 6 }), d: fc.integer({ min: 1, max: 5 }) }),
      examples: [{ n: 2, d: 1 }],
      patches: ({ n, d }) => [set('json:/n', n), set('json:/best_of', Math.max(1, n - d))],
      describe: ({ n, d }) => `n = ${n}, best_of = ${Math.max(1, n - d)}`,
    }),
  }),
  'best-of-stream': () => ({
    reject: side<number>({
      arbitrary: fc.integer({ min: 2, max: 6 }),
      examples: [2],
      patches: (b) => [{ op: 'stream', value: true }, set('json:/stream', true), set('json:/best_of', b)],
      describe: (b) => `stream = true, best_of = ${b}`,
    }),
  }),
  'image-square': (_rc, limit) => {
    const alpha = limit.endpoint === 'images.edits' ? 'transparent-region' : 'opaque';
    return {
      accept: side<number>({ arbitrary: side8to64, examples: [32, 8], patches: (s) => [{ op: 'file', field: 'image', fixture: png('image', s, s, alpha) }], describe: (s) => `image ${s}x${s}` }),
      reject: side<[number, number]>({
        arbitrary: unequalPair,
        examples: [[32, 33], [33, 32]],
        patches: ([w, h]) => [{ op: 'file', field: 'image', fixture: png('image', w, h, alpha) }],
        describe: ([w, h]) => `image ${w}x${h} (not square)`,
      }),
    };
  },
  'image-png': () => ({
    reject: side<{ size: number; fill: string }>({
      arbitrary: fc.record({ size: fc.integer({ min: 1, max: 2048 }), fill: fc.constantFrom('not a png', 'GIF89a', '\u00ff\u00d8\u00ff\u00e0JFIF', '\u0089PNG') }),
      examples: [{ size: 64, fill: 'not a png' }],
      patches: ({ size, fill }) => [{ op: 'file', field: 'image', fixture: { field: 'image', filename: 'image.png', content_type: 'image/png', bytes: { size, fill } } }],
      describe: ({ size, fill }) => `image.png holding ${size} bytes of ${JSON.stringify(fill)} (not a PNG)`,
    }),
  }),
  'mask-dimensions': () => ({
    accept: side<number>({
      arbitrary: side8to64,
      examples: [32],
      patches: (s) => [{ op: 'file', field: 'image', fixture: png('image', s, s) }, { op: 'file', field: 'mask', fixture: png('mask', s, s) }],
      describe: (s) => `image ${s}x${s}, mask ${s}x${s}`,
    }),
    reject: side<[number, number]>({
      arbitrary: unequalPair,
      examples: [[32, 33]],
      patches: ([s, t]) => [{ op: 'file', field: 'image', fixture: png('image', s, s) }, { op: 'file', field: 'mask', fixture: png('mask', t, t) }],
      describe: ([s, t]) => `image ${s}x${s}, mask ${t}x${t}`,
    }),
  }),
  'edit-transparency': () => ({
    accept: side<number>({ arbitrary: side8to64, examples: [32], patches: (s) => [{ op: 'file', field: 'image', fixture: png('image', s, s, 'transparent-region') }, { op: 'file', field: 'mask', fixture: null }], describe: (s) => `image ${s}x${s} with a transparent region, no mask` }),
    // No alpha channel at all: no transparency under either reading of IMG-EDIT-TRANSPARENCY-NO-MASK.
    reject: side<number>({
      arbitrary: side8to64,
      examples: [32],
      patches: (s) => [{ op: 'file', field: 'image', fixture: png('image', s, s, 'none') }, { op: 'file', field: 'mask', fixture: null }],
      describe: (s) => `image ${s}x${s} without an alpha channel, no mask`,
    }),
  }),
  // An alpha channel, every pixel opaque: refused only under the transparent-pixels reading (a should).
  'edit-opaque-alpha': () => ({
    reject: side<number>({
      arbitrary: side8to64,
      examples: [32],
      patches: (s) => [{ op: 'file', field: 'image', fixture: png('image', s, s, 'opaque') }, { op: 'file', field: 'mask', fixture: null }],
      describe: (s) => `image ${s}x${s} with an alpha channel but no transparent pixel, no mask`,
    }),
  }),
  /** Only wav has a real fixture; the other listed types would need real encoded media. */
  'audio-file-type': () => {
    const listed = ['mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'wav', 'webm'];
    return {
      accept: side<string>({ arbitrary: fc.constant('wav'), examples: ['wav'], patches: () => [{ op: 'file', field: 'file', fixture: { field: 'file', filename: 'speech.wav', wav: { seconds: 1 } } }], describe: () => 'file speech.wav (WAV audio)' }),
      reject: side<string>({
        arbitrary: fc.oneof(fc.constantFrom('txt', 'pdf', 'csv', 'json', 'doc'), fc.string({ unit: chars(ALNUM), minLength: 1, maxLength: 5 }).filter((e) => !listed.includes(e))),
        examples: ['txt'],
        patches: (ext) => [{ op: 'file', field: 'file', fixture: { field: 'file', filename: `notes.${ext}`, text: 'This is a text file, not audio.\n' } }],
        describe: (ext) => `file notes.${ext} (text, not a listed audio type)`,
      }),
    };
  },
  'jsonl-lines': () => ({
    accept: side<Array<{ prompt: string; completion: string }>>({
      arbitrary: fc.array(example, { minLength: 1, maxLength: 5 }),
      examples: [[{ prompt: 'ping ->', completion: ' pong\n' }]],
      patches: (lines) => [{ op: 'file', field: 'file', fixture: jsonlFile(lines) }],
      describe: (lines) => `${lines.length} valid JSONL lines`,
    }),
    reject: side<{ lines: Array<{ prompt: string; completion: string }>; defect: Defect; at: number }>({
      arbitrary: fc.record({ lines: fc.array(example, { maxLength: 4 }), defect: fc.constantFrom(...DEFECTS), at: fc.nat({ max: 4 }) }),
      examples: DEFECTS.map((defect) => ({ lines: [], defect, at: 0 })),
      patches: ({ lines, defect, at }) => {
        const all: unknown[] = [...lines];
        all.splice(Math.min(at, lines.length), 0, defectiveLine(defect));
        return [{ op: 'file', field: 'file', fixture: jsonlFile(all) }];
      },
      describe: ({ lines, defect }) => `${lines.length} valid lines and one line with defect ${defect}`,
    }),
  }),
  classification: () => {
    type A = { mode: 'multiclass' | 'binary'; n: number; positive: string };
    return {
      accept: side<A>({
        // Consistent with the uploaded files (two classes, " yes" and " no"): a server may check the request against
        // its files, and a class count or positive class the data does not have is a request it may refuse.
        arbitrary: fc.constantFrom<A>({ mode: 'multiclass', n: 2, positive: 'yes' }, { mode: 'binary', n: 2, positive: 'yes' }, { mode: 'binary', n: 2, positive: 'no' }),
        examples: [{ mode: 'multiclass', n: 2, positive: 'yes' }, { mode: 'binary', n: 2, positive: 'yes' }],
        patches: ({ mode, n, positive }) => [
          set('json:/compute_classification_metrics', true),
          set('json:/validation_file', '{{fuzz.validation_file}}'),
          mode === 'multiclass' ? set('json:/classification_n_classes', n) : set('json:/classification_positive_class', ` ${positive}`),
        ],
        describe: ({ mode, n, positive }) => `compute_classification_metrics with validation_file and ${mode === 'multiclass' ? `classification_n_classes ${n}` : `classification_positive_class " ${positive}"`}`,
      }),
      reject: side<{ missing: 'validation' | 'class'; n: number }>({
        arbitrary: fc.record({ missing: fc.constantFrom('validation' as const, 'class' as const), n: fc.integer({ min: 3, max: 10 }) }),
        examples: [{ missing: 'validation', n: 3 }, { missing: 'class', n: 3 }],
        patches: ({ missing, n }) =>
          missing === 'validation'
            ? [set('json:/compute_classification_metrics', true), set('json:/classification_n_classes', n)]
            : [set('json:/compute_classification_metrics', true), set('json:/validation_file', '{{fuzz.validation_file}}')],
        describe: ({ missing, n }) => (missing === 'validation' ? `compute_classification_metrics with classification_n_classes ${n} but no validation_file` : 'compute_classification_metrics with validation_file but neither classification_n_classes nor classification_positive_class'),
      }),
    };
  },
};
