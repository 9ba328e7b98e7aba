/** Unit tests of the chat-area checks and the chat stream checks: a passing and a failing input each. */
import { ctxOf, exchangeOf, streamOf, c, describeRows } from './table.ts';
import type { Row } from './table.ts';
import type { Check } from '../../src/checks/types.ts';

const chat = (choices: unknown[], usage: Record<string, number> = { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 }) => ({
  id: 'chatcmpl-1', object: 'chat.completion', created: 1_680_000_000, model: 'gpt-3.5-turbo', choices, usage,
});
const msg = (content: string, index = 0, role = 'assistant', finish = 'stop') => ({ index, message: { role, content }, finish_reason: finish });
const req = (json: Record<string, unknown>) => ctxOf({ path: '/v1/chat/completions', json: { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }], ...json } });

describeRows('chat rules', [
  { name: 'usage sum holds', check: c('chat_usage_total_is_sum'), exchange: exchangeOf(chat([msg('a')])), expect: 'pass' },
  { name: 'usage sum broken', check: c('chat_usage_total_is_sum'), exchange: exchangeOf(chat([msg('a')], { prompt_tokens: 1, completion_tokens: 1, total_tokens: 3 })), expect: 'fail' },
  { name: 'role assistant', check: c('chat_role_assistant'), exchange: exchangeOf(chat([msg('a')])), expect: 'pass' },
  { name: 'role bot', check: c('chat_role_assistant'), exchange: exchangeOf(chat([msg('a', 0, 'bot')])), expect: 'fail' },
  { name: 'n 2: two choices', check: c('chat_choices_n'), exchange: exchangeOf(chat([msg('a'), msg('b', 1)])), ctx: req({ n: 2 }), expect: 'pass' },
  { name: 'n 2: one choice', check: c('chat_choices_n'), exchange: exchangeOf(chat([msg('a')])), ctx: req({ n: 2 }), expect: 'fail' },
  { name: 'n default: duplicate index', check: c('chat_choices_n'), exchange: exchangeOf(chat([msg('a', 1)])), ctx: req({}), expect: 'fail' },
  { name: 'max_tokens respected', check: c('chat_max_tokens_bound'), exchange: exchangeOf(chat([msg('a')])), ctx: req({ max_tokens: 3 }), expect: 'pass' },
  { name: 'max_tokens exceeded', check: c('chat_max_tokens_bound'), exchange: exchangeOf(chat([msg('a')])), ctx: req({ max_tokens: 2 }), expect: 'fail' },
  { name: 'no max_tokens: skipped', check: c('chat_max_tokens_bound'), exchange: exchangeOf(chat([msg('a')])), ctx: req({}), expect: 'skip' },
  { name: 'within context', check: c('chat_within_context'), exchange: exchangeOf(chat([msg('a')])), ctx: req({}), expect: 'pass' },
  { name: 'beyond context', check: c('chat_within_context'), exchange: exchangeOf(chat([msg('a')], { prompt_tokens: 4000, completion_tokens: 200, total_tokens: 4200 })), ctx: req({}), expect: 'fail' },
  { name: 'calibrated stop: content ends before the stop', check: c('chat_stop_honoured'), exchange: exchangeOf(chat([msg('one two')])), ctx: ctxOf({ path: '/v1/chat/completions', json: { model: 'm', messages: [], stop: ' three' } }, { observed: 'one two three four' }), expect: 'pass' },
  { name: 'calibrated stop: content keeps the stop (exclusion is a should)', check: c('chat_stop_honoured'), exchange: exchangeOf(chat([msg('one two three')])), ctx: ctxOf({ path: '/v1/chat/completions', json: { model: 'm', messages: [], stop: ' three' } }, { observed: 'one two three four' }), expect: 'pass' },
  { name: 'calibrated stop: content goes on past it', check: c('chat_stop_honoured'), exchange: exchangeOf(chat([msg('one two three four')])), ctx: ctxOf({ path: '/v1/chat/completions', json: { model: 'm', messages: [], stop: ' three' } }, { observed: 'one two three four' }), expect: 'fail' },
  { name: 'calibrated stop: temperature 0 said something else', check: c('chat_stop_honoured'), exchange: exchangeOf(chat([msg('five six seven eight nine')])), ctx: ctxOf({ path: '/v1/chat/completions', json: { model: 'm', messages: [], stop: ' three' } }, { observed: 'one two three four' }), expect: 'not-exercised' },
  { name: 'stop not in content', check: c('chat_stop_excluded'), exchange: exchangeOf(chat([msg('red green')])), ctx: req({ stop: ' blue' }), expect: 'pass' },
  { name: 'stop in content', check: c('chat_stop_excluded'), exchange: exchangeOf(chat([msg('red green blue')])), ctx: req({ stop: [' blue'] }), expect: 'fail' },
  { name: 'stop when fewer tokens', check: c('chat_finish_reason_meaning'), exchange: exchangeOf(chat([msg('a')])), ctx: req({ max_tokens: 5 }), expect: 'pass' },
  { name: 'length when fewer tokens', check: c('chat_finish_reason_meaning'), exchange: exchangeOf(chat([msg('a', 0, 'assistant', 'length')])), ctx: req({ max_tokens: 5 }), expect: 'fail' },
]);

