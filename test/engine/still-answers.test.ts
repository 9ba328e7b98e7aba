// A request that times out while nothing else is answered asks whether the target still answers at all: one
// question at a time however many suites wait, and a target that does answer is judged case by case as before.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemWatch } from '../../src/engine/problems.ts';
import type { RunProblem } from '../../src/engine/types.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import type { OutgoingRequest } from '../../src/transport/types.ts';
import { Redactor } from '../../src/util/redact.ts';

let server: Server;
let base = '';
beforeAll(async () => {
  // /slow never answers; /fast answers at once.
  server = createServer((req, res) => { if (req.url === '/fast') res.end('{}'); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => { server.closeAllConnections(); server.close(); });

const get = (path: string): OutgoingRequest => ({ method: 'GET', url: base + path, headers: {}, bodySummary: { kind: 'none' }, stream: false });

function watched(answers: boolean, fullTimeoutMs = 0) {
  const live = new LiveTransport({ maxResponseBytes: 1 << 20, redactor: new Redactor({ secretHeaders: [], secretValues: [] }) });
  const problems: RunProblem[] = [];
  let asked = 0;
  const watch = new ProblemWatch(live, (p) => problems.push(p), async () => { asked++; await new Promise((r) => setTimeout(r, 50)); return answers; }, fullTimeoutMs);
  return { watch, live, problems, asked: () => asked };
}

describe('a target that stops answering', () => {
  it('four suites timing out together ask once; a dead target then stops every suite, and nothing more is sent', async () => {
    const { watch, live, problems, asked } = watched(false);
    try {
      const views = ['a', 'b', 'c', 'd'].map((s) => watch.view(s));
      const exchanges = await Promise.all(views.map((v) => v.send(get('/slow'), { timeoutMs: 100 })));
      for (const e of exchanges) expect(e.error?.kind).toBe('timeout');
      expect(asked()).toBe(1);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ kind: 'unresponsive' });
      expect(problems[0]!.suite).toBeUndefined();
      expect(problems[0]!.message).toMatch(/^the target stopped answering: GET http:\/\/127\.0\.0\.1:\d+\/slow got no response \(.*100 ms\), and then GET \/v1\/models neither$/);
      for (const s of ['a', 'b', 'c', 'd', 'later']) expect(watch.stoppedBy(s)).toBe(problems[0]);
      const after = await watch.view('later').send(get('/fast'), { timeoutMs: 100 });
      expect(after.response).toBeUndefined();
      expect(after.error?.message).toMatch(/^not sent: the target stopped answering/);
    } finally {
      await live.close();
    }
  });

  it('a target that still answers: the timeout stands as the case\'s own, and the run goes on', async () => {
    const { watch, live, problems, asked } = watched(true);
    try {
      const slow = await watch.view('a').send(get('/slow'), { timeoutMs: 100 });
      expect(slow.error?.kind).toBe('timeout');
      expect(asked()).toBe(1);
      expect(problems).toHaveLength(0);
      expect(watch.stoppedBy('a')).toBeUndefined();
      expect((await watch.view('a').send(get('/fast'), { timeoutMs: 1000 })).response?.status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('a request cut at a cap shorter than --timeout (a fuzz case) asks nothing: a busy single-worker server is slow, not dead', async () => {
    const { watch, live, problems, asked } = watched(false, 1000);
    try {
      expect((await watch.view('fuzz-completions').send(get('/slow'), { timeoutMs: 100, idleTimeoutMs: 100 })).error?.kind).toBe('timeout');
      expect(asked()).toBe(0);
      expect(problems).toHaveLength(0);
      // At --timeout itself it does ask.
      expect((await watch.view('completions').send(get('/slow'), { timeoutMs: 1000 })).error?.kind).toBe('timeout');
      expect(asked()).toBe(1);
    } finally {
      await live.close();
    }
  });

  it('an endpoint that hangs while the target answers costs one probe per --timeout, not one per case', async () => {
    const { watch, live, asked } = watched(true, 150);
    try {
      for (let i = 0; i < 3; i++) expect((await watch.view('completions').send(get('/slow'), { timeoutMs: 150 })).error?.kind).toBe('timeout');
      expect(asked()).toBe(1);
      await new Promise((r) => setTimeout(r, 1100));
      await watch.view('completions').send(get('/slow'), { timeoutMs: 150 });
      expect(asked()).toBe(2);
    } finally {
      await live.close();
    }
  });

  it('a timeout while other requests were answered asks nothing: the target is alive', async () => {
    const { watch, live, asked } = watched(false);
    try {
      const slow = watch.view('a').send(get('/slow'), { timeoutMs: 300 });
      await new Promise((r) => setTimeout(r, 50));
      expect((await watch.view('b').send(get('/fast'), { timeoutMs: 1000 })).response?.status).toBe(200);
      expect((await slow).error?.kind).toBe('timeout');
      expect(asked()).toBe(0);
      expect(watch.stoppedBy('a')).toBeUndefined();
    } finally {
      await live.close();
    }
  });
});
