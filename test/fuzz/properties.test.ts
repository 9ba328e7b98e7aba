// Properties against the reference server: every property holds; with a fault that accepts out-of-range
// values, the property fails and shrinks to the boundary, and the printed path replays exactly that case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProperty } from '../../src/fuzz/runner.ts';
import { fuzzSuites, setUpTrainingFiles } from '../../src/fuzz/suite.ts';
import { prop, startTarget, type Target } from './helpers.ts';

describe('against the reference server', () => {
  let t: Target;
  beforeAll(async () => { t = await startTarget(); });
  afterAll(async () => { await t.close(); });

  it('every property holds (boundary cases + 3 random cases each, all areas)', async () => {
    const results = [];
    for (const suite of fuzzSuites({ runs: 3, budgetMs: 5000 })) {
      const ctx = t.ctx();
      await suite.run(ctx);
      results.push(...ctx.results);
    }
    // One baseline per endpoint (its base request accepted with a valid answer) precedes its properties.
    const baselines = results.filter((r) => r.check === 'baseline');
    const properties = results.filter((r) => r.check !== 'baseline');
    expect(baselines.map((r) => r.case).sort()).toEqual([...new Set(t.props.map((p) => `${p.endpoint}.baseline`))].sort());
    expect(properties.length).toBe(t.props.length);
    expect(results.filter((r) => r.status !== 'pass').map((r) => `${r.case}: ${r.message}`)).toEqual([]);
    expect(properties.every((r) => r.suite.startsWith('fuzz-') && r.check === 'fuzz' && /run seed 11, property seed -?\d+/.test(r.message))).toBe(true);
  }, 30_000);
});

interface FaultCase { fault: string; property: string; check(value: unknown): void }
const FAULT_CASES: FaultCase[] = [
  { fault: 'temperature-2.5-accepted', property: 'completions.temperature.reject', check: (v) => { expect(v as number).toBeGreaterThan(2); expect(v as number).toBeLessThan(2 + 1e-9); } },
  { fault: 'stop-allows-5', property: 'completions.stop.reject', check: (v) => expect((v as string[]).length).toBe(5) },
  { fault: 'image-n-11-accepted', property: 'images.generations.n.reject', check: (v) => expect(v).toBe(11) },
  { fault: 'fine-tune-suffix-41-accepted', property: 'fine-tunes.suffix.reject', check: (v) => expect((v as string).length).toBe(41) },
  { fault: 'audio-temperature-1.5-accepted', property: 'audio.transcriptions.temperature.reject', check: (v) => { expect(v as number).toBeGreaterThan(1); expect(v as number).toBeLessThan(1 + 1e-9); } },
  { fault: 'image-prompt-1001-accepted', property: 'images.generations.prompt.reject', check: (v) => expect((v as string).length).toBe(1001) },
  { fault: 'embeddings-input-too-long-accepted', property: 'embeddings.input.reject', check: (v) => expect(v).toBe(8193) },
  { fault: 'best-of-below-n-accepted', property: 'completions.best_of.reject', check: (v) => expect(v).toEqual({ n: 2, d: 1 }) },
  { fault: 'context-length-unchecked', property: 'completions.max_tokens.reject', check: (v) => expect(v).toEqual({ k: 1, over: 2 }) },
  { fault: 'jsonl-missing-completion-accepted', property: 'files.jsonl.reject', check: (v) => expect(v).toMatchObject({ lines: [], defect: 'missing-completion' }) },
  { fault: 'image-edit-accepts-non-square', property: 'images.variations.image_square.reject', check: (v) => { const [w, h] = v as number[]; expect(Math.abs(w! - h!)).toBe(1); } },
];

