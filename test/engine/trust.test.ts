// Verdicts a CI gate can trust: one root cause gives one failure, what depends on it is blocked, and a
// problem of the run (a closed port, a refused key, a selection that matches nothing) is never a verdict.
// Every run here is the real CLI against a real server on 127.0.0.1.

import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { localServer, type LocalServer } from '../local-server.ts';
import type { Io } from '../../src/run/io.ts';
import type { CheckResult } from '../../src/engine/types.ts';
import type { Report } from '../../src/report/types.ts';
import { pollDelay } from '../../src/engine/case/backoff.ts';
import { retryAfterMs } from '../../src/util/retry-after.ts';

const KEY = 'sk-trust-test-key-0123456789';
let server: LocalServer;
let base = '';

/** Answers every request with 422 and an RFC 9457 problem, except the key check: a plausible wrong server. */
beforeAll(async () => {
  server = await localServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${String(req.headers.authorization).slice(7)}` } }));
      return;
    }
    res.writeHead(422, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'request validation failed: everything is unprocessable here' }));
  });
  base = server.url;
});

afterAll(() => server.close());

async function run(args: string[]): Promise<{ code: number; out: string; err: string; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'trust-'));
  let out = '';
  let err = '';
  const io: Io = { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false };
  const code = await main(['run', ...args, '--report-dir', dir], io);
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  } catch {
    report = undefined;
  }
  return { code, out, err, ...(report ? { report } : {}) };
}

function byCase(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const m = new Map<string, CheckResult[]>();
  for (const r of results) m.set(`${r.suite}/${r.case}`, [...(m.get(`${r.suite}/${r.case}`) ?? []), r]);
  return m;
}

describe('a server that answers 422 to everything', () => {
  it('gives one must-failure per endpoint — the status of its first case — and blocks everything that depends on it', async () => {
    const { code, report } = await run(['--base-url', base, '--api-key', KEY, '--fuzz-runs', '0', '--suite', 'completions', '--suite', 'chat-stream', '--suite', 'files', '--suite', 'fine-tunes', '--timeout', '3000', '--poll-deadline', '2000']);
    expect(code).toBe(1);
    expect(report).toBeDefined();
    const cases = byCase(report!.results);
    let failedCases = 0;
    for (const [key, rs] of cases) {
      const fails = rs.filter((r) => r.status === 'fail');
      expect(fails.length, `${key}: ${fails.map((f) => `${f.check}: ${f.message}`).join(' | ')}`).toBeLessThanOrEqual(1);
      if (fails.length === 1) {
        failedCases++;
        expect(fails[0]!.check, key).toBe('status');
        // Everything else the case judged on that answer is blocked by it, never passed and never failed.
        for (const r of rs.filter((x) => x !== fails[0] && x.status !== 'skip')) {
          expect(r.status, `${key} ${r.check}`).toBe('blocked');
          expect(r.blockedBy, `${key} ${r.check}`).toEqual({ suite: fails[0]!.suite, case: fails[0]!.case, check: 'status' });
        }
      }
      // A check never records a pass on the error body it does not apply to.
      for (const r of rs) if (r.status === 'pass') expect(['status', 'header:content-type', 'case'].includes(r.check) || r.check.startsWith('error_'), `${key} ${r.check} passed on a 422`).toBe(true);
    }
    // One failure per endpoint: a later case answered with the same 422 as its endpoint's first (baseline) case
    // is blocked by that case's status failure, and what it would have judged with it.
    expect(failedCases).toBeGreaterThan(2);
    const sameAnswer = report!.results.filter((r) => r.check === 'status' && r.status === 'blocked' && /the same answer/.test(r.message));
    expect(sameAnswer.length).toBeGreaterThan(10);
    for (const r of sameAnswer) {
      const root = report!.results.find((x) => x.suite === r.suite && x.case === r.blockedBy!.case && x.check === 'status')!;
      expect(root.status, `${r.case} → ${r.blockedBy!.case}`).toBe('fail');
      for (const x of cases.get(`${r.suite}/${r.case}`)!.filter((x) => x.status === 'blocked')) expect(x.blockedBy, `${r.case} ${x.check}`).toEqual(r.blockedBy);
    }
    // Cases that need a capture of a failed case are blocked, and their requests were never sent.
    const blockedCases = report!.results.filter((r) => r.check === 'case' && r.status === 'blocked');
    expect(blockedCases.length).toBeGreaterThan(0);
    for (const b of blockedCases) expect(b.blockedBy?.check).toBe('status');
    expect(report!.summary.blocked).toBe(report!.results.filter((r) => r.status === 'blocked').length);
    // The failure text reads right and keeps the server's own words.
    const first = report!.results.find((r) => r.status === 'fail')!;
    expect(first.message).toMatch(/^expected (200|2xx), got 422 \(the server said: "request validation failed: everything is unprocessable here"\)$/);
    expect(first.response?.message).toBe('request validation failed: everything is unprocessable here');
    // A blocked result is never counted as a pass, coverage included.
    for (const [id, entry] of Object.entries(report!.coverage.requirements)) {
      if (entry.status === 'passed') expect(entry.pass, id).toBeGreaterThan(0);
      if (entry.blocked > 0 && entry.pass === 0 && entry.fail === 0 && entry.warn === 0 && entry.error === 0) expect(entry.status, id).not.toBe('passed');
    }
  });

  it('keeps every behaviour-changing flag in the reproduce command, and never the key', async () => {
    const { report } = await run(['--base-url', base, '--api-key', KEY, '--fuzz-runs', '0', '--suite', 'models', '--timeout', '4000', '--poll-deadline', '9000', '--model', 'chat=gpt-x']);
    const failed = report!.results.find((r) => r.status === 'fail')!;
    expect(failed.reproduce).toContain('--timeout 4000');
    expect(failed.reproduce).toContain('--poll-deadline 9000');
    expect(failed.reproduce).toContain('--model chat=gpt-x');
    expect(failed.reproduce).toContain(`--base-url ${base}`);
    expect(failed.reproduce).not.toContain(KEY);
  });
});

describe('a body that is not JSON', () => {
  it('fails the schema check once; the checks that would read it are blocked by that failure, not skipped', async () => {
    const list = JSON.stringify({ object: 'list', data: [{ id: 'davinci', object: 'model', created: 1649358449, owned_by: 'openai', permission: [] }] });
    const target = await localServer((req, res) => {
      if (req.url === '/v1/models') { res.writeHead(200, { 'content-type': 'application/json' }).end(list); return; }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"davinci","object":"mod'); // cut short
    });
    try {
      const { report } = await run(['--base-url', target.url, '--api-key', KEY, '--suite', 'models', '--fuzz-runs', '0']);
      const retrieve = report!.results.filter((r) => r.case === 'retrieve-listed');
      const schema = retrieve.find((r) => r.check === 'schema')!;
      expect(schema.status).toBe('fail');
      const others = retrieve.filter((r) => r.check !== 'schema' && r.check !== 'status');
      expect(others.length).toBeGreaterThan(0);
      for (const r of others) expect(r, r.check).toMatchObject({ status: 'blocked', blockedBy: { case: 'retrieve-listed', check: 'schema' } });
    } finally {
      await target.close();
    }
  });
});

describe('problems of the run are not verdicts', () => {
  it('a closed port: exit 3, one clear line, no verdicts', async () => {
    const { code, err, report } = await run(['--base-url', 'http://127.0.0.1:1', '--api-key', KEY, '--fuzz-runs', '0']);
    expect(code).toBe(3);
    expect(err).toMatch(/target unreachable: .*ECONNREFUSED/);
    expect(err).toMatch(/not a verdict on the target/);
    expect(err.trim().split('\n').length).toBeLessThanOrEqual(3);
    expect(report).toBeUndefined();
  });

  it('a base URL with a wrong path (the API is not there): exit 3 with one line naming --base-url, no verdicts', async () => {
    // A host whose /api path is not the API (404 under it), and whose other paths are a web app's HTML page.
    const site = await localServer((req, res) => {
      if (req.url?.startsWith('/api')) { res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' })); return; }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>');
    });
    try {
      for (const baseUrl of [`${site.url}/api`, `${site.url}/`]) {
        const { code, err } = await run(['--base-url', baseUrl, '--api-key', KEY, '--fuzz-runs', '0']);
        expect(code, baseUrl).toBe(3);
        expect(err).toMatch(/no model list at .*\/v1\/models: GET answered (404|200)/);
        expect(err).toMatch(/check --base-url/);
        expect(err.trim().split('\n').length).toBeLessThanOrEqual(3);
      }
    } finally {
      await site.close();
    }
  });

  it('a target without a model list running only the user\'s own suites (of another area) is judged, not stopped', async () => {
    // A chat-only server: nothing at /v1/models. The preflight still asks it (reachable? key taken?), but a 404
    // there says the API is elsewhere only when the run judges the model list.
    const chat = await localServer((req, res) => {
      if (req.url === '/v1/chat/completions') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true })); return; }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
    });
    const dir = mkdtempSync(join(tmpdir(), 'trust-own-chat-'));
    writeFileSync(join(dir, 'mine.yaml'), 'version: 1\nname: mine\narea: chat\ncases:\n  - id: a\n    title: chat answers\n    request: { method: POST, path: /v1/chat/completions, json: { model: m, messages: [{ role: user, content: hi }] } }\n    expect: { status: 200 }\n');
    try {
      const { code, err } = await run(['--only', join(dir, 'mine.yaml'), '--base-url', chat.url, '--api-key', KEY, '--fuzz-runs', '0']);
      expect(err).not.toMatch(/no model list/);
      expect(code).toBe(0);
    } finally {
      await chat.close();
    }
  });

  it('a refused key: exit 3, says the key is the problem, does not print it', async () => {
    const { code, err, report } = await run(['--base-url', base, '--api-key', 'sk-wrong-key-do-not-print-me', '--fuzz-runs', '0']);
    expect(code).toBe(3);
    expect(err).toMatch(/refused the API key: GET \/v1\/models answered 401/);
    expect(err).not.toContain('sk-wrong-key-do-not-print-me');
    expect(report).toBeUndefined();
  });

  it('a suite that does not load is the answer, even when the target refuses the key (the preflight goes while suites load)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trust-bad-suite-'));
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nname: bad\narea: models\ncases:\n  - id: a\n    request: { method: GET, path: /v1/models }\n    expect: { status: 2000 }\n');
    const { code, err, report } = await run([dir, '--only', '--base-url', base, '--api-key', 'sk-wrong-key-do-not-print-me']);
    expect(code).toBe(2);
    expect(err).toMatch(/bad\.yaml:7:/);
    expect(err).not.toMatch(/refused the API key|exit 3/);
    expect(report).toBeUndefined();
  });

  it('a --suite selection of plugin suites sends no preflight to the API', async () => {
    const seen: string[] = [];
    const target = await localServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
    });
    try {
      await run(['--suite', 'plugins', '--base-url', target.url, '--plugin-url', target.url, '--api-key', KEY]);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((s) => s.startsWith('GET /v1/'))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it.each([
    [301, { location: 'https://127.0.0.1:9/v1/models' }, /answered 301 with Location: https:\/\/127\.0\.0\.1:9\/v1\/models: the base URL redirects/],
    [503, { 'content-type': 'text/html' }, /the target is not serving: GET \S+ answered 503/],
  ] as const)('a base URL answering %i to everything: one line and exit 3, not hundreds of failures', async (status, headers, says) => {
    const target = await localServer((_req, res) => { res.writeHead(status, headers).end('<html>moved or down</html>'); });
    try {
      const { code, err, report } = await run(['--base-url', target.url, '--api-key', KEY, '--fuzz-runs', '0']);
      expect(code).toBe(3);
      expect(err).toMatch(says);
      expect(err).toMatch(/not a verdict on the target/);
      expect(report).toBeUndefined();
    } finally {
      await target.close();
    }
  });

  it('a selection that matches no case: exit 2, nothing runs', async () => {
    const { code, err, report } = await run(['--grep', 'zzzz-no-such-case', '--fuzz-runs', '0']);
    expect(code).toBe(2);
    expect(err).toMatch(/the selection matches no case/);
    expect(report).toBeUndefined();
  });

  it('a tag that matches nothing is the same usage error', async () => {
    const { code } = await run(['--tag', 'no-such-tag', '--fuzz-runs', '0']);
    expect(code).toBe(2);
  });
});

describe('polling backs off', () => {
  it('doubles from the interval up to 5 s and honours Retry-After', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((a) => pollDelay(100, a, { retryAfter: undefined }))).toEqual([100, 200, 400, 800, 1600, 3200, 5000]);
    expect(pollDelay(100, 0, { retryAfter: '3' })).toBe(3000);
    expect(pollDelay(100, 0, { retryAfter: 'soon' })).toBe(100);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
  });
});

describe('failure text (golden)', () => {
  it('a status failure reads "expected X, got Y", keeps the server\'s words, and blocks the rest of the case', async () => {
    const { judge } = await import('../../src/judge/judge.ts');
    const { defaultRegistry } = await import('../../src/checks/index.ts');
    const { SchemaRegistry } = await import('../../src/schema/registry.ts');
    const { renderFailure } = await import('../../src/report/render-failure.ts');
    const { exchangeOf, ctxOf } = await import('../checks/table.ts');
    const long = `request validation failed: ${'x'.repeat(700)} END`;
    const exchange = exchangeOf({ error: { message: 'Unsupported value: stop has more than 4 items', type: 'invalid_request_error', param: 'stop', code: null }, padding: long }, 422);
    exchange.request = { method: 'POST', url: 'http://127.0.0.1:9/v1/completions', headers: { authorization: 'Bearer REDACTED', 'content-type': 'application/json' }, body: { kind: 'json', value: { model: 'davinci', prompt: 'x' } } };
    const c = { id: 'stop-excluded', title: 'the stop sequence is not part of the returned text', requirements: ['COMP-STOP-EXCLUDED', 'RES-COMPLETION'], request: { method: 'POST' as const, path: '/v1/completions' }, expect: { status: 200 as const, schema: 'resources/completion.schema.json', checks: ['completion_usage_total_is_sum'] } };
    const { results } = judge(exchange, { suite: 'completions', case: c, source: 'suites/completions.yaml:12:5', reproduce: 'npx conformance run --suite completions --grep stop-excluded --seed 7' }, { registry: defaultRegistry(), ctxFor: () => ctxOf(), folds: [], schemas: SchemaRegistry.load() });
    expect(results.map((r) => `${r.check}: ${r.status}`)).toEqual(['status: fail', 'schema: blocked', 'completion_usage_total_is_sum: blocked']);
    expect(renderFailure(results[0]!, { color: false, markdown: false })).toBe([
      'FAIL status: expected 200, got 422 (the server said: "Unsupported value: stop has more than 4 items")',
      '  severity: must',
      '  requirements: COMP-STOP-EXCLUDED, RES-COMPLETION',
      '  case: completions › stop-excluded — the stop sequence is not part of the returned text  (suites/completions.yaml:12:5)',
      '  request: POST http://127.0.0.1:9/v1/completions',
      '    authorization: Bearer REDACTED',
      '    content-type: application/json',
      '    body: {"model":"davinci","prompt":"x"}',
      '  at (root): expected 200, got 422',
      '    expected: "200"',
      '    actual:   422',
      '  response: 422 application/json',
      '    server message: "Unsupported value: stop has more than 4 items"',
      `    {"error":{"message":"Unsupported value: stop has more than 4 items","type":"invalid_request_error","param":"stop","code":null},"padding":"request validation failed: ${'x'.repeat(135)}… (+301 chars)`,
      '  reproduce: npx conformance run --suite completions --grep stop-excluded --seed 7',
    ].join('\n'));
    expect(results[1]!.message).toBe('blocked by status of stop-excluded: expected 200, got 422 (the server said: "Unsupported value: stop has more than 4 items")');
  });
});

