// POST /v1/completions
import type { Ctx } from './context.ts';
import { generate, sourceWords } from './generator.ts';
import type { FinishReason, Generation } from './generator.ts';
import { invalidRequest } from './http-errors.ts';
import { LIMITS } from './limits.ts';
import { buildLogprobs, sliceLogprobs } from './logprobs.ts';
import type { Logprobs } from './logprobs.ts';
import { resolveModel } from './models.ts';
import { hashParts, unixSeconds } from './random.ts';
import { SseStream } from './sse.ts';
import { chunkIndex, streamBehaviour } from './streaming.ts';
import { END_OF_TEXT, MAX_TOKEN_ID, decodeTokenId, isValidTokenId, tokenize } from './tokenizer.ts';
import { Fields, parseJsonObject, readLogitBias, readStop } from './validate.ts';

interface Prompt {
  text: string;
  tokens: string[];
}

interface CompletionRequest {
  model: string;
  contextLength: number;
  prompts: Prompt[];
  suffixTokens: number;
  /** What the suffix field gave, for the fault that returns it. */
  suffix: string | undefined;
  maxTokens: number;
  n: number;
  bestOf: number | undefined;
  stream: boolean;
  logprobs: number | undefined;
  echo: boolean;
  stops: string[];
  /** Sampling temperature (default 1): above 0, the n choices of a prompt are distinct samples. */
  temperature: number;
}

interface Choice {
  index: number;
  prompt: Prompt;
  generation: Generation;
  /** Text returned to the caller (prompt + completion with echo). */
  text: string;
  completionTokens: string[];
  logprobs: Logprobs | null;
}

export async function createCompletion(ctx: Ctx): Promise<unknown> {
  const request = parseRequest(ctx);
  const choices = buildChoices(ctx, request);
  const id = ctx.app.ids.next('cmpl-', 29);
  const created = unixSeconds();
  if (request.stream) {
    await streamChoices(ctx, id, created, request, choices);
    return undefined;
  }
  return {
    id,
    object: ctx.fault('completion-object-wrong') ? 'completion' : 'text_completion',
    created,
    model: request.model,
    choices: choices.map((c) => ({
      text: c.text,
      index: c.index,
      logprobs: c.logprobs ?? (ctx.fault('logprobs-not-null') ? {} : null),
      finish_reason: ctx.fault('finish-reason-null') ? null : finishReason(ctx, c.generation.finishReason),
    })),
    usage: usage(ctx, request, choices),
  };
}

function parseRequest(ctx: Ctx): CompletionRequest {
  const fields = new Fields(parseJsonObject(ctx.body));
  const { id: model, contextLength } = resolveModel(ctx.app, ctx.caller, fields.string('model', { required: true }), 'completion');
  const rawPrompt = fields.raw('prompt');
  if (ctx.fault('token-prompt-rejected') && Array.isArray(rawPrompt) && rawPrompt.some((p) => typeof p !== 'string')) {
    throw invalidRequest(`${JSON.stringify(rawPrompt).slice(0, 60)} is not of type 'string' - 'prompt'`, 'prompt');
  }
  const parsedPrompts = parsePrompts(rawPrompt);
  const prompts = ctx.fault('prompt-array-first-only') ? parsedPrompts.slice(0, 1) : parsedPrompts;
  const suffix = fields.string('suffix', { allowEmpty: true });
  const maxTokens = fields.integer('max_tokens', { min: 0 }) ?? (ctx.fault('max-tokens-default-32') ? 32 : LIMITS.completionDefaultMaxTokens);
  const temperature = fields.number('temperature', {
    min: ctx.fault('temperature-negative-accepted') ? undefined : LIMITS.temperature.min,
    max: ctx.fault('temperature-2.5-accepted') ? undefined : LIMITS.temperature.max,
  }) ?? 1;
  fields.number('top_p', LIMITS.topP);
  const requestedN = fields.integer('n', LIMITS.completionN) ?? 1;
  const stream = fields.boolean('stream') ?? false;
  const logprobs = fields.integer('logprobs', ctx.fault('logprobs-6-accepted') ? { min: LIMITS.logprobs.min, max: 6 } : LIMITS.logprobs);
  const echo = fields.boolean('echo') ?? false;
  const readStops = readStop(fields, ctx.fault('stop-allows-5') ? 5 : LIMITS.stopSequences);
  const stops = ctx.fault('stop-array-first-only') ? readStops.slice(0, 1) : readStops;
  fields.number('presence_penalty', ctx.fault('presence-penalty-2.5-accepted') ? { min: LIMITS.penalty.min } : LIMITS.penalty);
  fields.number('frequency_penalty', LIMITS.penalty);
  const bestOf = fields.integer('best_of', LIMITS.bestOf);
  readLogitBias(fields, ctx.fault('logit-bias-101-accepted') ? { min: LIMITS.logitBias.min, max: 1000 } : LIMITS.logitBias, MAX_TOKEN_ID);
  fields.string('user', { allowEmpty: true });

  // best_of counts candidates per prompt, so it cannot be below n (best_of == n is accepted, see README).
  if (bestOf !== undefined && bestOf < requestedN && !ctx.fault('best-of-below-n-accepted')) {
    throw invalidRequest(`best_of must be greater than or equal to n (got best_of=${bestOf}, n=${requestedN}).`, 'best_of');
  }
  // "best_of results cannot be streamed": refused, or (the reading best-of-stream-json) answered as one result.
  const streamed = stream && !(bestOf !== undefined && bestOf > 1 && ctx.reading('best-of-stream-json'));
  if (streamed && bestOf !== undefined && bestOf > 1 && !ctx.fault('stream-best-of-accepted')) {
    throw invalidRequest('Cannot stream results with best_of > 1.', 'best_of');
  }
  const suffixTokens = suffix ? tokenize(suffix).length : 0;
  if (!ctx.fault('context-length-unchecked')) {
    // The real 2023 service counted one more ("maximum context length is 2049 tokens"): context-plus-one.
    const limit = contextLength + (ctx.reading('context-plus-one') ? 1 : 0);
    for (const prompt of prompts) checkContext(limit, prompt.tokens.length + suffixTokens, maxTokens);
  }
  const n = ctx.fault('n-ignored') ? 1 : requestedN;
  return { model, contextLength, prompts, suffixTokens, suffix: suffix ?? undefined, maxTokens, n, bestOf, stream: streamed, logprobs, echo, stops, temperature };
}

