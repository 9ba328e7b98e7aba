// Moderations checks: each rule with an exchange that passes and one that fails.
import { describeCheckTable, type TableCase } from './table.ts';
import { MODERATIONS_CHECKS } from '../../src/checks/moderations/index.ts';
import type { PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange } from '../../src/transport/types.ts';


function exchangeOf(json: unknown, status = 200): Exchange {
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/moderations', headers: {}, body: { kind: 'none' } },
    response: { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json), json, truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}
const req = (json: Record<string, unknown>): PlannedRequestView => ({ method: 'POST', path: '/v1/moderations', query: {}, json, stream: false });

const NAMES = ['hate', 'hate/threatening', 'self-harm', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'];
function res(opts: { on?: string[]; flagged?: unknown; scores?: Record<string, unknown>; drop?: string; extra?: string; value?: unknown } = {}) {
  const categories: Record<string, unknown> = {};
  const category_scores: Record<string, unknown> = {};
  for (const n of NAMES) {
    if (n === opts.drop) continue;
    categories[n] = opts.on?.includes(n) ?? false;
    category_scores[n] = opts.on?.includes(n) ? 0.9 : 0.001;
  }
  if (opts.extra) { categories[opts.extra] = false; category_scores[opts.extra] = 0; }
  if (opts.value !== undefined) categories.hate = opts.value;
  Object.assign(category_scores, opts.scores ?? {});
  return { categories, category_scores, flagged: opts.flagged ?? (opts.on?.length ?? 0) > 0 };
}
const body = (results: unknown[], model = 'text-moderation-004') => ({ id: 'modr-1', model, results });

const cases: TableCase[] = [
  { check: 'moderation_one_result_per_input', title: 'string → one', request: req({ input: 'x' }), exchange: exchangeOf(body([res()])), outcome: 'pass' },
  { check: 'moderation_one_result_per_input', title: 'array of 3 → 3', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(body([res(), res(), res()])), outcome: 'pass' },
  { check: 'moderation_one_result_per_input', title: 'array of 3 → 1', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(body([res()])), outcome: 'fail' },
  { check: 'moderation_one_result_per_input', title: 'error', request: req({}), exchange: exchangeOf({ error: {} }, 400), outcome: 'skip' },
  { check: 'moderation_categories_seven', title: 'seven names', request: req({ input: 'x' }), exchange: exchangeOf(body([res()])), outcome: 'pass' },
  { check: 'moderation_categories_seven', title: 'six names', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ drop: 'violence/graphic' })])), outcome: 'fail' },
  { check: 'moderation_categories_seven', title: 'an extra name in both maps (a later model version) conforms', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ extra: 'harassment' })])), outcome: 'pass' },
  { check: 'moderation_categories_no_extra', title: 'seven names', request: req({ input: 'x' }), exchange: exchangeOf(body([res()])), outcome: 'pass' },
  { check: 'moderation_categories_no_extra', title: 'an extra name is a warning', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ extra: 'harassment' })])), outcome: 'fail' },
  // Extras that only one map names are still extras: a warning, not a must-failure of the seven names.
  { check: 'moderation_categories_seven', title: 'an extra score only (the seven in both maps) conforms', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ scores: { 'qui__': 0.2 } })])), outcome: 'pass' },
  { check: 'moderation_categories_no_extra', title: 'an extra score only is a warning', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ scores: { 'qui__': 0.2 } })])), outcome: 'fail' },
  { check: 'moderation_categories_are_booleans', title: 'booleans', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ on: ['hate'] })])), outcome: 'pass' },
  { check: 'moderation_categories_are_booleans', title: 'a number', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ value: 0 })])), outcome: 'fail' },
  { check: 'moderation_scores_in_range', title: 'in range', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ scores: { hate: 0, sexual: 1 } })])), outcome: 'pass' },
  { check: 'moderation_scores_in_range', title: 'above 1', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ scores: { violence: 89 } })])), outcome: 'fail' },
  { check: 'moderation_scores_in_range', title: 'negative', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ scores: { violence: -0.1 } })])), outcome: 'fail' },
  { check: 'moderation_scores_in_range', title: 'a string', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ scores: { violence: '0.5' } })])), outcome: 'fail' },
  { check: 'moderation_flagged_is_boolean', title: 'boolean', request: req({ input: 'x' }), exchange: exchangeOf(body([res()])), outcome: 'pass' },
  { check: 'moderation_flagged_is_boolean', title: 'string', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ flagged: 'false' })])), outcome: 'fail' },
  { check: 'moderation_flagged_consistent', title: 'flagged with a category', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ on: ['violence'] })])), outcome: 'pass' },
  { check: 'moderation_flagged_consistent', title: 'not flagged, no category', request: req({ input: 'x' }), exchange: exchangeOf(body([res()])), outcome: 'pass' },
  { check: 'moderation_flagged_consistent', title: 'category true, not flagged', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ on: ['violence'], flagged: false })])), outcome: 'fail' },
  { check: 'moderation_flagged_consistent', title: 'flagged, no category', request: req({ input: 'x' }), exchange: exchangeOf(body([res({ flagged: true })])), outcome: 'fail' },
  { check: 'moderation_model_same_as', title: 'same model', request: req({ input: 'x' }), params: { same_as: 'latest' }, history: { latest: exchangeOf(body([res()])) }, exchange: exchangeOf(body([res()])), outcome: 'pass' },
  { check: 'moderation_model_same_as', title: 'stable used by default', request: req({ input: 'x' }), params: { same_as: 'latest' }, history: { latest: exchangeOf(body([res()], 'text-moderation-004')) }, exchange: exchangeOf(body([res()], 'text-moderation-stable-001')), outcome: 'fail' },
  { check: 'moderation_model_same_as', title: 'the alias when named, its version when defaulted (upgraded automatically)', request: req({ input: 'x' }), params: { same_as: 'latest' }, history: { latest: exchangeOf(body([res()], 'text-moderation-latest')) }, exchange: exchangeOf(body([res()], 'text-moderation-007')), outcome: 'pass' },
  { check: 'moderation_model_same_as', title: 'no earlier case', request: req({ input: 'x' }), params: { same_as: 'latest' }, exchange: exchangeOf(body([res()])), outcome: 'skip' },
  { check: 'moderation_array_in_input_order', title: 'same order', request: req({ input: ['v', 'c'] }), params: { singles: ['v', 'c'] }, history: { v: exchangeOf(body([res({ on: ['violence'] })])), c: exchangeOf(body([res()])) }, exchange: exchangeOf(body([res({ on: ['violence'] }), res()])), outcome: 'pass' },
  { check: 'moderation_array_in_input_order', title: 'swapped', request: req({ input: ['v', 'c'] }), params: { singles: ['v', 'c'] }, history: { v: exchangeOf(body([res({ on: ['violence'] })])), c: exchangeOf(body([res()])) }, exchange: exchangeOf(body([res(), res({ on: ['violence'] })])), outcome: 'fail' },
  { check: 'moderation_array_in_input_order', title: 'result missing', request: req({ input: ['c', 'v'] }), params: { singles: [null, 'v'] }, history: { v: exchangeOf(body([res({ on: ['violence'] })])) }, exchange: exchangeOf(body([res()])), outcome: 'fail' },
  { check: 'moderation_array_in_input_order', title: 'no singles', request: req({ input: ['c', 'v'] }), params: { singles: [null, 'x'] }, exchange: exchangeOf(body([res(), res()])), outcome: 'skip' },
];

describeCheckTable('moderations', MODERATIONS_CHECKS, cases);
