// POST /v1/chat/completions
import type { Ctx } from './context.ts';
import { generate, sourceWords } from './generator.ts';
import type { Generation } from './generator.ts';
import { invalidRequest } from './http-errors.ts';
import { LIMITS } from './limits.ts';
import { resolveModel } from './models.ts';
import { unixSeconds } from './random.ts';
import { SseStream } from './sse.ts';
import { chunkIndex, streamBehaviour } from './streaming.ts';
import { MAX_TOKEN_ID, countTokens, tokenize } from './tokenizer.ts';
import { Fields, parseJsonObject, readLogitBias, readStop } from './validate.ts';

const CHAT_ROLES = ['system', 'user', 'assistant'] as const;

/** Token accounting of a chat prompt: every message costs its content tokens + 4, the reply primer 3. */
export const CHAT_TOKENS_PER_MESSAGE = 4;
export const CHAT_TOKENS_REPLY_PRIMER = 3;

interface Message {
  role: string;
  content: string;
}

export async function createChatCompletion(ctx: Ctx): Promise<unknown> {
  const fields = new Fields(parseJsonObject(ctx.body));
  const { id: model, contextLength } = resolveModel(ctx.app, ctx.caller, fields.string('model', { required: true }), 'chat', {
    anyKnownModel: ctx.fault('chat-accepts-completion-model'),
  });
  const messages = readMessages(fields, ctx.fault('chat-empty-messages-accepted') || ctx.reading('chat-empty-messages'));
  const temperature = fields.number('temperature', ctx.fault('chat-temperature-2.5-accepted') ? { min: LIMITS.temperature.min } : LIMITS.temperature) ?? 1;
  fields.number('top_p', LIMITS.topP);
  const requestedN = fields.integer('n', LIMITS.completionN) ?? 1;
  const n = ctx.fault('chat-n-ignored') ? 1 : requestedN;
  const stream = fields.boolean('stream') ?? false;
  const stops = readStop(fields, LIMITS.stopSequences);
  const maxTokensRead = fields.integer('max_tokens', { min: 1 });
  const maxTokensRequested = ctx.fault('chat-max-tokens-ignored') ? undefined : maxTokensRead;
  fields.number('presence_penalty', LIMITS.penalty);
  fields.number('frequency_penalty', LIMITS.penalty);
  readLogitBias(fields, LIMITS.logitBias, MAX_TOKEN_ID);
  fields.string('user', { allowEmpty: true });

  const promptTokens = messages.reduce((sum, m) => sum + countTokens(m.content) + CHAT_TOKENS_PER_MESSAGE, CHAT_TOKENS_REPLY_PRIMER);
  // Default: whatever the context leaves. "input plus generated tokens limited by model context length" puts no bound
  // on the requested max_tokens: the reading chat-context-caps generates up to the context instead of refusing.
  const room = contextLength - promptTokens;
  const maxTokens = maxTokensRequested === undefined ? room : ctx.reading('chat-context-caps') && room >= 1 ? Math.min(maxTokensRequested, room) : maxTokensRequested;
  if (promptTokens + Math.max(maxTokens, 1) > contextLength) {
    throw invalidRequest(
      `This model's maximum context length is ${contextLength} tokens. However, you requested ${promptTokens + Math.max(maxTokens, 1)} tokens (${promptTokens} in the messages, ${Math.max(maxTokens, 1)} in the completion). Please reduce the length of the messages or completion.`,
      'messages',
      'context_length_exceeded',
    );
  }
  const lastUser = [...messages].reverse().find((m) => m.role === 'user') ?? messages[messages.length - 1];
  const source = sourceWords(lastUser?.content ?? '');
  // Above temperature 0 the n choices are separate samples: choice i starts i words further into the message.
  const sampled = temperature > 0 && !ctx.fault('chat-n-duplicates');
  const generations = Array.from({ length: n }, (_, i) => {
    const shift = sampled ? i % source.length : 0;
    const words = [...source.slice(shift), ...source.slice(0, shift)];
    // For chat the spec does not say the stop sequence is left out (chat-stop-included keeps it, and stops there).
    return generate({ words, maxTokens, naturalLength: words.length, noLeadingSpace: true, stops: ctx.fault('chat-stop-ignored') ? [] : stops, keepStopSequence: ctx.reading('chat-stop-included') });
  });
  const completionTokens = generations.reduce((sum, g) => sum + g.generatedTokens, 0);
  const id = ctx.app.ids.next('chatcmpl-', 29);
  const created = unixSeconds();
  const role = ctx.fault('chat-role-bot') ? 'bot' : 'assistant';
  if (stream) {
    await streamChat(ctx, { id, created, model, role, generations });
    return undefined;
  }
  return {
    id,
    object: ctx.fault('chat-object-wrong') ? 'chat.completions' : 'chat.completion',
    created,
    model,
    choices: generations.map((generation, index) => ({
      index: ctx.fault('chat-index-all-zero') ? 0 : index,
      message: { role, content: generation.text },
      finish_reason: ctx.fault('chat-finish-reason-null') ? null : generation.finishReason,
    })),
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens + (ctx.fault('chat-usage-total-not-sum') ? 1 : 0),
    },
  };
}

