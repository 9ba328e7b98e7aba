// Chat completion result rules: role assistant, n choices, max_tokens, the context length, stop sequences.

import { contextLengthOf } from '../../profile/profile.ts';
import { notExercised, type Finding, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { choicesOf, given, indexFindings, intField, okBody, requestJson, skipUnlessOk, stopSequences, usageCount } from '../completions/request.ts';

export const chatRoleAssistant: ResponseCheck = {
  kind: 'response',
  name: 'chat_role_assistant',
  over: '/choices/*',
  requirements: ['RES-CHAT-ROLE-ASSISTANT'],
  severity: 'must',
  summary: 'every returned message has role assistant',
  skipWhen: (ex) => skipUnlessOk(ex),
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] => {
      const role = isRecord(c.message) ? c.message.role : undefined;
      return role === 'assistant' ? [] : [{ pointer: `/choices/${i}/message/role`, message: 'a chat completion returns assistant messages', expected: 'assistant', actual: role ?? 'absent' }];
    });
  },
};

export const chatChoicesN: ResponseCheck = {
  kind: 'response',
  name: 'chat_choices_n',
  requirements: ['CHAT-N-DEFAULT', 'CHAT-N-CHOICES'],
  severity: 'must',
  summary: 'choices holds n entries (default 1) with indices 0..n-1 each once',
  skipWhen: (ex, ctx) => (intField(requestJson(ctx), 'n', 1) === undefined ? 'n is not an integer in the request' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const n = intField(requestJson(ctx), 'n', 1)!;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const count = got.choices.length === n ? [] : [{ pointer: '/choices', message: `n=${n} asks for ${n} choices`, expected: n, actual: got.choices.length }];
    return [...count, ...indexFindings(got.choices.map((c) => c.index), n, (i) => `/choices/${i}/index`, 'choice')];
  },
};

export const chatMaxTokensBound: ResponseCheck = {
  kind: 'response',
  name: 'chat_max_tokens_bound',
  requirements: ['CHAT-MAX-TOKENS-BOUND'],
  severity: 'must',
  summary: 'usage.completion_tokens ≤ max_tokens per choice',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (typeof given(json, 'max_tokens') !== 'number') return 'the request sets no max_tokens';
    if (intField(json, 'n', 1) === undefined) return 'n is not an integer in the request';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const bound = (json.max_tokens as number) * intField(json, 'n', 1)!;
    const used = usageCount(okBody(ex)!, 'completion_tokens');
    if (used === undefined) return [{ pointer: '/usage/completion_tokens', message: 'usage.completion_tokens is missing', expected: `≤ ${bound}`, actual: 'absent' }];
    return used <= bound ? [] : [{ pointer: '/usage/completion_tokens', message: `more tokens generated than max_tokens ${String(json.max_tokens)} allows`, expected: `≤ ${bound}`, actual: used }];
  },
};

export const chatWithinContext: ResponseCheck = {
  kind: 'response',
  name: 'chat_within_context',
  requirements: ['CHAT-MAX-TOKENS-DEFAULT', 'LIMIT-CONTEXT-LENGTH'],
  severity: 'must',
  summary: 'input plus generated tokens stay within the model context length (max_tokens default: unbounded)',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (typeof json.model !== 'string') return 'the request names no model';
    if (intField(json, 'n', 1) !== 1) return 'n > 1: usage counts several choices together';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const model = requestJson(ctx).model as string;
    const context = contextLengthOf(ctx.profile, model);
    if (context === undefined) return notExercised(`the context length of ${model} is not known (add it to context_lengths in the config file)`);
    const body = okBody(ex)!;
    const p = usageCount(body, 'prompt_tokens');
    const c = usageCount(body, 'completion_tokens');
    if (p === undefined || c === undefined) return [{ pointer: '/usage', message: 'usage.prompt_tokens or completion_tokens is missing', expected: 'both', actual: body.usage ?? 'absent' }];
    return p + c <= context ? [] : [{ pointer: '/usage', message: `input plus generated tokens exceed the context length ${context} of ${model}`, expected: `≤ ${context}`, actual: p + c }];
  },
};

export const chatStopExcluded: ResponseCheck = {
  kind: 'response',
  name: 'chat_stop_excluded',
  requirements: ['CHAT-STOP-EXCLUDED'],
  severity: 'should',
  summary: 'no returned message content contains a stop sequence',
  skipWhen: (ex, ctx) => (stopSequences(requestJson(ctx)).length === 0 ? 'the request has no stop sequence' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const stops = stopSequences(requestJson(ctx));
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] => {
      const content = isRecord(c.message) ? c.message.content : undefined;
      if (typeof content !== 'string') return [];
      const stop = stops.find((s) => content.includes(s));
      return stop === undefined ? [] : [{ pointer: `/choices/${i}/message/content`, message: `the message contains the stop sequence ${JSON.stringify(stop)}`, expected: `no ${JSON.stringify(stop)}`, actual: content.slice(0, 200) }];
    });
  },
};

