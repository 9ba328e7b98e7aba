// Text completion result: finish_reason is a string; `length` and `stop` occur (other values: not shown, so
// flagged as a warning). The meaning of the two values (length = max_tokens reached) is not written in the
// spec either: a convention, checked as a warning.

import type { Finding, ResponseCheck } from '../types.ts';
import { choicesOf, given, intField, okBody, promptCount, requestJson, skipUnlessOk, usageCount } from './request.ts';
import { COMPLETION_DEFAULT_MAX_TOKENS } from './max-tokens-bound.ts';

const KNOWN = ['stop', 'length'];

export const completionFinishReasonKnown: ResponseCheck = {
  kind: 'response',
  name: 'completion_finish_reason_known',
  over: '/choices/*',
  requirements: ['RES-COMPLETION-FINISH-REASON', 'COMP-FINISH-REASON-MEANING'],
  severity: 'should',
  summary: 'finish_reason is one of the values the spec shows (stop, length)',
  skipWhen: (ex) => skipUnlessOk(ex),
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    return got.choices.flatMap((c, i): Finding[] =>
      KNOWN.includes(c.finish_reason as string) ? [] : [{ pointer: `/choices/${i}/finish_reason`, message: 'finish_reason is not one of the values the spec shows', expected: 'stop or length', actual: c.finish_reason ?? 'absent' }]);
  },
};

export const completionFinishReasonMeaning: ResponseCheck = {
  kind: 'response',
  name: 'completion_finish_reason_meaning',
  requirements: ['COMP-FINISH-REASON-MEANING'],
  severity: 'should',
  summary: 'finish_reason length only when max_tokens was reached; stop when fewer tokens were generated',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (intField(json, 'n', 1) !== 1 || given(json, 'best_of') !== undefined || promptCount(json.prompt) !== 1) return 'needs one prompt, n=1 and no best_of, so that usage counts exactly one completion';
    if (intField(json, 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS) === undefined) return 'max_tokens is not an integer';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const m = intField(requestJson(ctx), 'max_tokens', COMPLETION_DEFAULT_MAX_TOKENS)!;
    const body = okBody(ex)!;
    const used = usageCount(body, 'completion_tokens');
    const got = choicesOf(body);
    if ('finding' in got) return [got.finding];
    const reason = got.choices[0]?.finish_reason;
    if (used === undefined || got.choices.length !== 1) return [{ pointer: '/usage', message: 'needs usage.completion_tokens and exactly one choice', expected: 'both', actual: { choices: got.choices.length, completion_tokens: used ?? 'absent' } }];
    if (reason === 'length' && used < m) return [{ pointer: '/choices/0/finish_reason', message: `finish_reason length, yet only ${used} of max_tokens ${m} tokens were generated`, expected: 'stop', actual: reason }];
    return [];
  },
};
