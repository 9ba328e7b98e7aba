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
    const findings = got.choices.flatMap((c, i): Finding[] => {
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
    // Excluding a stop sequence that was never reached shows nothing: a choice that ended for another reason
    // (length) passes on any server. Only a choice that stopped exercised the rule.
    if (findings.length === 0 && !got.choices.some((c) => c.finish_reason === 'stop')) return notExercised('no choice ended on a stop sequence (finish_reason is never stop)');
    return findings;
  },
};

/**
 * The calibrated probe (see suites/completions.yaml, stop-probe-*): the same request was first sent without stop
 * at temperature 0, and a piece from the middle of that observed text became the stop sequence. The answer must
 * be the observed text cut right before the stop's first occurrence: ignoring the stop, including it, or cutting
 * elsewhere is a failure. When the second answer shares no prefix with the first, temperature 0 did not repeat
 * itself and the probe could not work: not exercised, never a pass.
 */
export const completionStopCalibrated: ResponseCheck = {
  kind: 'response',
  name: 'completion_stop_calibrated',
  after: ['completion_stop_excluded'],
  requirements: ['COMP-STOP-EXCLUDED', 'COMP-STOP-STRING'],
  severity: 'must',
  summary: 'with a stop sequence taken from the text the same request produced, the text ends right before it',
  params: { observed: { kind: 'string', required: true, doc: 'the text the same request produced without stop' } },
  skipWhen: (ex, ctx) => (typeof ctx.params['observed'] !== 'string' ? 'needs with: { observed } (the text of the probe without stop)' : stopSequences(requestJson(ctx)).length !== 1 ? 'needs exactly one stop sequence' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const observed = ctx.params['observed'] as string;
    const stop = stopSequences(requestJson(ctx))[0]!;
    const at = observed.indexOf(stop);
    if (at <= 0) return notExercised(`the observed text does not contain the stop sequence ${JSON.stringify(stop)} after its start`);
    const expected = observed.slice(0, at);
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const text = got.choices[0]?.text;
    if (typeof text !== 'string') return notExercised('the answer has no text to judge');
    if (text === expected) return [];
    const pointer = '/choices/0/text';
    if (text.includes(stop)) return [{ pointer, message: `the text goes on past the stop sequence ${JSON.stringify(stop)} (it was ignored or included)`, expected: JSON.stringify(expected), actual: text.slice(0, 200) }];
    if (observed.startsWith(text) && text.length < expected.length) return [{ pointer, message: `the text stops before the stop sequence ${JSON.stringify(stop)} was reached`, expected: JSON.stringify(expected), actual: text.slice(0, 200) }];
    if (text.startsWith(expected)) return [{ pointer, message: `the text does not end where the stop sequence ${JSON.stringify(stop)} begins`, expected: JSON.stringify(expected), actual: text.slice(0, 200) }];
    return notExercised('at temperature 0 the answer differs from the observed text before the stop sequence: the probe could not work');
  },
};