const delta = (index: number, d: Record<string, unknown>, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1_680_000_000, choices: [{ index, delta: d, finish_reason: finish }] });
function streamRow(name: string, check: Check, chunks: unknown[], json: Record<string, unknown>, expected: Row['expect']): Row {
  const { exchange, events } = streamOf(chunks);
  return { name, check, exchange, events, ctx: ctxOf({ path: '/v1/chat/completions', stream: true, json: { model: 'gpt-3.5-turbo', stream: true, ...json } }), expect: expected };
}

describeRows('chat stream rules', [
  streamRow('both choices streamed', c('chat_stream_choices_complete'), [delta(0, { role: 'assistant' }), delta(1, { role: 'assistant' }), delta(0, { content: 'a' }), delta(1, { content: 'b' })], { n: 2 }, 'pass'),
  streamRow('choice 1 missing', c('chat_stream_choices_complete'), [delta(0, { role: 'assistant' }), delta(0, { content: 'a' })], { n: 2 }, 'fail'),
  streamRow('no stop in deltas', c('chat_stream_stop_excluded'), [delta(0, { role: 'assistant' }), delta(0, { content: 'red' }), delta(0, { content: ' green' }), delta(0, {}, 'stop')], { stop: ' blue' }, 'pass'),
  streamRow('the stop never reached: not exercised', c('chat_stream_stop_excluded'), [delta(0, { role: 'assistant' }), delta(0, { content: 'red' }), delta(0, {}, 'length')], { stop: ' blue' }, 'not-exercised'),
  streamRow('stop split over deltas', c('chat_stream_stop_excluded'), [delta(0, { role: 'assistant' }), delta(0, { content: 'red b' }), delta(0, { content: 'lue' })], { stop: ' blue' }, 'fail'),
  streamRow('each choice finished', c('chat_stream_choices_finish'), [delta(0, { role: 'assistant' }), delta(1, { role: 'assistant' }), delta(0, {}, 'stop'), delta(1, {}, 'length')], { n: 2 }, 'pass'),
  streamRow('choice 1 never finished', c('chat_stream_choices_finish'), [delta(0, { role: 'assistant' }), delta(1, { content: 'x' }), delta(0, {}, 'stop')], { n: 2 }, 'fail'),
  streamRow('deltas assemble (Mar 2023: no finish chunk)', c('chat_stream_deltas_assemble'), [delta(0, { role: 'assistant' }), delta(0, { content: 'Hi' }), delta(0, { content: '!' })], {}, 'pass'),
  streamRow('role bot in a delta', c('chat_stream_deltas_assemble'), [delta(0, { role: 'bot' }), delta(0, { content: 'Hi' })], {}, 'fail'),
  streamRow('content that is not a string', c('chat_stream_deltas_assemble'), [delta(0, { role: 'assistant' }), delta(0, { content: 5 })], {}, 'fail'),
]);