function readMessages(fields: Fields, allowEmpty: boolean): Message[] {
  const value = fields.raw('messages');
  if (value === undefined || value === null) throw invalidRequest("'messages' is a required property", 'messages');
  if (!Array.isArray(value)) throw invalidRequest(`${JSON.stringify(value).slice(0, 60)} is not of type 'array' - 'messages'`, 'messages');
  if (value.length === 0 && !allowEmpty) throw invalidRequest("[] is too short - 'messages'", 'messages');
  return value.map((m, i) => {
    if (typeof m !== 'object' || m === null || Array.isArray(m)) {
      throw invalidRequest(`${JSON.stringify(m)} is not of type 'object' - 'messages.${i}'`, `messages.[${i}]`);
    }
    const { role, content } = m as Record<string, unknown>;
    if (typeof role !== 'string' || !(CHAT_ROLES as readonly string[]).includes(role)) {
      throw invalidRequest(`${JSON.stringify(role)} is not one of ['system', 'assistant', 'user'] - 'messages.${i}.role'`, `messages.[${i}].role`);
    }
    if (typeof content !== 'string') {
      throw invalidRequest(`${JSON.stringify(content) ?? 'undefined'} is not of type 'string' - 'messages.${i}.content'`, `messages.[${i}].content`);
    }
    return { role, content };
  });
}

interface StreamPlan {
  id: string;
  created: number;
  model: string;
  role: string;
  /** One per choice. */
  generations: Generation[];
}

async function streamChat(ctx: Ctx, plan: StreamPlan): Promise<void> {
  const sse = new SseStream(ctx.res, streamBehaviour(ctx));
  const chunk = (index: number, delta: Record<string, string>, finish: string | null) => ({
    id: plan.id,
    object: 'chat.completion.chunk',
    created: plan.created,
    model: plan.model,
    choices: [{ ...chunkIndex(ctx, plan.generations.length, index), delta, finish_reason: finish }],
  });
  const deltas = plan.generations.map((g): Record<string, string>[] => [{ role: plan.role }, ...tokenize(g.text).map((content) => ({ content }))]);
  const rounds = Math.max(...deltas.map((d) => d.length));
  // n > 1 interleaves choices: every round sends the same position of each choice that still has one.
  for (let k = 0; k < rounds; k++) {
    for (const [index, d] of deltas.entries()) if (d[k]) await sse.send(chunk(index, d[k]!, null));
    if (sse.isClosed) return;
  }
  if (!ctx.fault('stream-chat-no-finish-chunk')) {
    for (const [index, g] of plan.generations.entries()) await sse.send(chunk(index, {}, g.finishReason));
  }
  await sse.finish();
}
