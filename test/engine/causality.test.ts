// Each causality rule of the engine (src/engine/causality.ts), alone: one root cause gives one failure, and what
// depends on it is blocked. The end-to-end runs (trust.test.ts, e2e.test.ts) show them together.
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.ts';
import { awaitsBaseline, bindCaptures, endpointBaseline, failedAnswer, hangingEndpoint, firstSuccessByEndpoint, reroot, refusedKeyStopsSuite, sameAnswerAsFailedBaseline, type CausalState, type FailedAnswer } from '../../src/engine/causality.ts';
import type { CaseRun } from '../../src/engine/case/context.ts';
import type { CheckResult, Root } from '../../src/judge/results.ts';
import type { CaseSpec } from '../../src/suite/types.ts';
import type { Exchange } from '../../src/transport/types.ts';

const ok = (id: string): CaseSpec => ({ id, title: id, requirements: [], request: { method: 'POST', path: '/v1/chat/completions' }, expect: { status: '2xx' } });
const refusal = (id: string): CaseSpec => ({ id, title: id, requirements: [], request: { method: 'POST', path: '/v1/chat/completions' }, expect: { status: '4xx' } });
const root = (caseId: string, check = 'status'): Root => ({ by: { suite: 's', case: caseId, check }, reason: 'expected 2xx, got 422' });
const answered = (status: number | undefined, r?: Root, kind?: 'timeout'): CaseRun => ({
  results: [],
  exchange: { request: { method: 'POST', url: 'http://x/v1/chat/completions', headers: {}, body: { kind: 'none' } }, ...(status !== undefined ? { response: { status, headers: {}, truncated: false } } : {}), ...(kind ? { error: { kind, message: 'no answer' } } : {}), attachments: {}, timing: { startedAt: 0, durationMs: 0 } } as Exchange,
  ...(r ? { root: r } : {}),
});

function state(cases: CaseSpec[], roots: Record<string, Root> = {}, failed: Record<string, FailedAnswer> = {}): CausalState {
  return { registry: defaultRegistry(), firstSuccess: firstSuccessByEndpoint(cases), caseRoots: new Map(Object.entries(roots)), failedStatus: new Map(Object.entries(failed)) };
}

describe('a rejection needs an accepting endpoint (endpointBaseline)', () => {
  const cases = [ok('base'), refusal('bad-temperature')];
  it('blocks a rejection case by its endpoint\'s failed baseline', () => {
    expect(endpointBaseline(state(cases, { base: root('base') }), { spec: cases[1]!, index: 1 })).toEqual(root('base'));
  });
  it('lets it run when the baseline passed, and never blocks a success case', () => {
    expect(endpointBaseline(state(cases), { spec: cases[1]!, index: 1 })).toBeUndefined();
    expect(endpointBaseline(state(cases, { base: root('base') }), { spec: ok('other'), index: 2 })).toBeUndefined();
  });
  it('a request sent ahead waits for its baseline\'s verdict (awaitsBaseline)', () => {
    expect(awaitsBaseline(state(cases), { spec: cases[1]!, index: 1 }, 0)).toBe(true);
    expect(awaitsBaseline(state(cases), { spec: cases[1]!, index: 1 }, 1)).toBe(false);
  });
});

describe('a hanging endpoint is asked once (hangingEndpoint)', () => {
  const cases = [ok('base'), ok('with-n'), refusal('bad-temperature')];
  it('blocks every later case on an endpoint whose baseline got no answer in time, whatever it expects', () => {
    const hung = state(cases, { base: root('base', 'transport') }, { base: 'no answer in time' });
    expect(hangingEndpoint(hung, { spec: cases[1]!, index: 1 })).toEqual(root('base', 'transport'));
    expect(hangingEndpoint(hung, { spec: cases[2]!, index: 2 })).toEqual(root('base', 'transport'));
  });
  it('a baseline that answered, even wrongly, blocks nothing by this rule; nor does a hang on another endpoint', () => {
    expect(hangingEndpoint(state(cases, { base: root('base') }, { base: 422 }), { spec: cases[1]!, index: 1 })).toBeUndefined();
    const other: CaseSpec = { ...ok('embed'), request: { method: 'POST', path: '/v1/embeddings' } };
    expect(hangingEndpoint(state([...cases, other], { base: root('base', 'transport') }, { base: 'no answer in time' }), { spec: other, index: 3 })).toBeUndefined();
  });
});

