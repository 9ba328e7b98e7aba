import { describe, expect, it } from 'vitest';
import { usageTotalIsSum } from '../../src/checks/common/usage.ts';
import { checkHeader, checkSchema, checkStatus } from '../../src/checks/expectations.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { c as check, ctxOf, exchangeOf as jsonExchange, findingsOf, sseOf } from './table.ts';
import { findingsOf as verdictFindings, type Check, type CheckContext, type Finding } from '../../src/checks/types.ts';
import type { Exchange, StreamEnd } from '../../src/transport/types.ts';

const contextOf = (request = {}, params: Record<string, unknown> = {}): CheckContext => ctxOf(request, params);
/** A response exchange; `text` replaces the body when it is not JSON. */
function exchangeOf(body: unknown, opts: { status?: number; headers?: Record<string, string>; text?: string } = {}): Exchange {
  const ex = jsonExchange(body, opts.status ?? 200, { 'content-type': 'application/json', ...opts.headers });
  if (opts.text !== undefined) { delete ex.response!.json; ex.response!.text = opts.text; }
  return ex;
}
/** Run a check; stream checks get the SSE text folded event by event, as the live transport does. */
function runCheck(c: Check, exchange: Exchange, ctx: CheckContext, sse?: { text: string; end?: StreamEnd }): Finding[] {
  if (!sse) return findingsOf(c, exchange, ctx);
  const { exchange: streamed, events } = sseOf(sse.text, { headers: exchange.response!.headers, ...(sse.end ? { end: sse.end } : {}) });
  return findingsOf(c, streamed, ctx, events);
}

const chunk = (text: string) => `data: ${JSON.stringify({ id: 'c', object: 'text_completion', created: 1, choices: [{ text, index: 0, finish_reason: null }] })}\n\n`;
const GOOD = chunk('a') + chunk('b') + 'data: [DONE]\n\n';
const sse = { 'content-type': 'text/event-stream' };

// [check, passing input, failing input]
const STREAM_CASES: Array<[string, { text: string; headers?: Record<string, string>; params?: Record<string, unknown> }, { text: string; headers?: Record<string, string>; end?: 'timeout'; params?: Record<string, unknown> }]> = [
  ['sse_content_type', { text: GOOD, headers: sse }, { text: GOOD, headers: { 'content-type': 'application/json' } }],
  ['sse_data_only', { text: GOOD }, { text: 'event: completion\n' + GOOD }],
  ['sse_completion_ends_with_done', { text: GOOD }, { text: chunk('a') }],
  ['sse_chat_ends_with_done', { text: GOOD }, { text: chunk('a'), end: 'timeout' }],
  ['sse_fine_tune_events_ends_with_done', { text: GOOD }, { text: chunk('a') }],
  ['sse_nothing_after_done', { text: GOOD }, { text: GOOD + chunk('late') }],
  ['sse_completion_chunks_are_json', { text: GOOD }, { text: 'data: {not json\n\n' + 'data: [DONE]\n\n' }],
  ['sse_chat_chunks_are_json', { text: GOOD }, { text: 'data: [1,2]\n\ndata: [DONE]\n\n' }],
  // An immediate [DONE] is not exercised there: the job may have finished before the stream opened (below).
  ['sse_fine_tune_events_chunks_are_json', { text: GOOD }, { text: 'data: "not an object"\n\ndata: [DONE]\n\n' }],
  ['sse_chunk_schema', { text: GOOD, params: { schema: 'resources/completion-chunk.schema.json' } }, { text: 'data: {"id":1}\n\ndata: [DONE]\n\n', params: { schema: 'resources/completion-chunk.schema.json' } }],
];

describe('stream rule checks', () => {
  it.each(STREAM_CASES)('%s passes and fails', (name, pass, fail) => {
    const c = check(name);
    expect(runCheck(c, exchangeOf(undefined, { headers: pass.headers ?? sse }), contextOf({}, pass.params ?? {}), { text: pass.text })).toEqual([]);
    const findings = runCheck(c, exchangeOf(undefined, { headers: fail.headers ?? sse }), contextOf({}, fail.params ?? {}), { text: fail.text, ...(fail.end ? { end: fail.end } : {}) });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]!.message).toBeTruthy();
  });

  it('an immediate [DONE] on a fine-tune events stream is not exercised (the job may have finished before it opened); on a completion stream it fails', () => {
    const empty = { text: 'data: [DONE]\n\n' };
    const ctx = contextOf();
    const ft = check('sse_fine_tune_events_chunks_are_json') as import('../../src/checks/types.ts').StreamCheck;
    const s1 = ft.start(ctx);
    ft.event(s1, { data: '[DONE]', otherFields: [], offset: 0 }, 0, ctx);
    expect(ft.end(s1, 'done', exchangeOf(undefined, { headers: sse }), ctx)).toMatchObject({ notExercised: expect.stringMatching(/before any event/) });
    expect(runCheck(check('sse_completion_chunks_are_json'), exchangeOf(undefined, { headers: sse }), ctx, empty).length).toBe(1);
  });

  it('answer_not_a_stream: a refusal or one JSON result passes, an event stream fails', () => {
    const c = check('answer_not_a_stream');
    expect(runCheck(c, exchangeOf({ error: { message: 'Cannot stream results with best_of > 1.' } }, { status: 400 }), contextOf())).toEqual([]);
    expect(runCheck(c, exchangeOf({ object: 'text_completion', choices: [] }), contextOf())).toEqual([]);
    expect(runCheck(c, exchangeOf(undefined, { headers: sse }), contextOf(), { text: GOOD }).length).toBe(1);
  });

  it('sse_nothing_after_done fails a body left open after [DONE]', () => {
    const c = check('sse_nothing_after_done');
    const ex = exchangeOf(undefined, { headers: sse });
    const parse = runCheck(c, ex, contextOf(), { text: GOOD });
    expect(parse).toEqual([]);
    const open = exchangeOf(undefined, { headers: sse });
    const state = (c as import('../../src/checks/types.ts').StreamCheck).start(contextOf());
    open.stream = { sample: [], eventCount: 3, end: 'done', afterDone: '', bytes: 10, openAfterDone: true, detail: 'connection still open 10000 ms after data: [DONE]; stopped reading' };
    (c as import('../../src/checks/types.ts').StreamCheck).event(state, { data: '[DONE]', otherFields: [], offset: 0 }, 0, contextOf());
    const [f] = verdictFindings((c as import('../../src/checks/types.ts').StreamCheck).end(state, 'done', open, contextOf()));
    expect(f!.message).toMatch(/stayed open/);
  });

  it('names the stall when a stream times out', () => {
    const ex = exchangeOf(undefined, { headers: sse });
    const [f] = runCheck(check('sse_completion_ends_with_done'), ex, contextOf(), { text: chunk('a'), end: 'timeout' });
    expect(f!.message).toMatch(/never ended/);
  });
});

