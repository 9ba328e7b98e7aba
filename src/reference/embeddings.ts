// POST /v1/embeddings — one deterministic unit vector per input, seeded by the input's text.
import type { Ctx } from './context.ts';
import { invalidRequest } from './http-errors.ts';
import { LIMITS } from './limits.ts';
import { resolveModel } from './models.ts';
import { hashParts, seededRandom } from './random.ts';
import { MAX_TOKEN_ID, decodeTokenIds, isValidTokenId, tokenize } from './tokenizer.ts';
import { Fields, parseJsonObject } from './validate.ts';

interface EmbeddingInput {
  /** Text used as the seed (token arrays are decoded first, so [ids] and their text embed alike). */
  text: string;
  tokens: number;
}

export function embeddingVector(seed: number, text: string, dimensions: number): number[] {
  const rng = seededRandom(hashParts(seed, 'embedding', text));
  const v = new Array<number>(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = rng() * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  const scale = 1 / Math.sqrt(norm || 1);
  for (let i = 0; i < dimensions; i++) v[i] = Math.round(v[i]! * scale * 1e8) / 1e8;
  return v;
}

export function createEmbedding(ctx: Ctx): unknown {
  const fields = new Fields(parseJsonObject(ctx.body));
  const { id: model } = resolveModel(ctx.app, ctx.caller, fields.string('model', { required: true }), 'embedding');
  const rawInput = fields.raw('input');
  if (ctx.fault('embeddings-token-array-rejected') && Array.isArray(rawInput) && rawInput.some((v) => typeof v !== 'string')) {
    throw invalidRequest(`${JSON.stringify(rawInput).slice(0, 60)} is not of type 'string' - 'input'`, 'input');
  }
  const parsedInputs = parseInputs(rawInput, ctx.reading('embeddings-array-cap'));
  const inputs = ctx.fault('embeddings-array-first-only') ? parsedInputs.slice(0, 1) : parsedInputs;
  fields.string('user', { allowEmpty: true });
  if (!ctx.fault('embeddings-input-too-long-accepted')) {
    inputs.forEach((input, i) => {
      if (input.tokens > LIMITS.embeddingInputTokens) {
        throw invalidRequest(
          `This model's maximum context length is ${LIMITS.embeddingInputTokens} tokens, however you requested ${input.tokens} tokens (input ${i}). Please reduce your prompt.`,
          'input',
          'context_length_exceeded',
        );
      }
    });
  }
  const dimensions = ctx.fault('embeddings-1535-dims') ? LIMITS.embeddingDimensions - 1 : LIMITS.embeddingDimensions;
  const firstIndex = ctx.fault('embeddings-index-from-one') ? 1 : 0;
  const vectors = inputs.map((input) => embeddingVector(ctx.app.options.seed, input.text, dimensions));
  if (ctx.fault('embeddings-reversed-order')) vectors.reverse();
  const data = inputs.map((_, i) => ({
    object: ctx.fault('embeddings-item-object-wrong') ? 'embeddings' : 'embedding',
    index: i + firstIndex,
    embedding: vectors[i],
  }));
  // Items in the order they finished, each with its own index: the spec does not say data is sorted.
  if (ctx.reading('embeddings-unordered')) data.reverse();
  const promptTokens = inputs.reduce((sum, i) => sum + i.tokens, 0);
  const usage = { prompt_tokens: promptTokens, total_tokens: promptTokens * (ctx.fault('embeddings-usage-total-differs') ? 2 : 1) };
  return ctx.fault('embeddings-model-missing') ? { object: 'list', data, usage } : { object: 'list', data, model, usage };
}

function parseInputs(value: unknown, arrayCap = false): EmbeddingInput[] {
  const invalid = () => invalidRequest(`${JSON.stringify(value)?.slice(0, 80) ?? 'undefined'} is not valid under any of the given schemas - 'input'`, 'input');
  if (value === undefined || value === null) throw invalidRequest("'input' is a required property", 'input');
  if (typeof value === 'string') {
    if (value === '') throw invalidRequest("'input' must not be empty", 'input');
    return [{ text: value, tokens: tokenize(value).length }];
  }
  if (!Array.isArray(value) || value.length === 0) throw invalid();
  if (value.every((v) => typeof v === 'string')) {
    if (value.some((v) => v === '')) throw invalidRequest("'input' must not contain empty strings", 'input');
    return (value as string[]).map((text) => ({ text, tokens: tokenize(text).length }));
  }
  // The real service caps each array in input at 2048 items, so 8192 tokens go only as a string (embeddings-array-cap).
  if (arrayCap && value.length > 2048) throw invalidRequest(`${value.length} items is too many for an array in 'input' (at most 2048)`, 'input');
  if (value.every((v) => typeof v === 'number')) return [tokenInput(value as number[])];
  if (value.every((v) => Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === 'number'))) {
    return (value as number[][]).map(tokenInput);
  }
  throw invalid();
}

function tokenInput(ids: number[]): EmbeddingInput {
  const bad = ids.find((id) => !isValidTokenId(id));
  if (bad !== undefined) throw invalidRequest(`Invalid token in input: ${bad}. Minimum value is 0, maximum value is ${MAX_TOKEN_ID} (inclusive).`, 'input');
  return { text: decodeTokenIds(ids), tokens: ids.length };
}