describe('against reference faults', () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget(FAULT_CASES.map((f) => f.fault));
    expect((await setUpTrainingFiles(t.env)).error).toBeUndefined();
  });
  afterAll(async () => { await t.close(); });

  for (const f of FAULT_CASES) {
    it(`${f.fault}: ${f.property} fails and shrinks to the boundary`, async () => {
      const p = prop(t, f.property);
      const { result, counterexample, details } = await runProperty(t.env, p, { runs: 25, budgetMs: 5000 });
      // A property whose rule is a should (refusing an invalid JSONL file at upload, not later) warns instead.
      expect(result.status).toBe(p.severity === 'must' ? 'fail' : 'warn');
      f.check(counterexample);
      expect(result.message).toMatch(/minimal request: \{"method":"POST"/);
      expect(result.reproduce).toBe(`npx conformance run --suite fuzz --grep ${f.property} --seed 11 --fuzz-path ${details.path}`);
      // The printed seed and path replay exactly the shrunk case.
      const replay = await runProperty(t.env, p, { runs: 25, budgetMs: 5000, path: details.path! });
      expect(replay.result.status).toBe(result.status);
      expect(replay.counterexample).toEqual(counterexample);
      expect(replay.details.numShrinks).toBe(0);
    });
  }

  it('an invariant violation on an accepted value fails the accept property (n ignored → too few choices)', async () => {
    const n = await startTarget(['n-ignored']);
    try {
      const { result, counterexample } = await runProperty(n.env, prop(n, 'completions.n.accept'), { runs: 10, budgetMs: 5000 });
      expect(result.status).toBe('fail');
      expect(counterexample).toBe(2);
      expect(result.message).toContain('COMP-N-CHOICES');
    } finally {
      await n.close();
    }
  });

  it('a request that cannot be built is an error of the harness, not a failure of the target', async () => {
    const bare = await startTarget();
    try {
      const { result } = await runProperty(bare.env, prop(bare, 'fine-tunes.suffix.accept'), { runs: 1, budgetMs: 2000 });
      expect(result.status).toBe('error');
      expect(result.message).toContain('unknown variable');
    } finally {
      await bare.close();
    }
  });

  it('a combined request failing on one limit cites that limit\'s requirements only, not every limit it combines', async () => {
    const temperature = await startTarget(['temperature-2.5-accepted']);
    try {
      const p = prop(temperature, 'completions.combined.reject');
      const { result, counterexample } = await runProperty(temperature.env, p, { runs: 40, budgetMs: 10_000 });
      expect(result.status).toBe('fail');
      expect((counterexample as [unknown, { limit: string }])[1].limit).toBe('completions.temperature');
      expect(result.requirements).toEqual(prop(temperature, 'completions.temperature.reject').requirements);
      expect(p.requirements.length).toBeGreaterThan(result.requirements.length);
    } finally {
      await temperature.close();
    }
  });

  it('properties the faults do not touch still pass, and --fuzz-path on a passing property passes', async () => {
    const { result } = await runProperty(t.env, prop(t, 'chat.temperature.reject'), { runs: 10, budgetMs: 5000, path: '0' });
    expect(result.status).toBe('pass');
  });
});

