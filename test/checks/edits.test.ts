/** Unit tests of the edits-area checks: a passing and a failing input each. */
import { ctxOf, exchangeOf, c, describeRows } from './table.ts';

const edit = (n: number, usage = { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 }, indices?: number[]) => ({
  object: 'edit', created: 1_680_000_000, choices: (indices ?? Array.from({ length: n }, (_, i) => i)).map((index) => ({ text: 'X\n', index })), usage,
});
const req = (json: Record<string, unknown>) => ctxOf({ path: '/v1/edits', json: { model: 'text-davinci-edit-001', instruction: 'i', ...json } });

describeRows('edit rules', [
  { name: 'usage sum holds', check: c('edit_usage_total_is_sum'), exchange: exchangeOf(edit(1)), expect: 'pass' },
  { name: 'usage sum broken', check: c('edit_usage_total_is_sum'), exchange: exchangeOf(edit(1, { prompt_tokens: 5, completion_tokens: 6, total_tokens: 12 })), expect: 'fail' },
  { name: 'n default: one edit', check: c('edit_choices_n'), exchange: exchangeOf(edit(1)), ctx: req({}), expect: 'pass' },
  { name: 'n 3: three edits', check: c('edit_choices_n'), exchange: exchangeOf(edit(3)), ctx: req({ n: 3 }), expect: 'pass' },
  { name: 'n 3: one edit', check: c('edit_choices_n'), exchange: exchangeOf(edit(1)), ctx: req({ n: 3 }), expect: 'fail' },
  { name: 'n 2: indices 1, 2', check: c('edit_choices_n'), exchange: exchangeOf(edit(2, undefined, [1, 2])), ctx: req({ n: 2 }), expect: 'fail' },
  { name: 'rejected request: skipped', check: c('edit_choices_n'), exchange: exchangeOf({ error: {} }, 400), ctx: req({}), expect: 'skip' },
]);