/**
 * The calibrated probe for chat (suites/chat.yaml, stop-probe-*): the same request at temperature 0 without stop
 * gave `observed`; a piece from its middle became the stop sequence. A stop stops: the content must not go on past
 * that piece's first occurrence. Whether the piece itself is left out is CHAT-STOP-EXCLUDED (should: the spec states
 * the exclusion for completions only). A content that differs from the observed one before the stop means
 * temperature 0 did not repeat itself: not exercised, never a pass.
 */
export const chatStopHonoured: ResponseCheck = {
  kind: 'response',
  name: 'chat_stop_honoured',
  requirements: ['CHAT-STOP-HONOURED'],
  severity: 'must',
  summary: 'with a stop sequence taken from the content the same request produced, the content goes no further than it',
  params: { observed: { kind: 'string', required: true, doc: 'the content the same request produced without stop' } },
  skipWhen: (ex, ctx) => (typeof ctx.params['observed'] !== 'string' ? 'needs with: { observed } (the content of the probe without stop)' : stopSequences(requestJson(ctx)).length !== 1 ? 'needs exactly one stop sequence' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const observed = ctx.params['observed'] as string;
    const stop = stopSequences(requestJson(ctx))[0]!;
    const at = observed.indexOf(stop);
    if (at <= 0) return notExercised(`the observed content does not contain the stop sequence ${JSON.stringify(stop)} after its start`);
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const first = got.choices[0];
    const content = first && isRecord(first.message) ? first.message.content : undefined;
    if (typeof content !== 'string') return notExercised('the answer has no message content to judge');
    const before = observed.slice(0, at);
    if (!content.startsWith(before) && !before.startsWith(content)) return notExercised('at temperature 0 the content differs from the observed one before the stop sequence: the probe could not work');
    const most = before + stop;
    return content.length <= most.length ? [] : [{ pointer: '/choices/0/message/content', message: `the content goes on past the stop sequence ${JSON.stringify(stop)}: the stop was ignored`, expected: `at most ${JSON.stringify(most)}`, actual: content.slice(0, 200) }];
  },
};

/** CHAT-FINISH-REASON (should): length only when max_tokens (or the context) was reached; else stop. */
export const chatFinishReasonMeaning: ResponseCheck = {
  kind: 'response',
  name: 'chat_finish_reason_meaning',
  requirements: ['CHAT-FINISH-REASON'],
  severity: 'should',
  summary: 'finish_reason is length only when max_tokens or the context length was reached, stop otherwise',
  skipWhen: (ex, ctx) => (intField(requestJson(ctx), 'n', 1) !== 1 ? 'n > 1: usage counts several choices together' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const body = okBody(ex)!;
    const got = choicesOf(body);
    if ('finding' in got) return [got.finding];
    const reason = got.choices[0]?.finish_reason;
    const p = usageCount(body, 'prompt_tokens');
    const c = usageCount(body, 'completion_tokens');
    if (got.choices.length !== 1 || p === undefined || c === undefined) return [{ pointer: '/usage', message: 'needs exactly one choice and usage counts', expected: 'both', actual: { choices: got.choices.length, usage: body.usage ?? 'absent' } }];
    const m = typeof given(json, 'max_tokens') === 'number' ? (json.max_tokens as number) : undefined;
    const model = typeof json.model === 'string' ? json.model : '';
    const context = contextLengthOf(ctx.profile, model);
    const reached = (m !== undefined && c >= m) || (context !== undefined && p + c >= context);
    if (reason === 'length' && !reached && context === undefined) return notExercised(`finish_reason length before max_tokens, and the context length of ${model} is not known`);
    if (reason === 'length' && !reached) return [{ pointer: '/choices/0/finish_reason', message: `finish_reason length, yet neither max_tokens (${m ?? 'unset'}) nor the context length was reached (${c} tokens generated)`, expected: 'stop', actual: reason }];
    if (reason !== 'length' && reason !== 'stop') return [{ pointer: '/choices/0/finish_reason', message: 'finish_reason is neither stop nor length', expected: 'stop or length', actual: reason ?? 'absent' }];
    return [];
  },
};
