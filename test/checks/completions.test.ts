import { describe, expect, it } from 'vitest';
/**
 * Unit tests of the completions-area checks (and the general/error/stream rules that live with them):
 * for every check an input that passes and one that fails, built by hand.
 */
import { ctxOf, exchangeOf, streamOf, c, describeRows, outcomeOf } from './table.ts';
import type { Row } from './table.ts';
import type { Check } from '../../src/checks/types.ts';

// ---- completions ------------------------------------------------------------------------------------
const cmpl = (choices: unknown[], usage: Record<string, number> = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 }) => ({
  id: 'cmpl-1', object: 'text_completion', created: 1_680_000_000, model: 'davinci', choices, usage,
});
const choice = (text: string, index = 0, extra: Record<string, unknown> = {}) => ({ text, index, logprobs: null, finish_reason: 'length', ...extra });
const req = (json: Record<string, unknown>) => ctxOf({ json });
const lp = (n: number, top = 1) => ({
  tokens: Array.from({ length: n }, (_, i) => ` t${i}`),
  token_logprobs: Array.from({ length: n }, () => -0.1),
  text_offset: Array.from({ length: n }, (_, i) => i * 3),
  top_logprobs: Array.from({ length: n }, (_, i) => Object.fromEntries(Array.from({ length: top }, (_, j) => [` a${i}${j}`, -j]))),
});

