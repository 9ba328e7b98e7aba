// Create completion, echo (default false): "return the prompt in addition to the completion". With echo the
// text of each choice starts with its prompt; without it the text is the completion alone.

import { notExercised, type CheckContext, type Finding, type ResponseCheck } from '../types.ts';
import type { Exchange } from '../../transport/types.ts';
import { choicesOf, given, intField, okBody, requestJson, skipUnlessOk, textPrompts } from './request.ts';

/** Each choice with the prompt it answers: choices are ordered n per prompt (index = prompt × n + i). */
function choicesWithPrompts(ex: Exchange, ctx: CheckContext): { finding: Finding } | { rows: Array<{ c: Record<string, unknown>; i: number; index: number; prompt: string | undefined }>; prompts: string[]; n: number } {
  const json = requestJson(ctx);
  const prompts = textPrompts(json.prompt)!;
  const n = intField(json, 'n', 1) ?? 1;
  const got = choicesOf(okBody(ex)!);
  if ('finding' in got) return got;
  return {
    prompts, n,
    rows: got.choices.map((c, i) => {
      const index = typeof c.index === 'number' ? c.index : i;
      return { c, i, index, prompt: prompts[Math.floor(index / n)] };
    }),
  };
}

export const completionEchoPromptFirst: ResponseCheck = {
  kind: 'response',
  name: 'completion_echo_prompt_first',
  requirements: ['COMP-ECHO-PROMPT-FIRST'],
  severity: 'must',
  summary: 'with echo true each choice text starts with its prompt',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (given(json, 'echo') !== true) return 'the request does not set echo';
    if (!textPrompts(json.prompt)) return 'the prompt is not text (token prompts decode through the target\'s tokenizer)';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const got = choicesWithPrompts(ex, ctx);
    if ('finding' in got) return [got.finding];
    const { rows, prompts, n } = got;
    if (rows.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return rows.flatMap(({ c, i, index, prompt }): Finding[] => {
      if (prompt === undefined) return [{ pointer: `/choices/${i}/index`, message: `index ${index} belongs to no prompt`, expected: `< ${prompts.length * n}`, actual: index }];
      return typeof c.text === 'string' && c.text.startsWith(prompt) ? [] : [{ pointer: `/choices/${i}/text`, message: 'with echo the text starts with the prompt', expected: `${JSON.stringify(prompt.slice(0, 80))}…`, actual: typeof c.text === 'string' ? c.text.slice(0, 120) : c.text ?? 'absent' }];
    });
  },
};

export const completionEchoDefaultOff: ResponseCheck = {
  kind: 'response',
  name: 'completion_echo_default_off',
  requirements: ['COMP-ECHO-DEFAULT'],
  severity: 'must',
  summary: 'without echo the text does not start with the (distinctive) prompt',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (given(json, 'echo') !== undefined) return 'the request sets echo';
    const prompts = textPrompts(json.prompt);
    if (!prompts || prompts.some((p) => p.length < 8)) return 'needs distinctive text prompts (8 characters or more)';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const got = choicesWithPrompts(ex, ctx);
    if ('finding' in got) return [got.finding];
    return got.rows.flatMap(({ c, i, prompt }): Finding[] => {
      return prompt !== undefined && typeof c.text === 'string' && c.text.startsWith(prompt)
        ? [{ pointer: `/choices/${i}/text`, message: 'echo defaults to false, yet the text repeats the prompt', expected: 'the completion only', actual: c.text.slice(0, 120) }]
        : [];
    });
  },
};

/**
 * suffix is "text that comes after the completion": context the model writes towards, not part of what it returns.
 * A choice whose text ends with the suffix returned it. The case asks for fewer tokens than the suffix has, so a
 * model cannot write it out by chance. Only a should: the spec does not say that the text leaves the suffix out.
 */
export const completionSuffixNotReturned: ResponseCheck = {
  kind: 'response',
  name: 'completion_suffix_not_returned',
  requirements: ['COMP-SUFFIX-NOT-RETURNED'],
  severity: 'should',
  summary: 'the text of each choice is the completion, without the suffix that comes after it',
  skipWhen: (ex, ctx) => {
    const suffix = given(requestJson(ctx), 'suffix');
    return typeof suffix === 'string' && suffix.trim() !== '' ? skipUnlessOk(ex) : 'the request gives no suffix';
  },
  run: (ex, ctx) => {
    const suffix = String(given(requestJson(ctx), 'suffix')).trim();
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge');
    return got.choices.flatMap((c, i): Finding[] =>
      typeof c.text === 'string' && c.text.trimEnd().endsWith(suffix)
        ? [{ pointer: `/choices/${i}/text`, message: `the text ends with the suffix "${suffix}": the suffix comes after the completion and is not part of it`, expected: `a text without the suffix`, actual: c.text }]
        : []);
  },
};