function checkContext(contextLength: number, promptTokens: number, maxTokens: number): void {
  if (promptTokens + maxTokens > contextLength) {
    throw invalidRequest(
      `This model's maximum context length is ${contextLength} tokens, however you requested ${promptTokens + maxTokens} tokens (${promptTokens} in your prompt; ${maxTokens} for the completion). Please reduce your prompt; or completion length.`,
      'max_tokens',
      'context_length_exceeded',
    );
  }
}

/** The four prompt forms of the spec, plus the omitted prompt (one end-of-document token). */
export function parsePrompts(value: unknown): Prompt[] {
  if (value === undefined || value === null) return [{ text: END_OF_TEXT, tokens: [END_OF_TEXT] }];
  if (typeof value === 'string') return [textPrompt(value)];
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidRequest(`${JSON.stringify(value)} is not valid under any of the given schemas - 'prompt'`, 'prompt');
  }
  if (value.every((v) => typeof v === 'string')) return (value as string[]).map(textPrompt);
  if (value.every((v) => typeof v === 'number')) return [tokenPrompt(value as number[])];
  if (value.every((v) => Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === 'number'))) {
    return (value as number[][]).map(tokenPrompt);
  }
  throw invalidRequest(`${JSON.stringify(value).slice(0, 80)} is not valid under any of the given schemas - 'prompt'`, 'prompt');
}

function textPrompt(text: string): Prompt {
  return { text, tokens: tokenize(text) };
}

function tokenPrompt(ids: number[]): Prompt {
  const bad = ids.find((id) => !isValidTokenId(id));
  if (bad !== undefined) {
    throw invalidRequest(`Invalid token in prompt: ${bad}. Minimum value is 0, maximum value is ${MAX_TOKEN_ID} (inclusive).`, 'prompt');
  }
  const tokens = ids.map(decodeTokenId);
  return { text: tokens.join(''), tokens };
}