describeRows('completion rules', [
  { name: 'usage sum holds', check: c('completion_usage_total_is_sum'), exchange: exchangeOf(cmpl([choice('x')])), expect: 'pass' },
  { name: 'usage sum off by one', check: c('completion_usage_total_is_sum'), exchange: exchangeOf(cmpl([choice('x')], { prompt_tokens: 3, completion_tokens: 5, total_tokens: 9 })), expect: 'fail' },

  { name: 'n default: one choice', check: c('completion_choices_per_prompt'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ prompt: 'p' }), expect: 'pass' },
  { name: 'n default: two choices', check: c('completion_choices_per_prompt'), exchange: exchangeOf(cmpl([choice('x'), choice('y', 1)])), ctx: req({ prompt: 'p' }), expect: 'fail' },
  { name: '2 prompts × n 2 = 4 choices', check: c('completion_choices_per_prompt'), exchange: exchangeOf(cmpl([0, 1, 2, 3].map((i) => choice('x', i)))), ctx: req({ prompt: ['a', 'b'], n: 2 }), expect: 'pass' },
  { name: 'indices restart per prompt', check: c('completion_choices_per_prompt'), exchange: exchangeOf(cmpl([0, 1, 0, 1].map((i) => choice('x', i)))), ctx: req({ prompt: ['a', 'b'], n: 2 }), expect: 'fail' },
  { name: 'token arrays: one choice per array', check: c('completion_choices_per_prompt'), exchange: exchangeOf(cmpl([choice('x', 0), choice('y', 1)])), ctx: req({ prompt: [[1, 2], [3]] }), expect: 'pass' },
  { name: 'token array: one prompt', check: c('completion_choices_per_prompt'), exchange: exchangeOf(cmpl([choice('x', 0), choice('y', 1)])), ctx: req({ prompt: [1, 2, 3] }), expect: 'fail' },
  { name: 'error response is skipped', check: c('completion_choices_per_prompt'), exchange: exchangeOf({ error: {} }, 400), ctx: req({ prompt: 'p' }), expect: 'skip' },

  { name: 'default max_tokens 16 respected', check: c('completion_max_tokens_bound'), exchange: exchangeOf(cmpl([choice('x')], { prompt_tokens: 1, completion_tokens: 16, total_tokens: 17 })), ctx: req({ prompt: 'p' }), expect: 'pass' },
  { name: 'default max_tokens 16 exceeded', check: c('completion_max_tokens_bound'), exchange: exchangeOf(cmpl([choice('x')], { prompt_tokens: 1, completion_tokens: 32, total_tokens: 33 })), ctx: req({ prompt: 'p' }), expect: 'fail' },
  { name: 'best_of candidates count', check: c('completion_max_tokens_bound'), exchange: exchangeOf(cmpl([choice('x')], { prompt_tokens: 1, completion_tokens: 12, total_tokens: 13 })), ctx: req({ prompt: 'p', max_tokens: 4, best_of: 3 }), expect: 'pass' },

  { name: 'logprobs null by default', check: c('completion_logprobs_null_by_default'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ prompt: 'p' }), expect: 'pass' },
  { name: 'logprobs {} by default', check: c('completion_logprobs_null_by_default'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: {} })])), ctx: req({ prompt: 'p' }), expect: 'fail' },
  { name: 'logprobs requested: present', check: c('completion_logprobs_present'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: lp(2) })])), ctx: req({ logprobs: 1 }), expect: 'pass' },
  { name: 'logprobs requested: null', check: c('completion_logprobs_present'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ logprobs: 1 }), expect: 'fail' },
  { name: 'logprobs arrays aligned', check: c('completion_logprobs_aligned'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: lp(3) })])), ctx: req({ logprobs: 1 }), expect: 'pass' },
  { name: 'logprobs arrays of different lengths', check: c('completion_logprobs_aligned'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: { ...lp(3), text_offset: [0] } })])), ctx: req({ logprobs: 1 }), expect: 'fail' },
  // Not a pass and not a second failure: completion_logprobs_present is the one that fails on this answer.
  { name: 'no logprobs object: not exercised', check: c('completion_logprobs_aligned'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ logprobs: 1 }), expect: 'not-exercised' },
  { name: 'top_logprobs ≤ k+1', check: c('completion_top_logprobs_count'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: lp(3, 3) })])), ctx: req({ logprobs: 2 }), expect: 'pass' },
  { name: 'top_logprobs k+2', check: c('completion_top_logprobs_count'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: lp(3, 4) })])), ctx: req({ logprobs: 2 }), expect: 'fail' },
  { name: 'echo: null first entries allowed', check: c('completion_top_logprobs_count'), exchange: exchangeOf(cmpl([choice('x', 0, { logprobs: { ...lp(2), top_logprobs: [null, { a: -1 }] } })])), ctx: req({ logprobs: 1, echo: true }), expect: 'pass' },

  { name: 'stop not in text', check: c('completion_stop_excluded'), exchange: exchangeOf(cmpl([choice(' red green', 0, { finish_reason: 'stop' })])), ctx: req({ prompt: 'red green blue', stop: ' blue' }), expect: 'pass' },
  { name: 'stop in text', check: c('completion_stop_excluded'), exchange: exchangeOf(cmpl([choice(' red green blue', 0, { finish_reason: 'stop' })])), ctx: req({ prompt: 'red green blue', stop: ' blue' }), expect: 'fail' },
  { name: 'stop array, one of them in text', check: c('completion_stop_excluded'), exchange: exchangeOf(cmpl([choice(' a zq1')])), ctx: req({ prompt: 'p', stop: ['x', 'zq1'] }), expect: 'fail' },
  { name: 'stop inside the echoed prompt is fine', check: c('completion_stop_excluded'), exchange: exchangeOf(cmpl([choice('red green blue red green', 0, { finish_reason: 'stop' })])), ctx: req({ prompt: 'red green blue', stop: ' blue', echo: true }), expect: 'pass' },
  // A stop that was never reached shows nothing: any server "excludes" it.
  { name: 'no choice stopped: not exercised', check: c('completion_stop_excluded'), exchange: exchangeOf(cmpl([choice(' red green', 0, { finish_reason: 'length' })])), ctx: req({ prompt: 'red green blue', stop: ' blue' }), expect: 'not-exercised' },
  { name: 'no stop requested: skipped', check: c('completion_stop_excluded'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ prompt: 'p' }), expect: 'skip' },

  { name: 'finish_reason stop/length', check: c('completion_finish_reason_known'), exchange: exchangeOf(cmpl([choice('x', 0, { finish_reason: 'stop' })])), expect: 'pass' },
  { name: 'finish_reason other', check: c('completion_finish_reason_known'), exchange: exchangeOf(cmpl([choice('x', 0, { finish_reason: 'eos' })])), expect: 'fail' },
  { name: 'length with max_tokens reached', check: c('completion_finish_reason_meaning'), exchange: exchangeOf(cmpl([choice('x')], { prompt_tokens: 1, completion_tokens: 5, total_tokens: 6 })), ctx: req({ prompt: 'p', max_tokens: 5 }), expect: 'pass' },
  { name: 'length though fewer tokens', check: c('completion_finish_reason_meaning'), exchange: exchangeOf(cmpl([choice('x')], { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })), ctx: req({ prompt: 'p', max_tokens: 5 }), expect: 'fail' },

  { name: 'echo: prompt first', check: c('completion_echo_prompt_first'), exchange: exchangeOf(cmpl([choice('Hello there world')])), ctx: req({ prompt: 'Hello there', echo: true }), expect: 'pass' },
  { name: 'echo: prompt missing', check: c('completion_echo_prompt_first'), exchange: exchangeOf(cmpl([choice(' world')])), ctx: req({ prompt: 'Hello there', echo: true }), expect: 'fail' },
  { name: 'echo: each choice its own prompt', check: c('completion_echo_prompt_first'), exchange: exchangeOf(cmpl([choice('A1 x', 0), choice('A1 y', 1), choice('B2 z', 2), choice('A1 w', 3)])), ctx: req({ prompt: ['A1', 'B2'], n: 2, echo: true }), expect: 'fail' },
  { name: 'echo default: text is the completion', check: c('completion_echo_default_off'), exchange: exchangeOf(cmpl([choice(' Conformance probe')])), ctx: req({ prompt: 'Conformance probe: x' }), expect: 'pass' },
  { name: 'echo default: text repeats the prompt', check: c('completion_echo_default_off'), exchange: exchangeOf(cmpl([choice('Conformance probe: x and more')])), ctx: req({ prompt: 'Conformance probe: x' }), expect: 'fail' },

  { name: 'model named', check: c('completion_model_named'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ model: 'davinci' }), expect: 'pass' },
  { name: 'other model named', check: c('completion_model_named'), exchange: exchangeOf(cmpl([choice('x')])), ctx: req({ model: 'ada' }), expect: 'fail' },
]);

