// Embeddings checks: each rule with an exchange that passes and one that fails.
import { describeCheckTable, type TableCase } from './table.ts';
import { EMBEDDINGS_CHECKS } from '../../src/checks/embeddings/index.ts';
import type { PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange } from '../../src/transport/types.ts';


function exchangeOf(json: unknown, status = 200): Exchange {
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/embeddings', headers: {}, body: { kind: 'none' } },
    response: { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json), json, truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}
const req = (json: Record<string, unknown>): PlannedRequestView => ({ method: 'POST', path: '/v1/embeddings', query: {}, json: { model: 'text-embedding-ada-002', ...json }, stream: false });

const vec = (n: number) => Array.from({ length: n }, (_, i) => Math.sin(i) / 10);
const other = Array.from({ length: 1536 }, (_, i) => Math.cos(i * 7) / 10);
const item = (index: number, n = 1536) => ({ object: 'embedding', index, embedding: vec(n) });
const result = (data: unknown[], usage: unknown = { prompt_tokens: 3, total_tokens: 3 }) => ({ object: 'list', data, model: 'text-embedding-ada-002', usage });

const cases: TableCase[] = [
  { check: 'embedding_one_per_input', title: 'string → one, index 0', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)])), outcome: 'pass' },
  { check: 'embedding_one_per_input', title: 'string → two', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0), item(1)])), outcome: 'fail' },
  { check: 'embedding_one_per_input', title: 'tokens → one', request: req({ input: [1, 2, 3] }), exchange: exchangeOf(result([item(0)])), outcome: 'pass' },
  { check: 'embedding_one_per_input', title: 'tokens → three', request: req({ input: [1, 2, 3] }), exchange: exchangeOf(result([item(0), item(1), item(2)])), outcome: 'fail' },
  { check: 'embedding_one_per_input', title: 'strings → in order', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(result([item(0), item(1), item(2)])), outcome: 'pass' },
  { check: 'embedding_one_per_input', title: 'strings → reversed, each with its index (index identifies the input)', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(result([item(2), item(1), item(0)])), outcome: 'pass' },
  { check: 'embedding_one_per_input', title: 'strings → an index twice', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(result([item(0), item(1), item(1)])), outcome: 'fail' },
  { check: 'embedding_data_in_input_order', title: 'strings → reversed', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(result([item(2), item(1), item(0)])), outcome: 'fail' },
  { check: 'embedding_data_in_input_order', title: 'strings → in order', request: req({ input: ['a', 'b', 'c'] }), exchange: exchangeOf(result([item(0), item(1), item(2)])), outcome: 'pass' },
  { check: 'embedding_same_as_input_alone', title: 'the item labelled 1 is input 1 embedded alone', request: req({ input: ['a', 'b', 'c'] }), params: { singles: [null, 'alone', null] }, history: { alone: exchangeOf(result([{ object: 'embedding', index: 0, embedding: other }])) }, exchange: exchangeOf(result([item(0), { object: 'embedding', index: 1, embedding: other }, item(2)])), outcome: 'pass' },
  { check: 'embedding_same_as_input_alone', title: 'labels in order, vectors swapped (the item labelled 1 embeds another input)', request: req({ input: ['a', 'b', 'c'] }), params: { singles: [null, 'alone', null] }, history: { alone: exchangeOf(result([{ object: 'embedding', index: 0, embedding: other }])) }, exchange: exchangeOf(result([{ object: 'embedding', index: 0, embedding: other }, item(1), item(2)])), outcome: 'fail' },
  { check: 'embedding_same_as_input_alone', title: 'no earlier case to compare with', request: req({ input: ['a', 'b', 'c'] }), params: { singles: [null, 'alone', null] }, exchange: exchangeOf(result([item(0), item(1), item(2)])), outcome: 'skip' },
  { check: 'embedding_one_per_input', title: 'token arrays → index from 1', request: req({ input: [[1], [2]] }), exchange: exchangeOf(result([item(1), item(2)])), outcome: 'fail' },
  { check: 'embedding_one_per_input', title: 'token arrays → in order', request: req({ input: [[1], [2]] }), exchange: exchangeOf(result([item(0), item(1)])), outcome: 'pass' },
  { check: 'embedding_one_per_input', title: 'error response', request: req({ input: 'x' }), exchange: exchangeOf({ error: {} }, 400), outcome: 'skip' },
  { check: 'embedding_ada_002_has_1536_floats', title: '1536 floats', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)])), outcome: 'pass' },
  { check: 'embedding_ada_002_has_1536_floats', title: '1535 floats', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0, 1535)])), outcome: 'fail' },
  { check: 'embedding_ada_002_has_1536_floats', title: 'base64 string', request: req({ input: 'hi' }), exchange: exchangeOf(result([{ object: 'embedding', index: 0, embedding: 'AAAA' }])), outcome: 'fail' },
  { check: 'embedding_ada_002_has_1536_floats', title: 'a non-number element', request: req({ input: 'hi' }), exchange: exchangeOf(result([{ object: 'embedding', index: 0, embedding: [...vec(1535), null] }])), outcome: 'fail' },
  { check: 'embedding_ada_002_has_1536_floats', title: 'another model', request: req({ input: 'hi', model: 'babbage-similarity' }), exchange: exchangeOf(result([item(0, 2048)])), outcome: 'skip' },
  { check: 'embedding_ada_002_has_1536_floats', title: 'another model with dimensions', request: req({ input: 'hi', model: 'babbage-similarity' }), params: { dimensions: 2048 }, exchange: exchangeOf(result([item(0, 2048)])), outcome: 'pass' },
  { check: 'embedding_usage_fields', title: 'integers', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)])), outcome: 'pass' },
  { check: 'embedding_usage_fields', title: 'missing total', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)], { prompt_tokens: 3 })), outcome: 'fail' },
  { check: 'embedding_usage_fields', title: 'negative', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)], { prompt_tokens: -1, total_tokens: -1 })), outcome: 'fail' },
  { check: 'embedding_usage_total_is_prompt', title: 'equal', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)])), outcome: 'pass' },
  { check: 'embedding_usage_total_is_prompt', title: 'different', request: req({ input: 'hi' }), exchange: exchangeOf(result([item(0)], { prompt_tokens: 3, total_tokens: 4 })), outcome: 'fail' },
];

describeCheckTable('embeddings', EMBEDDINGS_CHECKS, cases);
