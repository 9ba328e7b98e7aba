// Create completion, stop: "up to 4 sequences; returned text excludes the stop sequence". Generation ends at
// the first stop sequence, so no stop sequence occurs in a returned completion (whether or not one was hit).
// With echo the returned text starts with the prompt, which may contain a stop sequence: only the part after
// the prompt is checked.

import { notExercised, type Finding, type ResponseCheck } from '../types.ts';
import { choicesOf, given, intField, okBody, requestJson, skipUnlessOk, stopSequences, textPrompts } from './request.ts';

export function firstStopIn(text: string, stops: readonly string[]): string | undefined {
  return stops.find((s) => text.includes(s));
}

export const completionStopExcluded: ResponseCheck = {
  kind: 'response',
  name: 'completion_stop_excluded',
  requirements: ['COMP-STOP-EXCLUDED'],
  severity: 'must',
  summary: 'no returned completion contains a stop sequence',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (stopSequences(json).length === 0) return 'the request has no stop sequence';
    if (given(json, 'echo') === true && !textPrompts(json.prompt)) return 'echo with a token prompt: the echoed prompt cannot be told apart from the completion';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const stops = stopSequences(json);
    const echo = given(json, 'echo') === true;
    const prompts = textPrompts(json.prompt) ?? [];
    const n = intField(json, 'n', 1) ?? 1;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] => {
      if (typeof c.text !== 'string') return [{ pointer: `/choices/${i}/text`, message: 'text is not a string', expected: 'a string', actual: c.text ?? 'absent' }];
      let text = c.text;
      if (echo) {
        const index = typeof c.index === 'number' ? c.index : i;
        const prompt = prompts[Math.floor(index / n)] ?? '';
        if (text.startsWith(prompt)) text = text.slice(prompt.length);
      }
      const stop = firstStopIn(text, stops);
      return stop === undefined ? [] : [{ pointer: `/choices/${i}/text`, message: `the returned text contains the stop sequence ${JSON.stringify(stop)}`, expected: `no ${JSON.stringify(stop)}`, actual: c.text.slice(0, 200) }];
    });
  },
};