describeRows('general rules', [
  { name: 'integer timestamps', check: c('timestamps_are_integers'), exchange: exchangeOf({ created: 1_680_000_000, data: [{ created_at: 1_680_000_001 }] }), expect: 'pass' },
  { name: 'ISO date timestamp', check: c('timestamps_are_integers'), exchange: exchangeOf({ data: [{ created: '2023-01-01T00:00:00Z' }] }), expect: 'fail' },
  { name: 'milliseconds timestamp', check: c('timestamps_are_integers'), exchange: exchangeOf({ updated_at: 1_680_000_000_000 }), expect: 'fail' },
  // "integers (Unix time)": 0 is one; it is only implausible, which is a warning of its own.
  { name: 'created 0 is an integer Unix time', check: c('timestamps_are_integers'), exchange: exchangeOf({ created: 0 }), expect: 'pass' },
  { name: 'no timestamp to judge', check: c('timestamps_are_integers'), exchange: exchangeOf({ object: 'list', data: [] }), expect: 'not-exercised' },
  { name: 'created 0 is implausible', check: c('timestamps_plausible'), exchange: exchangeOf({ created: 0 }), expect: 'fail' },
  { name: 'created null on an extra field is left to the schemas', check: c('timestamps_are_integers'), exchange: exchangeOf({ object: 'engine', id: 'ada', created: null }), expect: 'pass' },
  { name: 'created null is a warning', check: c('timestamps_plausible'), exchange: exchangeOf({ object: 'engine', id: 'ada', created: null }), expect: 'fail' },
  { name: 'a 2023 date is plausible', check: c('timestamps_plausible'), exchange: exchangeOf({ created: 1_680_000_000 }), expect: 'pass' },
  { name: 'snake_case code', check: c('error_code_snake_case'), exchange: exchangeOf({ error: { message: 'm', type: 't', param: null, code: 'invalid_api_key' } }, 401), expect: 'pass' },
  { name: 'null code', check: c('error_code_snake_case'), exchange: exchangeOf({ error: { message: 'm', type: 't', param: null, code: null } }, 400), expect: 'pass' },
  { name: 'CamelCase code', check: c('error_code_snake_case'), exchange: exchangeOf({ error: { message: 'm', type: 't', param: null, code: 'InvalidKey' } }, 400), expect: 'fail' },
  { name: 'wrong type rejected', check: c('wrong_type_rejected'), exchange: exchangeOf({ error: {} }, 400), expect: 'pass' },
  { name: 'wrong type accepted', check: c('wrong_type_rejected'), exchange: exchangeOf(cmpl([choice('x')])), expect: 'fail' },
]);