describe('budgets', () => {
  // The fuzz cap on a request is the property's budget when that is shorter than --timeout: a live service
  // that takes longer (a long completion) is slow, not wrong, and a case it did not answer in time says nothing.
  it('cases unanswered within the fuzz cap are not judged: a property with no answered case is skipped, not failed', async () => {
    const t = await startTarget([], 11, { latencyMs: 400 });
    try {
      const capped = { ...t.env, timeoutMs: 100 };
      const { result } = await runProperty(capped, prop(t, 'completions.temperature.accept'), { runs: 2, budgetMs: 1500 });
      expect(result.status).toBe('skip');
      expect(result.message).toMatch(/^not exercised: no case was answered within 100 ms, the fuzz cap on a request .*--timeout is 30000 ms/);
      const rejected = await runProperty(capped, prop(t, 'completions.temperature.reject'), { runs: 2, budgetMs: 1500 });
      expect(rejected.result.status).toBe('skip');
    } finally {
      await t.close();
    }
  });

  it('a timeout at --timeout itself is still judged, as in a suite: the target had all the time the user gives it', async () => {
    const t = await startTarget([], 11, { latencyMs: 400, requestTimeoutMs: 100 });
    try {
      const { result } = await runProperty({ ...t.env, timeoutMs: 100 }, prop(t, 'completions.temperature.accept'), { runs: 1, budgetMs: 1500 });
      expect(result.status).toBe('fail');
      expect(result.message).toMatch(/no response/);
    } finally {
      await t.close();
    }
  });

  it('some cases answered in time: the property is judged on those and says how many were not', async () => {
    const t = await startTarget();
    try {
      let n = 0;
      // Every other request goes to a server that answers after the cap: a real socket timeout of the live transport.
      const send = t.env.transport.send.bind(t.env.transport);
      const slowServer = await import('node:http').then(({ createServer }) => createServer((_req, res) => { setTimeout(() => res.end('{}'), 500); }));
      await new Promise<void>((r) => slowServer.listen(0, '127.0.0.1', r));
      const slowUrl = `http://127.0.0.1:${(slowServer.address() as { port: number }).port}`;
      const mixed = { ...t.env, timeoutMs: 150, transport: { ...t.env.transport, name: 'live' as const, send: async (req: Parameters<typeof send>[0], o: Parameters<typeof send>[1]) => send(n++ % 2 === 1 ? { ...req, url: slowUrl + new URL(req.url).pathname } : req, o), close: async () => {} } };
      try {
        const { result } = await runProperty(mixed, prop(t, 'completions.temperature.accept'), { runs: 4, budgetMs: 5000 });
        expect(result.status).toBe('pass');
        expect(result.message).toMatch(/; \d+ cases? not judged, unanswered within 150 ms \(raise --fuzz-budget-ms\)/);
      } finally {
        slowServer.closeAllConnections();
        slowServer.close();
      }
    } finally {
      await t.close();
    }
  });

  it('a budget that runs out before any case is answered (waits for --rate-limit) is not exercised: a skip, never an error that fails the run', async () => {
    const t = await startTarget();
    try {
      const queued = { ...t.env, transport: { ...t.env.transport, name: 'live' as const, send: async (...args: Parameters<typeof t.env.transport.send>) => { await new Promise((r) => setTimeout(r, 400)); return t.env.transport.send(...args); }, close: async () => {} } };
      const { result } = await runProperty(queued, prop(t, 'completions.temperature.reject'), { runs: 5, budgetMs: 100 });
      expect(result.status).toBe('skip');
      expect(result.message).toMatch(/^not exercised: the budget of 100 ms ran out before a single case completed/);
      // One case in: a pass on what ran, saying how few of the boundary cases that was.
      const one = await runProperty(queued, prop(t, 'completions.temperature.reject'), { runs: 5, budgetMs: 600 });
      expect(one.result.status).toBe('pass');
      expect(one.result.message).toMatch(/^1 case \(only 1 of its \d+ boundary cases\)/);
    } finally {
      await t.close();
    }
  });

  it('a target slower than the budget cannot stall the property', async () => {
    const t = await startTarget();
    try {
      const slow = { ...t.env, timeoutMs: 50, transport: { ...t.env.transport, name: 'live' as const, send: async (...args: Parameters<typeof t.env.transport.send>) => { await new Promise((r) => setTimeout(r, 40)); return t.env.transport.send(...args); }, close: async () => {} } };
      const started = Date.now();
      const { result, details } = await runProperty(slow, prop(t, 'completions.temperature.accept'), { runs: 1000, budgetMs: 300 });
      expect(Date.now() - started).toBeLessThan(1500);
      expect(details.interrupted).toBe(true);
      expect(result.status).toBe('pass');
      expect(result.message).toMatch(/budget of 300 ms reached/);
    } finally {
      await t.close();
    }
  });
});
