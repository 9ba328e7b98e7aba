// Create completion: max_tokens (default 16) bounds the generated tokens of each completion.
// usage.completion_tokens counts every generated candidate (the real service counts all best_of candidates),
// so the bound is max_tokens × max(n, best_of) × prompts.

import { notExercised, type Finding, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { choicesOf, given, intField, okBody, promptCount, requestJson, skipUnlessOk, usageCount } from './request.ts';

export const COMPLETION_DEFAULT_MAX_TOKENS = 16;

export const completionMaxTokensBound: ResponseCheck = {
  kind: 'response',
  name: 'completion_max_tokens_bound',
  requirements: ['COMP-MAX-TOKENS-DEFAULT', 'COMP-MAX-TOKENS-BOUND'],
  severity: 'must',
  summary: 'usage.completion_tokens ≤ max_tokens (default 16) per generated completion',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (intField(json, 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS) === undefined) return 'max_tokens is not an integer in the request';
    if (intField(json, 'n', 1) === undefined || intField(json, 'best_of', 1) === undefined) return 'n or best_of is not an integer in the request';
    if (promptCount(json.prompt) === undefined) return 'the prompt is none of the four forms of the spec';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const m = intField(json, 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS)!;
    const candidates = Math.max(intField(json, 'n', 1)!, intField(json, 'best_of', 1)!);
    const prompts = promptCount(json.prompt)!;
    const bound = m * candidates * prompts;
    const used = usageCount(okBody(ex)!, 'completion_tokens');
    if (used === undefined) return [{ pointer: '/usage/completion_tokens', message: 'usage.completion_tokens is missing', expected: `a number ≤ ${bound}`, actual: 'absent' }];
    const what = given(json, 'max_tokens') === undefined ? `the default max_tokens ${m}` : `max_tokens ${m}`;
    return used <= bound ? [] : [{ pointer: '/usage/completion_tokens', message: `more tokens generated than ${what} allows (${candidates} candidate(s) per prompt × ${prompts} prompt(s))`, expected: `≤ ${bound}`, actual: used }];
  },
};

/**
 * The server's own tokens bound the text: with logprobs, `tokens` lists the returned completion's tokens, so
 * without echo there are at most max_tokens of them. Unlike usage, which a server computes separately, this
 * counts what was actually returned. Not exercised when no choice carries tokens.
 */
export const completionLogprobsWithinMaxTokens: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_within_max_tokens',
  after: ['completion_logprobs_aligned'],
  requirements: ['COMP-MAX-TOKENS-BOUND'],
  severity: 'must',
  summary: 'with logprobs and without echo, each choice lists at most max_tokens (default 16) tokens',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (given(json, 'logprobs') === undefined || given(json, 'logprobs') === null) return 'the request does not ask for logprobs';
    if (given(json, 'echo') === true) return 'with echo the tokens include the prompt';
    if (intField(json, 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS) === undefined) return 'max_tokens is not an integer in the request';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const m = intField(requestJson(ctx), 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS)!;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const counted = got.choices.flatMap((c, i) => {
      const tokens = isRecord(c.logprobs) && Array.isArray(c.logprobs.tokens) ? c.logprobs.tokens : undefined;
      return tokens ? [{ i, n: tokens.length }] : [];
    });
    if (counted.length === 0) return notExercised('no choice lists its tokens');
    return counted.flatMap(({ i, n }): Finding[] => (n <= m ? [] : [{ pointer: `/choices/${i}/logprobs/tokens`, message: `the choice has more tokens than max_tokens ${m} allows`, expected: `≤ ${m} tokens`, actual: n }]));
  },
};

/**
 * The calibrated max_tokens probe (suites/completions.yaml, max-tokens-probe): the same request without a lower
 * limit produced `observed` (`observed_tokens` by the target's own usage); now max_tokens is half of that. The
 * text must not be the whole observed text, nor go beyond it. When the observed text was no longer than the new
 * limit, the limit could not take effect: not exercised, never a pass.
 */
export const completionMaxTokensCalibrated: ResponseCheck = {
  kind: 'response',
  name: 'completion_max_tokens_calibrated',
  after: ['completion_max_tokens_bound'],
  requirements: ['COMP-MAX-TOKENS-BOUND'],
  severity: 'must',
  summary: 'with max_tokens below the length the same request produced, the text is cut short',
  params: { observed: { kind: 'string', required: true, doc: 'the text the same request produced without the lower max_tokens' }, observed_tokens: { kind: 'number', required: true, doc: 'its completion_tokens' } },
  skipWhen: (ex, ctx) => (typeof ctx.params['observed'] !== 'string' || typeof ctx.params['observed_tokens'] !== 'number' ? 'needs with: { observed, observed_tokens } (the probe without the lower limit)' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const observed = ctx.params['observed'] as string;
    const observedTokens = ctx.params['observed_tokens'] as number;
    const m = intField(requestJson(ctx), 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS)!;
    if (observedTokens <= m) return notExercised(`the observed text had ${observedTokens} tokens, no more than max_tokens ${m}: the limit could not take effect`);
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const text = got.choices[0]?.text;
    if (typeof text !== 'string') return notExercised('the answer has no text to judge');
    const pointer = '/choices/0/text';
    if (text === observed || text.startsWith(observed)) return [{ pointer, message: `the text is the whole text of ${observedTokens} tokens the same request gave without the limit: max_tokens ${m} did not cut it`, expected: `a prefix of ${JSON.stringify(observed.slice(0, 80))} of at most ${m} tokens`, actual: text.slice(0, 200) }];
    if (observed.startsWith(text)) return [];
    return notExercised('at temperature 0 the answer differs from the observed text: the probe could not work');
  },
};