// ---- streams ------------------------------------------------------------------------------------
const chunk = (index: number, text: string, finish: string | null = null) => ({ id: 'c', object: 'text_completion', created: 1_680_000_000, choices: [{ text, index, logprobs: null, finish_reason: finish }] });
const unindexed = (text: string, finish: string | null = null) => ({ id: 'c', object: 'text_completion', created: 1_680_000_000, choices: [{ text, logprobs: null, finish_reason: finish }] });
const sctx = (json: Record<string, unknown>) => ctxOf({ json: { ...json, stream: true }, stream: true });

function streamRow(name: string, check: Check, chunks: unknown[], json: Record<string, unknown>, expected: Row['expect'], opts: Parameters<typeof streamOf>[1] = {}): Row {
  const { exchange, events } = streamOf(chunks, opts);
  return { name, check, exchange, events, ctx: sctx(json), expect: expected };
}

describeRows('completion stream rules', [
  streamRow('all 4 choices streamed', c('completion_stream_choices_complete'), [chunk(1, 'a'), chunk(0, 'b'), chunk(3, 'c'), chunk(2, 'd')], { prompt: ['x', 'y'], n: 2 }, 'pass'),
  streamRow('choice 3 never streamed', c('completion_stream_choices_complete'), [chunk(1, 'a'), chunk(0, 'b'), chunk(2, 'd')], { prompt: ['x', 'y'], n: 2 }, 'fail'),
  streamRow('index beyond n × prompts', c('completion_stream_choices_complete'), [chunk(0, 'a'), chunk(1, 'b')], { prompt: 'x' }, 'fail'),
  streamRow('chunks without choices[] are skipped', c('completion_stream_choices_complete'), [{ token: 'a' }], { prompt: 'x' }, 'skip'),
  streamRow('stopped at the stop, which never streamed', c('completion_stream_stop_excluded'), [chunk(0, ' red'), chunk(0, ' green', 'stop')], { prompt: 'p', stop: ' blue' }, 'pass'),
  streamRow('the stop never reached (finish_reason length): not exercised', c('completion_stream_stop_excluded'), [chunk(0, ' red'), chunk(0, ' green', 'length')], { prompt: 'p', stop: ' blue' }, 'not-exercised'),
  streamRow('stop split across chunks', c('completion_stream_stop_excluded'), [chunk(0, ' red b'), chunk(0, 'lue')], { prompt: 'p', stop: ' blue' }, 'fail'),
  streamRow('stop streamed in a one-choice stream without index', c('completion_stream_stop_excluded'), [unindexed(' red b'), unindexed('lue', 'stop')], { prompt: 'p', stop: ' blue' }, 'fail'),
  streamRow('stop in another choice only counts per choice', c('completion_stream_stop_excluded'), [chunk(0, ' bl'), chunk(1, 'ue', 'stop')], { prompt: 'p', n: 2, stop: 'blue' }, 'pass'),
  streamRow('one choice, chunks without index (the chunk shape is not shown)', c('completion_stream_choices_complete'), [unindexed('a'), unindexed('b')], { prompt: 'x' }, 'pass'),
  streamRow('two choices, chunks without index', c('completion_stream_choices_complete'), [unindexed('a'), unindexed('b')], { prompt: 'x', n: 2 }, 'fail'),
  streamRow('several events', c('stream_several_events'), [chunk(0, 'a'), chunk(0, 'b')], {}, 'pass'),
  streamRow('one event only', c('stream_several_events'), [chunk(0, 'ab')], {}, 'fail'),
]);