describe('a job that never succeeds', () => {
  it('is not read for results: the poll stops at once on an invalid job, and the results CSV cases are blocked, not failed', async () => {
    // A Prism-like target: every job answer carries the example status "string" and a result file.
    const job = { id: 'ft-1', object: 'fine-tune', model: 'curie', created_at: 1, updated_at: 1, events: [], fine_tuned_model: null, hyperparams: { batch_size: 1, learning_rate_multiplier: 0.1, n_epochs: 1, prompt_loss_weight: 0.01 }, organization_id: 'org', result_files: [{ id: 'file-r', object: 'file', bytes: 1, created_at: 1, filename: 'r.csv', purpose: 'fine-tune-results' }], validation_files: [], training_files: [], status: 'string' };
    const target = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const url = req.url ?? '';
        const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method === 'POST' && url === '/v1/files') return send({ id: 'file-t', object: 'file', bytes: 10, created_at: 1, filename: 't.jsonl', purpose: 'fine-tune' });
        if (url.startsWith('/v1/files/') && url.endsWith('/content')) return res.writeHead(200, { 'content-type': 'text/csv' }).end('not,a,results,file\n');
        if (url.startsWith('/v1/files')) return send({ id: 'file-t', object: 'file', bytes: 10, created_at: 1, filename: 't.jsonl', purpose: 'fine-tune', deleted: true });
        if (url.startsWith('/v1/fine-tunes')) return send(url === '/v1/fine-tunes' && req.method === 'GET' ? { object: 'list', data: [job] } : job);
        return send({ object: 'list', data: [] });
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as { port: number }).port}`;
    try {
      const started = Date.now();
      const { report } = await run(['--base-url', url, '--api-key', KEY, '--fuzz-runs', '0', '--suite', 'fine-tunes', '--poll-deadline', '20000']);
      expect(Date.now() - started).toBeLessThan(15_000); // the poll did not wait out its 20 s deadline
      const csv = report!.results.filter((r) => r.check.startsWith('results_csv'));
      expect(csv.filter((r) => r.status === 'fail' || r.status === 'pass')).toEqual([]);
      const poll = report!.results.find((r) => r.check === 'poll');
      expect(poll?.status).toBe('blocked');
      expect(poll?.blockedBy?.check).toBe('schema');
      // The cases that read the results file never sent their requests: they are blocked by that root.
      const blockedCases = report!.results.filter((r) => r.check === 'case' && r.status === 'blocked' && r.blockedBy?.case === poll!.case);
      expect(blockedCases.map((r) => r.case)).toContain('results-csv');
    } finally {
      target.close();
    }
  }, 30_000);
});

describe('a server whose completions never answer (everything else works)', () => {
  it('gives one failure per hanging endpoint: later cases that get no answer either are blocked by the first', { timeout: 120_000 }, async () => {
    const { startReferenceServer } = await import('../../src/reference/index.ts');
    const { createServer, request: httpRequest } = await import('node:http');
    const reference = await startReferenceServer();
    const target = new URL(reference.url);
    // A proxy in front of the reference server whose POST /v1/completions never answers.
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/completions') return;
        const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (a) => { res.writeHead(a.statusCode ?? 502, a.headers); a.pipe(res); });
        up.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const hanging = { url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`, close: () => { proxy.closeAllConnections(); proxy.close(); } };
    try {
      const { code, report, err } = await run(['--base-url', hanging.url, '--api-key', reference.credentials.apiKey, '--fuzz-runs', '0', '--suite', 'completions', '--timeout', '800', '--jobs', '1']);
      expect(code, err).toBe(1);
      const fails = report!.results.filter((r) => r.status === 'fail');
      // The endpoint's baseline only (the cases of other paths, e.g. a stream's ?stream=1, are their own endpoint).
      expect(fails.map((f) => `${f.case} ${f.check}`).length, fails.map((f) => `${f.case} ${f.check}: ${f.message}`).join('\n')).toBeLessThanOrEqual(2);
      expect(fails[0]!.check).toBe('transport');
      // Blocked by the first without being sent again (test/engine/hanging-endpoint.test.ts counts the requests).
      const same = report!.results.filter((r) => r.status === 'blocked' && r.blockedBy.case === fails[0]!.case && r.blockedBy.check === 'transport');
      expect(new Set(same.map((r) => r.case)).size).toBeGreaterThan(10);
      expect(report!.problems).toEqual([]); // the target answers GET /v1/models: judged, not stopped
    } finally {
      hanging.close();
      await reference.close();
    }
  });
});