describe('one cause per endpoint (sameAnswerAsFailedBaseline)', () => {
  const cases = [ok('base'), ok('with-n')];
  it('a later success case answered as its failed baseline was shares the baseline\'s root', () => {
    const s = state(cases, { base: root('base') }, { base: 422 });
    expect(sameAnswerAsFailedBaseline(s, { spec: cases[1]!, index: 1 }, answered(422, root('with-n')))).toEqual(root('base'));
  });
  it('answered otherwise, it is its own failure', () => {
    const s = state(cases, { base: root('base') }, { base: 422 });
    expect(sameAnswerAsFailedBaseline(s, { spec: cases[1]!, index: 1 }, answered(500, root('with-n')))).toBeUndefined();
  });
  it('no answer in time, twice, is one cause too (failedAnswer)', () => {
    expect(failedAnswer(answered(undefined, root('x', 'transport'), 'timeout'))).toBe('no answer in time');
    expect(failedAnswer(answered(422, root('x', 'schema')))).toBeUndefined();
  });
  it('reroot blocks the case\'s own root failure and what it blocked by the baseline', () => {
    const own = root('with-n');
    const results: CheckResult[] = [
      { suite: 's', case: 'with-n', caseTitle: '', check: 'status', requirements: [], severity: 'must', status: 'fail', message: 'expected 2xx, got 422', findings: [{ pointer: '', message: 'x' }] },
      { suite: 's', case: 'with-n', caseTitle: '', check: 'schema', requirements: [], severity: 'must', status: 'blocked', message: 'blocked', blockedBy: own.by },
      { suite: 's', case: 'with-n', caseTitle: '', check: 'header:x', requirements: [], severity: 'must', status: 'pass', message: 'ok' },
    ];
    const out = reroot(results, own, root('base'));
    expect(out.map((r) => [r.status, r.status === 'blocked' ? r.blockedBy.case : ''])).toEqual([['blocked', 'base'], ['blocked', 'base'], ['pass', '']]);
    expect(out[0]).not.toHaveProperty('findings');
  });
});

describe('a refused key stops the suite (refusedKeyStopsSuite)', () => {
  it('stops at the third refusal of the run\'s key before anything was accepted', () => {
    const keys = { accepted: false, refusals: [] as string[] };
    expect(refusedKeyStopsSuite(keys, { suite: 's', spec: ok('a') }, 401)).toBeUndefined();
    expect(refusedKeyStopsSuite(keys, { suite: 's', spec: refusal('r') }, 401)).toBeUndefined(); // a case expecting a refusal is no refusal of the key
    expect(refusedKeyStopsSuite(keys, { suite: 's', spec: ok('b') }, 403)).toBeUndefined();
    expect(refusedKeyStopsSuite(keys, { suite: 's', spec: ok('c') }, 401)?.kind).toBe('auth-refused');
    expect(keys.refusals).toEqual(['a', 'b', 'c']);
  });
  it('never once a request was accepted', () => {
    const keys = { accepted: false, refusals: [] as string[] };
    refusedKeyStopsSuite(keys, { suite: 's', spec: ok('a') }, 200);
    for (const id of ['b', 'c', 'd']) expect(refusedKeyStopsSuite(keys, { suite: 's', spec: ok(id) }, 401)).toBeUndefined();
  });
});

describe('a missing capture carries its cause (bindCaptures)', () => {
  const c: CaseSpec = { ...ok('upload'), capture: { file_id: '/id' } };
  const withJson = (json: unknown, r?: Root): CaseRun => { const run = answered(200, r); run.exchange!.response!.json = json; return run; };
  it('binds a value, and forgets an earlier root of the name', () => {
    const into = { scope: {} as Record<string, unknown>, captureRoots: new Map([['file_id', root('old')]]) };
    bindCaptures(into, c, withJson({ id: 'file-1' }));
    expect(into.scope).toEqual({ file_id: 'file-1' });
    expect(into.captureRoots.size).toBe(0);
  });
  it('an unusable answer binds nothing, and the name remembers the root', () => {
    const into = { scope: { file_id: 'stale' } as Record<string, unknown>, captureRoots: new Map<string, Root>() };
    bindCaptures(into, c, withJson({ id: 'file-1' }, root('upload')));
    expect(into.scope).toEqual({});
    expect(into.captureRoots.get('file_id')).toEqual(root('upload'));
  });
});