describe('the calibrated stop probe', () => {
  const observed = ' red green blue yellow';
  const hit = (text: string, finish = 'stop') => exchangeOf(cmpl([{ text, index: 0, logprobs: null, finish_reason: finish }]));
  const ctxFor = () => ctxOf({ json: { model: 'm', prompt: 'p', temperature: 0, stop: ' blue' } }, { observed });
  const outcome = (text: string): string => outcomeOf({ name: text, check: c('completion_stop_calibrated'), exchange: hit(text), ctx: ctxFor(), expect: 'pass' });
  it('passes only when the text ends right before the stop sequence', () => expect(outcome(' red green')).toBe('pass'));
  it('fails when the stop is ignored or included', () => expect(outcome(' red green blue yellow')).toBe('fail'));
  it('fails when the text stops before the stop sequence', () => expect(outcome(' red')).toBe('fail'));
  it('is not exercised when temperature 0 did not repeat itself', () => expect(outcome(' something else entirely')).toBe('not-exercised'));
  it('takes the stop from the middle of the observed text, at its first occurrence', async () => {
    const { middleOf } = await import('../../src/suite/template.ts');
    expect(middleOf(observed)).toBe(' blue');
    expect(middleOf('abcdefghi')).toBe('def');
    expect(() => middleOf('a')).toThrow(/too short/);
  });
});

