// n: "completions per prompt" / "choices per input". Above temperature 0 they are separate samples: a server that
// returns one sample n times has the count right and the meaning wrong. Identical samples are possible (a short,
// low-entropy answer), so this is a should, and at temperature 0 (where identical answers are expected) it is not
// exercised. The real service gave distinct choices in every n > 1 recording of completions and chat
// (completions/002, chat/002, chat/015); edits gave three identical ones (edits/004), so edits are not judged.

import { notExercised, type CheckVerdict, type ResponseCheck } from '../types.ts';
import { choicesOf, given, intField, okBody, promptCount, requestJson, skipUnlessOk } from './request.ts';

function skipUnlessSampled(json: Record<string, unknown>): string | undefined {
  const n = intField(json, 'n', 1);
  if (n === undefined || n < 2) return 'needs n of 2 or more';
  const t = given(json, 'temperature');
  if (t !== undefined && (typeof t !== 'number' || t <= 0)) return 'at temperature 0 identical choices are expected';
  return undefined;
}

function judge(texts: string[][], what: string): CheckVerdict {
  const groups = texts.filter((g) => g.length >= 2 && g.some((t) => t.length > 0));
  if (groups.length === 0) return notExercised('no prompt has two non-empty choices to compare');
  return groups.flatMap((g, i) => (new Set(g).size > 1 ? [] : [{
    pointer: '/choices',
    message: `the ${g.length} ${what} of ${texts.length > 1 ? `prompt ${i}` : 'the request'} are one text repeated: n samples were asked for`,
    expected: `${g.length} samples (not all the same)`,
    actual: JSON.stringify(g[0]!.slice(0, 60)),
  }]));
}

export const completionNDistinct: ResponseCheck = {
  kind: 'response',
  name: 'completion_n_distinct',
  requirements: ['COMP-N-SAMPLES'],
  severity: 'should',
  summary: 'above temperature 0 the n choices of a prompt are separate samples, not one text repeated',
  skipWhen: (ex, ctx) => skipUnlessSampled(requestJson(ctx)) ?? (promptCount(requestJson(ctx).prompt) === undefined ? 'the prompt is none of the four forms' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const n = intField(json, 'n', 1)!;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const perPrompt: string[][] = [];
    for (const c of got.choices) {
      if (typeof c.index !== 'number' || typeof c.text !== 'string') continue;
      (perPrompt[Math.floor(c.index / n)] ??= []).push(c.text);
    }
    return judge(perPrompt.filter(Boolean), 'choices');
  },
};

export const chatNDistinct: ResponseCheck = {
  kind: 'response',
  name: 'chat_n_distinct',
  requirements: ['CHAT-N-SAMPLES'],
  severity: 'should',
  summary: 'above temperature 0 the n chat choices are separate samples, not one message repeated',
  skipWhen: (ex, ctx) => skipUnlessSampled(requestJson(ctx)) ?? skipUnlessOk(ex),
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const texts = got.choices.flatMap((c) => {
      const m = c.message as { content?: unknown } | undefined;
      return typeof m?.content === 'string' ? [m.content] : [];
    });
    return judge([texts], 'chat choices');
  },
};
