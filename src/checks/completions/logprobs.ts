// Create completion, logprobs (default null, max 5): "response includes logprobs for the sampled token too,
// so up to logprobs+1 entries". Text completion result: logprobs is an object or null; when non-null it holds
// text_offset, token_logprobs, tokens and top_logprobs — four arrays describing the same tokens.

import { notExercised, type Finding, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { choicesOf, given, okBody, requestJson, skipUnlessOk } from './request.ts';

const LOGPROB_ARRAYS = ['tokens', 'token_logprobs', 'text_offset', 'top_logprobs'] as const;

function requested(json: Record<string, unknown>): number | undefined {
  const v = given(json, 'logprobs');
  return typeof v === 'number' ? v : undefined;
}

export const completionLogprobsNullByDefault: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_null_by_default',
  requirements: ['COMP-LOGPROBS-DEFAULT-NULL'],
  severity: 'must',
  summary: 'without logprobs in the request every choice has logprobs: null (default null)',
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) !== undefined ? 'the request asks for logprobs' : skipUnlessOk(ex)),
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] =>
      c.logprobs === null ? [] : [{ pointer: `/choices/${i}/logprobs`, message: 'logprobs was not requested, so it must be null', expected: null, actual: 'logprobs' in c ? c.logprobs : 'absent' }]);
  },
};

export const completionLogprobsPresent: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_present',
  requirements: ['COMP-LOGPROBS-PRESENT'],
  severity: 'must',
  summary: 'with logprobs k every choice carries a logprobs object',
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex)),
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] =>
      isRecord(c.logprobs) ? [] : [{ pointer: `/choices/${i}/logprobs`, message: 'logprobs was requested, so each choice carries a logprobs object', expected: 'an object', actual: c.logprobs ?? 'null/absent' }]);
  },
};

function logprobObjects(ex: Parameters<ResponseCheck['run']>[0]): Array<{ pointer: string; lp: Record<string, unknown> }> {
  const got = choicesOf(okBody(ex)!);
  if ('finding' in got) return [];
  return got.choices.flatMap((c, i) => (isRecord(c.logprobs) ? [{ pointer: `/choices/${i}/logprobs`, lp: c.logprobs }] : []));
}

export const completionLogprobsAligned: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_aligned',
  after: ['completion_logprobs_present'],
  requirements: ['RES-COMPLETION-LOGPROBS-ALIGNED'],
  severity: 'must',
  summary: 'tokens, token_logprobs, text_offset and top_logprobs have one entry per returned token (equal lengths)',
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex)),
  run: (ex) => {
    const objects = logprobObjects(ex);
    if (objects.length === 0) return notExercised('the answer has no logprobs object (completion_logprobs_present judges whether it must)');
    return objects.flatMap(({ pointer, lp }): Finding[] => {
      const lengths = Object.fromEntries(LOGPROB_ARRAYS.map((k) => [k, Array.isArray(lp[k]) ? (lp[k] as unknown[]).length : undefined]));
      const values = Object.values(lengths);
      if (values.some((v) => v === undefined)) return [{ pointer, message: 'a logprobs array is missing', expected: LOGPROB_ARRAYS.join(', '), actual: lengths }];
      return new Set(values).size === 1 ? [] : [{ pointer, message: 'the four logprobs arrays describe the same tokens, so their lengths must be equal', expected: 'equal lengths', actual: lengths }];
    });
  },
};