describe('logprobs offsets, and max_tokens counted in the returned tokens', () => {
  const lp = (tokens: string[], offsets: number[]) => ({ tokens, text_offset: offsets, token_logprobs: tokens.map(() => -0.1), top_logprobs: tokens.map((t) => ({ [t]: -0.1 })) });
  const choice = (text: string, logprobs: unknown) => exchangeOf(cmpl([{ text, index: 0, logprobs, finish_reason: 'length' }]));
  const offsets = (text: string, logprobs: unknown, json: Record<string, unknown>) =>
    outcomeOf({ name: text, check: c('completion_logprobs_offsets'), exchange: choice(text, logprobs), ctx: ctxOf({ json: { model: 'm', prompt: 'Hi there', logprobs: 1, ...json } }), expect: 'pass' });
  it('accepts offsets into the text, or into prompt + text, without echo', () => {
    expect(offsets(' a b', lp([' a', ' b'], [0, 2]), {})).toBe('pass');
    expect(offsets(' a b', lp([' a', ' b'], [8, 10]), {})).toBe('pass');
  });
  it('with echo the first token is at 0 and offsets follow the tokens', () => {
    expect(offsets('Hi there a', lp(['Hi', ' there', ' a'], [0, 2, 8]), { echo: true })).toBe('pass');
    expect(offsets('Hi there a', lp(['Hi', ' there', ' a'], [1, 3, 9]), { echo: true })).toBe('fail');
    expect(offsets('Hi there a', lp(['Hi', ' there', ' a'], [0, 2, 0]), { echo: true })).toBe('fail');
  });
  it('completion_logprobs_computed: null only for the first token under echo', () => {
    const computed = (logprobs: unknown, json: Record<string, unknown>) =>
      outcomeOf({ name: 'c', check: c('completion_logprobs_computed'), exchange: choice('Hi there a', logprobs), ctx: ctxOf({ json: { model: 'm', prompt: 'Hi there', logprobs: 1, ...json } }), expect: 'pass' });
    const nulls = (first: boolean, rest: boolean) => ({ tokens: ['Hi', ' there'], text_offset: [0, 2], token_logprobs: [first ? null : -1, rest ? null : -1], top_logprobs: [first ? null : { Hi: -1 }, rest ? null : { ' there': -1 }] });
    expect(computed(nulls(true, false), { echo: true })).toBe('pass');
    expect(computed(nulls(true, false), {})).toBe('fail');
    expect(computed(nulls(false, true), { echo: true })).toBe('fail');
  });
  it('completion_suffix_not_returned: a text ending with the suffix returned it; no suffix, no judgement', () => {
    const suffixed = (text: string, json: Record<string, unknown>) =>
      outcomeOf({ name: 'c', check: c('completion_suffix_not_returned'), exchange: choice(text, null), ctx: ctxOf({ json: { model: 'm', prompt: 'x', max_tokens: 4, ...json } }), expect: 'pass' });
    expect(suffixed(' it was late', { suffix: ' and that is all, said the suite.' })).toBe('pass');
    expect(suffixed(' it was late and that is all, said the suite.', { suffix: ' and that is all, said the suite.' })).toBe('fail');
    expect(suffixed(' it was late.', { suffix: null })).toBe('skip');
  });
  it('completion_logprobs_are_probabilities: values ≤ 0, each map adding up to at most 1 (rounding allowed)', () => {
    const probs = (tokenLps: number[], maps: Array<Record<string, number>>) =>
      outcomeOf({ name: 'c', check: c('completion_logprobs_are_probabilities'), exchange: choice(' a b', { tokens: [' a', ' b'], text_offset: [0, 2], token_logprobs: tokenLps, top_logprobs: maps }), ctx: ctxOf({ json: { model: 'm', prompt: 'x', logprobs: 2 } }), expect: 'pass' });
    expect(probs([-0.1, -0.7], [{ ' a': -0.1, ' c': -2.5 }, { ' b': -0.7, ' d': -0.9 }])).toBe('pass');
    // One token certain: 0, and a map of one entry adding up to exactly 1.
    expect(probs([0, -0.7], [{ ' a': 0 }, { ' b': -0.7, ' d': -1.2 }])).toBe('pass');
    expect(probs([-0.693147, -0.7], [{ ' a': -0.693147, ' c': -0.693148 }, { ' b': -0.7 }])).toBe('pass');
    // Placeholders: every value 0, so two tokens each certain.
    expect(probs([0, 0], [{ ' a': 0, ' c': 0 }, { ' b': 0, ' d': 0 }])).toBe('fail');
    expect(probs([0.4, -0.7], [{ ' a': -0.1 }, { ' b': -0.7 }])).toBe('fail');
    expect(probs([-0.1, -0.7], [{ ' a': 2.3, ' c': 1.1 }, { ' b': -0.7 }])).toBe('fail');
  });
  it('does not judge how a token is shown (tokens joined may differ from the text), skips requests with stop sequences', () => {
    expect(offsets(' a b', lp([' a', ' c'], [0, 2]), {})).toBe('pass');
    expect(offsets(' a b', lp([' a', ' b'], [0, 2]), { stop: 'x' })).toBe('skip');
  });
  it('offsets in code points, UTF-16 units or bytes all conform; a mix of units does not', () => {
    expect(offsets(' 😀 b', lp([' 😀', ' b'], [0, 2]), {})).toBe('pass'); // code points (Python's len)
    expect(offsets(' 😀 b', lp([' 😀', ' b'], [0, 3]), {})).toBe('pass'); // UTF-16 units
    expect(offsets(' 😀 b', lp([' 😀', ' b'], [0, 5]), {})).toBe('pass'); // bytes
    expect(offsets(' 😀 b', lp([' 😀', ' b'], [0, 4]), {})).toBe('fail');
  });
  it('a leading special token the text does not hold (BOS under echo) is left out', () => {
    expect(offsets('Hi there a', lp(['<s>', 'Hi', ' there', ' a'], [0, 0, 2, 8]), { echo: true })).toBe('pass');
    expect(offsets('Hi there a', lp(['<s>', 'Hi', ' there', ' a'], [0, 0, 3, 8]), { echo: true })).toBe('fail');
  });
  const within = (n: number, max: number) =>
    outcomeOf({ name: String(n), check: c('completion_logprobs_within_max_tokens'), exchange: choice('x', lp(Array.from({ length: n }, () => 'x'), Array.from({ length: n }, (_, i) => i))), ctx: ctxOf({ json: { model: 'm', prompt: 'p', logprobs: 1, max_tokens: max } }), expect: 'pass' });
  it('counts the returned tokens against max_tokens', () => {
    expect(within(3, 3)).toBe('pass');
    expect(within(4, 3)).toBe('fail');
  });
});

