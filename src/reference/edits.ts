// POST /v1/edits
// Rule: the edit of a non-empty input is the input with each sentence's first letter capitalised and a
// single trailing newline (the real service also ends edits with "\n"); an empty input yields the
// instruction's words as the new text.
import type { Ctx } from './context.ts';
import { LIMITS } from './limits.ts';
import { resolveModel } from './models.ts';
import { unixSeconds } from './random.ts';
import { countTokens } from './tokenizer.ts';
import { Fields, parseJsonObject } from './validate.ts';

export function applyEdit(input: string, instruction: string): string {
  const base = input.trim() === '' ? instruction.trim() : input.trimEnd();
  return base.replace(/(^|[.!?]\s+)([a-z])/g, (_, lead: string, ch: string) => lead + ch.toUpperCase()) + '\n';
}

export function createEdit(ctx: Ctx): unknown {
  const fields = new Fields(parseJsonObject(ctx.body));
  resolveModel(ctx.app, ctx.caller, fields.string('model', { required: true }), 'edit', { anyModel: ctx.fault('edit-accepts-any-model') });
  const input = fields.string('input', { allowEmpty: true, required: ctx.fault('edit-input-required') }) ?? '';
  const instruction = ctx.fault('edit-instruction-optional')
    ? (fields.string('instruction', { allowEmpty: true }) ?? '')
    : fields.string('instruction', { required: true });
  const requestedN = fields.integer('n', LIMITS.editN) ?? 1;
  const n = ctx.fault('edit-n-ignored') ? 1 : requestedN;
  fields.number('temperature', ctx.fault('edit-temperature-2.5-accepted') ? { min: LIMITS.temperature.min } : LIMITS.temperature);
  fields.number('top_p', LIMITS.topP);
  const text = applyEdit(input, instruction);
  const promptTokens = countTokens(input) + countTokens(instruction);
  const completionTokens = countTokens(text) * n;
  return {
    object: ctx.fault('edit-object-wrong') ? 'text_edit' : 'edit',
    created: unixSeconds(),
    choices: Array.from({ length: n }, (_, index) => ({ text, index })),
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens + (ctx.fault('edit-usage-total-not-sum') ? 1 : 0) },
  };
}