function buildChoices(ctx: Ctx, req: CompletionRequest): Choice[] {
  const choices: Choice[] = [];
  const withEcho = req.echo && !ctx.fault('echo-missing-prompt');
  // Above temperature 0 the n choices of a prompt are separate samples: choice i starts i words further into
  // the cycle, so they differ (at temperature 0 they are the same text, as a deterministic model gives).
  const sampled = req.temperature > 0 && !ctx.fault('n-duplicates-first-choice');
  req.prompts.forEach((prompt, p) => {
    const source = prompt.tokens[0] === END_OF_TEXT ? sourceWords('') : sourceWords(prompt.text);
    const overrun = ctx.fault('max-tokens-plus-one') ? 1 : ctx.fault('max-tokens-exceeded-usage-capped') ? 3 : 0;
    for (let i = 0; i < req.n + (ctx.fault('n-extra-choice') ? 1 : 0); i++) {
      const shift = sampled ? i % source.length : 0;
      const words = [...source.slice(shift), ...source.slice(0, shift)];
      const generation = generate({ words, maxTokens: req.maxTokens + overrun, stops: req.stops, keepStopSequence: ctx.fault('stop-sequence-in-text') });
      const completionTokens = tokenize(generation.text);
      const logprobs =
        req.logprobs === undefined
          ? null
          : buildLogprobs({
              echoedPromptTokens: withEcho ? prompt.tokens : [],
              completionTokens,
              top: req.logprobs,
              completionOffset: prompt.text.length,
              candidates: words,
              seed: shift === 0 ? hashParts(ctx.app.options.seed, req.model, prompt.text) : hashParts(ctx.app.options.seed, req.model, prompt.text, shift),
              extraEntries: ctx.fault('top-logprobs-extra-entries') ? 2 : 0,
              placeholder: ctx.fault('logprobs-placeholder-zeros'),
            });
      if (logprobs && withEcho && ctx.fault('echo-logprobs-misaligned')) {
        logprobs.text_offset = logprobs.text_offset.map((o, k) => (k >= prompt.tokens.length ? o - prompt.text.length : o));
      }
      if (logprobs && ctx.fault('text-offset-off-by-one')) logprobs.text_offset = logprobs.text_offset.map((o) => o + 1);
      if (logprobs && ctx.fault('logprobs-never-computed')) {
        logprobs.token_logprobs = logprobs.token_logprobs.map(() => null);
        logprobs.top_logprobs = logprobs.top_logprobs.map(() => null);
      }
      const index = ctx.fault('choice-index-per-prompt') ? i : p * req.n + i;
      const appended = ctx.fault('suffix-returned-in-text') && req.suffix ? req.suffix : '';
      const text = (withEcho ? prompt.text + generation.text : generation.text) + appended;
      choices.push({ index, prompt, generation, text, completionTokens, logprobs });
    }
  });
  return choices;
}

function finishReason(ctx: Ctx, reason: FinishReason): FinishReason {
  return reason === 'stop' && ctx.fault('finish-reason-length-on-stop') ? 'length' : reason;
}

function usage(ctx: Ctx, req: CompletionRequest, choices: readonly Choice[]) {
  const promptTokens = req.prompts.reduce((sum, p) => sum + p.tokens.length + req.suffixTokens, 0);
  // Like the real service, best_of candidates all count as generated tokens.
  const candidatesPerChoice = req.bestOf !== undefined ? Math.max(1, req.bestOf / req.n) : 1;
  const generated = (c: Choice) => (ctx.fault('max-tokens-exceeded-usage-capped') ? Math.min(c.generation.generatedTokens, req.maxTokens) : c.generation.generatedTokens);
  const completionTokens = Math.round(choices.reduce((sum, c) => sum + generated(c), 0) * candidatesPerChoice);
  const total = promptTokens + completionTokens + (ctx.fault('usage-total-not-sum') ? 1 : 0);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: total };
}

interface Piece {
  text: string;
  logprobs: Logprobs | null;
}

/** Fault stream-single-chunk: the whole choice as one piece. */
function wholeChoice(choice: Choice, echo: boolean): Piece {
  return { text: echo ? choice.prompt.text + choice.generation.text : choice.generation.text, logprobs: choice.logprobs };
}

/** Splits a choice into streamed pieces: the echoed prompt (if any) then one piece per completion token. */
function piecesOf(choice: Choice, echo: boolean): Piece[] {
  const pieces: Piece[] = [];
  let cursor = 0;
  const take = (text: string, tokenCount: number) => {
    const lp = choice.logprobs ? sliceLogprobs(choice.logprobs, cursor, cursor + tokenCount) : null;
    cursor += tokenCount;
    pieces.push({ text, logprobs: lp });
  };
  if (echo) take(choice.prompt.text, choice.prompt.tokens.length);
  for (const token of choice.completionTokens) take(token, 1);
  if (pieces.length === 0) take('', 0);
  return pieces;
}

async function streamChoices(ctx: Ctx, id: string, created: number, req: CompletionRequest, choices: Choice[]): Promise<void> {
  const sse = new SseStream(ctx.res, streamBehaviour(ctx));
  const echo = req.echo && !ctx.fault('echo-missing-prompt');
  const streamed = ctx.fault('stream-n-ignored') ? choices.filter((c) => c.index === 0) : choices;
  const pieces = streamed.map((c) => (ctx.fault('stream-single-chunk') ? [wholeChoice(c, echo)] : piecesOf(c, echo)));
  const rounds = Math.max(...pieces.map((p) => p.length));
  // Choices interleave: round k carries the k-th piece of every choice that still has one.
  for (let k = 0; k < rounds && !sse.isClosed; k++) {
    for (let c = 0; c < streamed.length; c++) {
      const piece = pieces[c]![k];
      if (!piece) continue;
      const last = k === pieces[c]!.length - 1;
      const choice = streamed[c]!;
      await sse.send({
        id,
        object: 'text_completion',
        created,
        choices: [{ text: piece.text, ...chunkIndex(ctx, streamed.length, choice.index), logprobs: piece.logprobs, finish_reason: last ? finishReason(ctx, choice.generation.finishReason) : null }],
        model: req.model,
      });
    }
  }
  await sse.finish();
}