describe('the calibrated max_tokens probe', () => {
  const observed = ' a b c d e f g h';
  const outcome = (text: string, observedTokens = 8, max = 4) =>
    outcomeOf({ name: text, check: c('completion_max_tokens_calibrated'), exchange: exchangeOf(cmpl([{ text, index: 0, logprobs: null, finish_reason: 'length' }])), ctx: ctxOf({ json: { model: 'm', prompt: 'p', temperature: 0, max_tokens: max } }, { observed, observed_tokens: observedTokens }), expect: 'pass' });
  it('passes when the text is cut short, a prefix of the observed text', () => expect(outcome(' a b c d')).toBe('pass'));
  it('fails when the whole observed text comes back', () => expect(outcome(observed)).toBe('fail'));
  it('is not exercised when the observed text was within the limit', () => expect(outcome(' a b', 4, 4)).toBe('not-exercised'));
  it('is not exercised when temperature 0 did not repeat itself', () => expect(outcome(' x y')).toBe('not-exercised'));
});

describe('n samples, not one text repeated (completion_n_distinct, chat_n_distinct)', () => {
  const choices = (texts: string[]) => exchangeOf(cmpl(texts.map((text, index) => ({ text, index, logprobs: null, finish_reason: 'length' }))));
  const chatAnswer = (texts: string[]) => exchangeOf({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: texts.map((content, index) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop' })), usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  const completion = (texts: string[], json: Record<string, unknown>) => outcomeOf({ name: 'n', check: c('completion_n_distinct'), exchange: choices(texts), ctx: ctxOf({ json: { model: 'm', prompt: 'p', ...json } }), expect: 'pass' });
  it('passes distinct samples and warns on one text repeated', () => {
    expect(completion([' a b', ' b c', ' c a'], { n: 3 })).toBe('pass');
    expect(completion([' a b', ' a b', ' a b'], { n: 3 })).toBe('fail');
  });
  it('groups choices by prompt (index = prompt × n + i)', () => {
    expect(outcomeOf({ name: 'two prompts', check: c('completion_n_distinct'), exchange: choices([' a', ' b', ' c', ' c']), ctx: ctxOf({ json: { model: 'm', prompt: ['x', 'y'], n: 2 } }), expect: 'pass' })).toBe('fail');
  });
  it('does not judge temperature 0 or n 1', () => {
    expect(completion([' a', ' a'], { n: 2, temperature: 0 })).toBe('skip');
    expect(completion([' a'], {})).toBe('skip');
  });
  it('chat: the same, over message contents', () => {
    const chat = (texts: string[]) => outcomeOf({ name: 'chat', check: c('chat_n_distinct'), exchange: chatAnswer(texts), ctx: ctxOf({ path: '/v1/chat/completions', json: { model: 'm', messages: [], n: texts.length } }), expect: 'pass' });
    expect(chat(['a b', 'b a'])).toBe('pass');
    expect(chat(['a b', 'a b'])).toBe('fail');
  });
});