const ERROR = { error: { message: 'bad', type: 'invalid_request_error', param: 'stop', code: null } };
describe('error conventions (should)', () => {
  it.each([[400, 'error_status_400'], [401, 'error_status_401'], [403, 'error_status_403'], [404, 'error_status_404']] as const)('%i: %s', (status, name) => {
    const c = check(name);
    expect(c.severity).toBe('should');
    expect(runCheck(c, exchangeOf(ERROR, { status }), contextOf())).toEqual([]);
    expect(runCheck(c, exchangeOf(ERROR, { status: status === 400 ? 422 : 400 }), contextOf())).toHaveLength(1);
  });
  it('error_body_shape', () => {
    const c = check('error_body_shape');
    expect(runCheck(c, exchangeOf(ERROR, { status: 400 }), contextOf())).toEqual([]);
    expect(runCheck(c, exchangeOf({ message: 'bad' }, { status: 400 }), contextOf()).length).toBeGreaterThan(0);
    expect(runCheck(c, exchangeOf(undefined, { status: 400, text: 'Bad Request' }), contextOf())[0]!.message).toMatch(/not JSON/);
  });
});

describe('usage total factory', () => {
  const c = usageTotalIsSum('t_usage', 'COMP-USAGE-TOTAL-SUM');
  it('passes when the total is the sum and fails otherwise', () => {
    expect(c.run(exchangeOf({ usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } }), contextOf())).toEqual([]);
    const [f] = verdictFindings(c.run(exchangeOf({ usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 6 } }), contextOf()));
    expect(f).toMatchObject({ pointer: '/usage/total_tokens', expected: 5, actual: 6 });
    expect(verdictFindings(c.run(exchangeOf({}), contextOf()))[0]!.pointer).toBe('/usage');
  });
});

describe('built-in expectations', () => {
  const schemas = SchemaRegistry.load();
  it('status: exact, class, list; a 5xx is a rejection only with an error body', () => {
    expect(checkStatus(exchangeOf({}, { status: 201 }), '2xx')).toEqual([]);
    expect(checkStatus(exchangeOf({}, { status: 201 }), [200, 201])).toEqual([]);
    // A 5xx with an error body is a refusal (its class is ERR-4XX-NOT-5XX, a should); without one it is a crash.
    expect(checkStatus(exchangeOf({ error: { message: 'invalid n' } }, { status: 500 }), '4xx')).toEqual([]);
    expect(checkStatus(exchangeOf({ detail: 'invalid n' }, { status: 503 }), '4xx')).toEqual([]);
    expect(checkStatus(exchangeOf({}, { status: 500 }), '4xx')[0]!.message).toMatch(/without an error body is no refusal/);
    expect(checkStatus(exchangeOf('Internal Server Error', { status: 500 }), '4xx')[0]!.message).toMatch(/no refusal/);
    expect(checkStatus(exchangeOf({}, { status: 200 }), '4xx')[0]!.message).toMatch(/accepted/);
    expect(checkStatus(exchangeOf({}, { status: 404 }), 400)).toHaveLength(1);
  });
  it('schema: pointers into the body', () => {
    expect(checkSchema(exchangeOf({ id: 'x', object: 'model', owned_by: 'o', permission: [] }), 'resources/model.schema.json', schemas)).toEqual([]);
    const findings = checkSchema(exchangeOf({ id: 'x', object: 'engine', owned_by: 'o', permission: [] }), 'resources/model.schema.json', schemas);
    expect(findings.some((f) => f.pointer === '/object')).toBe(true);
  });
  it('headers: present, equals, matches', () => {
    const ex = exchangeOf({}, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(checkHeader(ex, 'Content-Type', { matches: '^application/json' })).toEqual([]);
    expect(checkHeader(ex, 'content-type', { equals: 'text/plain' })).toHaveLength(1);
    expect(checkHeader(ex, 'x-missing', { present: true })).toHaveLength(1);
    expect(checkHeader(ex, 'x-missing', { present: false })).toEqual([]);
  });
});
