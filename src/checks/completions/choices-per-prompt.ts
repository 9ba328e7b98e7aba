// Create completion: n is "completions per prompt" (default 1); prompt may be an array of k prompts.
// So choices has n × k entries, and their index values are 0..n×k-1, each exactly once.

import type { ResponseCheck } from '../types.ts';
import { choicesOf, indexFindings, intField, okBody, promptCount, requestJson, skipUnlessOk } from './request.ts';

export const completionChoicesPerPrompt: ResponseCheck = {
  kind: 'response',
  name: 'completion_choices_per_prompt',
  requirements: ['COMP-N-DEFAULT', 'COMP-N-CHOICES', 'COMP-PROMPT-STRING-ARRAY', 'COMP-PROMPT-TOKEN-ARRAYS', 'COMP-BEST-OF-GT-N'],
  severity: 'must',
  summary: 'choices holds n completions per prompt (n default 1), indices 0..n×prompts-1 each once',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (intField(json, 'n', 1) === undefined) return 'n is not an integer in the request';
    if (promptCount(json.prompt) === undefined) return 'the prompt is none of the four forms of the spec';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const n = intField(json, 'n', 1)!;
    const prompts = promptCount(json.prompt)!;
    const k = n * prompts;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const findings = got.choices.length === k ? [] : [{ pointer: '/choices', message: `${prompts} prompt(s) × n=${n} must give ${k} choices`, expected: k, actual: got.choices.length }];
    return [...findings, ...indexFindings(got.choices.map((c) => c.index), k, (i) => `/choices/${i}/index`, 'choice')];
  },
};
