// Create completion: max_tokens (default 16) bounds the generated tokens of each completion.
// usage.completion_tokens counts every generated candidate (the real service counts all best_of candidates),
// so the bound is max_tokens × max(n, best_of) × prompts.

import type { ResponseCheck } from '../types.ts';
import { given, intField, okBody, promptCount, requestJson, skipUnlessOk, usageCount } from './request.ts';

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