export const completionTopLogprobsCount: ResponseCheck = {
  kind: 'response',
  name: 'completion_top_logprobs_count',
  over: '/choices/*/logprobs/top_logprobs/*',
  after: ['completion_logprobs_present'],
  requirements: ['COMP-LOGPROBS-TOP-COUNT'],
  severity: 'must',
  summary: 'every top_logprobs map has at most logprobs+1 entries',
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const k = requested(requestJson(ctx))!;
    const objects = logprobObjects(ex);
    if (objects.length === 0) return notExercised('the answer has no logprobs object (completion_logprobs_present judges whether it must)');
    const findings: Finding[] = [];
    for (const { pointer, lp } of objects) {
      if (!Array.isArray(lp.top_logprobs)) { findings.push({ pointer: `${pointer}/top_logprobs`, message: 'top_logprobs is missing', expected: 'an array', actual: lp.top_logprobs ?? 'absent' }); continue; }
      lp.top_logprobs.forEach((map, t) => {
        if (isRecord(map) && Object.keys(map).length > k + 1) {
          findings.push({ pointer: `${pointer}/top_logprobs/${t}`, message: `logprobs ${k} allows at most ${k + 1} entries per token`, expected: `≤ ${k + 1}`, actual: Object.keys(map).length });
        }
      });
    }
    return findings;
  },
};

/**
 * text_offset says where each token sits in the text. Two readings exist without echo (offsets into the returned
 * text, or into prompt + completion as the real service counts), so the first offset may be 0 or the prompt's
 * length there; with echo the returned text starts with the prompt and both readings give 0. Under either reading
 * the tokens are consecutive pieces of the text: each offset is the previous one plus the previous token's length,
 * and the tokens joined are the text. Byte tokens (`bytes:…`) of split UTF-8 characters cannot be joined, so a
 * choice with one is not judged.
 */
export const completionLogprobsOffsets: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_offsets',
  after: ['completion_logprobs_aligned'],
  requirements: ['RES-COMPLETION-LOGPROBS-ALIGNED'],
  severity: 'must',
  summary: 'text_offset points at each token in the text: consecutive tokens, joined they are the text',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (requested(json) === undefined) return 'the request does not ask for logprobs';
    if (typeof json.prompt !== 'string') return 'needs one text prompt';
    // A stop sequence may begin inside a token: how such a token is shown is not written anywhere.
    if (given(json, 'stop') !== undefined && given(json, 'stop') !== null) return 'the request has stop sequences';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const prompt = json.prompt as string;
    const echo = given(json, 'echo') === true;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const judged = got.choices.flatMap((c, i) => {
      const lp = c.logprobs;
      if (!isRecord(lp) || typeof c.text !== 'string' || !Array.isArray(lp.tokens) || !Array.isArray(lp.text_offset)) return [];
      const tokens = lp.tokens as unknown[];
      const offsets = lp.text_offset as unknown[];
      if (tokens.length === 0 || tokens.length !== offsets.length || !tokens.every((t) => typeof t === 'string' && !t.startsWith('bytes:'))) return [];
      return [{ i, text: c.text, tokens: tokens as string[], offsets }];
    });
    if (judged.length === 0) return notExercised('no choice has text tokens with as many offsets to compare');
    return judged.flatMap(({ i, text, tokens, offsets }): Finding[] => {
      const pointer = `/choices/${i}/logprobs/text_offset`;
      const starts = echo ? [0] : [0, prompt.length];
      if (!starts.includes(offsets[0] as number)) return [{ pointer: `${pointer}/0`, message: echo ? 'with echo the first token is the start of the returned text' : 'the first token sits at the start of the text (or after the prompt)', expected: starts.join(' or '), actual: offsets[0] }];
      for (let k = 1; k < tokens.length; k++) {
        const want = (offsets[k - 1] as number) + tokens[k - 1]!.length;
        if (offsets[k] !== want) return [{ pointer: `${pointer}/${k}`, message: `token ${k} (${JSON.stringify(tokens[k])}) follows token ${k - 1} (${JSON.stringify(tokens[k - 1])}), so its offset is the previous offset plus that token's length`, expected: want, actual: offsets[k] }];
      }
      return tokens.join('') === text ? [] : [{ pointer: `/choices/${i}/logprobs/tokens`, message: 'the tokens joined are the returned text', expected: text.slice(0, 120), actual: tokens.join('').slice(0, 120) }];
    });
  },
};
