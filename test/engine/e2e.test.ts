// The whole pipeline — suite file → plan → live transport → checks → results → reports → exit code —
// against a small server this test starts on 127.0.0.1 (not the reference server: its answers are fixed here).

import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/run/io.ts';
import { loadHarness } from '../../src/run/setup.ts';
import { builtinVariableNames, runSuites } from '../../src/engine/index.ts';
import { loadSuites } from '../../src/suite/load.ts';
import { CheckRegistry } from '../../src/checks/registry.ts';
import type { Check } from '../../src/checks/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import { Redactor } from '../../src/util/redact.ts';
import { makePng } from '../../src/fixtures/png.ts';

let server: Server;
let base = '';
let polls = 0;
const KEY = 'sk-e2e-secret-key-123456';

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (req.headers.authorization !== `Bearer ${KEY}` && !url.pathname.startsWith('/img')) return json(res, 401, { error: { message: 'no key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const broken = req.headers['x-broken'] === '1';
      switch (`${req.method} ${url.pathname}`) {
        case 'GET /v1/models':
          return json(res, 200, { object: 'list', data: [{ id: 'm1', object: 'model', owned_by: 'me', permission: [] }] });
        case 'POST /v1/completions': {
          const parsed = JSON.parse(body) as { stop?: unknown[]; stream?: boolean };
          if (Array.isArray(parsed.stop) && parsed.stop.length > 4 && !broken) return json(res, 400, { error: { message: 'too many stops', type: 'invalid_request_error', param: 'stop', code: null } });
          if (parsed.stream) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.write('data: {"id":"c","object":"text_completion","created":1,"choices":[{"text":"a","index":0,"logprobs":null,"finish_reason":null}]}\n\n');
            if (url.searchParams.get('stall')) return; // never ends
            return res.end('data: [DONE]\n\n');
          }
          return json(res, 200, { id: 'c', object: 'text_completion', created: 1, model: 'm1', choices: [{ text: 'a', index: 0, logprobs: null, finish_reason: 'length' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
        }
        case 'POST /v1/files':
          polls = 0;
          return json(res, 200, { id: 'file-1', object: 'file', bytes: 3, created_at: 1, filename: 'a.jsonl', purpose: 'fine-tune' });
        case 'GET /v1/files/file-1':
          polls++;
          return json(res, 200, { id: 'file-1', object: 'file', bytes: 3, created_at: 1, filename: 'a.jsonl', purpose: 'fine-tune', status: polls >= 3 ? 'processed' : 'uploaded' });
        case 'DELETE /v1/files/file-1':
          return json(res, 200, { id: 'file-1', object: 'file', deleted: true });
        case 'POST /v1/images/generations':
          return json(res, 200, { created: 1, data: [{ url: `${base}/img.png` }] });
        case 'GET /img.png':
          res.writeHead(200, { 'content-type': 'image/png' });
          return res.end(makePng({ width: 4, height: 4 }));
        case 'GET /v1/hang':
          return; // the target stops answering
        default:
          return json(res, 404, { error: { message: 'no route', type: 'invalid_request_error', param: null, code: null } });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const SUITE = `
version: 1
name: e2e
area: completions
cases:
  - id: models
    title: list models
    requirements: [MODEL-LIST]
    request: { method: GET, path: /v1/models }
    expect: { status: 200, schema: resources/model-list.schema.json, headers: { content-type: { matches: "^application/json" } } }
    capture: { model: /data/0/id }
  - id: complete
    title: complete with the captured model
    requirements: [RES-COMPLETION]
    request: { method: POST, path: /v1/completions, json: { model: "{{model}}", prompt: x } }
    expect: { status: 2xx, schema: resources/completion.schema.json }
  - id: stop5
    title: five stops rejected
    requirements: [COMP-STOP-MAX4]
    request: { method: POST, path: /v1/completions, json: { model: "{{model}}", stop: [a, b, c, d, e] }, headers: { x-broken: "{{broken}}" } }
    expect: { status: 4xx, checks: [error_status_400, error_body_shape] }
  - id: stream
    title: stream ends with DONE
    requirements: [STREAM-COMP-DONE]
    request: { method: POST, path: "/v1/completions{{stall}}", json: { model: "{{model}}", stream: true }, stream: true }
    expect: { status: 200, checks: [sse_content_type, sse_data_only, sse_completion_ends_with_done, sse_completion_chunks_are_json] }
  - id: upload
    title: upload, then poll until processed
    requirements: [FILE-UPLOAD]
    request: { method: POST, path: /v1/files, multipart: { fields: { purpose: fine-tune }, files: [{ field: file, filename: a.jsonl, jsonl: [{ prompt: a, completion: b }] }] } }
    expect: { status: 200, schema: resources/file.schema.json }
    capture: { file_id: /id }
  - id: processed
    title: the file is processed eventually
    requirements: [FILE-RETRIEVE]
    request: { method: GET, path: "/v1/files/{{file_id}}" }
    poll: { until: { pointer: /status, equals: processed }, interval_ms: 5, deadline_ms: 2000 }
    expect: { status: 200 }
  - id: image
    title: image url is followed
    requirements: [IMG-GEN-CREATE]
    request: { method: POST, path: /v1/images/generations, json: { prompt: cat } }
    follow: { urls: /data/*/url }
    expect: { status: 200 }
  - id: noauth
    title: no key rejected
    requirements: [AUTH-BEARER-REQUIRED]
    request: { method: GET, path: /v1/models, auth: none }
    expect: { status: 4xx, checks: [error_status_401] }
`;

function suiteDir(vars: { broken: string; stall: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-e2e-'));
  writeFileSync(join(dir, 'e2e.yaml'), SUITE.replace('cases:', `variables: { broken: "${vars.broken}", stall: "${vars.stall}" }\ncases:`));
  return dir;
}

function captureIo(): Io & { text(): string } {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  return { out: sink, err: sink, env: { CI: 'true' }, isTTY: false, text: () => out };
}

describe('conformance run end to end', () => {
  it('passes against a conformant server, writes reports, cleans up, and exits 0', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'conformance-reports-'));
    const io = captureIo();
    const code = await main(['run', '--base-url', base, '--api-key', KEY, '--suites-dir', suiteDir({ broken: '0', stall: '' }), '--report-dir', reports, '--seed', '7', '--fuzz-runs', '0'], io);
    expect(io.text()).toContain('PASS e2e');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8'));
    expect(report.verdict).toBe('pass');
    expect(report.summary.failed).toBe(0);
    const statuses = Object.fromEntries(report.results.map((r: { case: string; check: string; status: string }) => [`${r.case}/${r.check}`, r.status]));
    expect(statuses['processed/poll']).toBe('pass');
    expect(statuses['stream/sse_completion_ends_with_done']).toBe('pass');
    expect(statuses['complete/schema']).toBe('pass');
    expect(report.coverage.requirements['COMP-STOP-MAX4'].status).toBe('passed');
    // Nothing secret in any file the run wrote.
    for (const f of ['report.json', 'junit.xml', 'summary.md']) expect(readFileSync(join(reports, f), 'utf8')).not.toContain(KEY);
  });

  it('fails (exit 1) when a limit is not enforced, naming the rule and a reproducing command', async () => {
    const io = captureIo();
    const suites = suiteDir({ broken: '1', stall: '' });
    const code = await main(['run', '--base-url', base, '--api-key', KEY, '--suites-dir', suites, '--report-dir', mkdtempSync(join(tmpdir(), 'r-')), '--seed', '9'], io);
    expect(code).toBe(1);
    expect(io.text()).toContain('COMP-STOP-MAX4');
    expect(io.text()).toContain('the request breaks a rule of the spec, yet it was accepted');
    // The suite lives in --suites-dir: the command must say so, or it finds no suite named e2e.
    const command = `npx conformance run --suites-dir ${suites} --base-url ${base} --suite e2e --grep stop5 --seed 9`;
    expect(io.text()).toContain(`reproduce: ${command}`);
    expect(io.text()).not.toContain(KEY);
    // Run as printed (the key from the environment, as the command expects), it fails the same rule again.
    const again = captureIo();
    const rerun = await main([...command.split(' ').slice(2), '--report-dir', mkdtempSync(join(tmpdir(), 'r-'))], { ...again, env: { ...again.env, CONFORMANCE_API_KEY: KEY } });
    expect(rerun).toBe(1);
    expect(again.text()).toContain('COMP-STOP-MAX4');
    expect(again.text()).toContain(`reproduce: ${command}`);
  });

  it('fails a stalled stream by timeout instead of hanging', async () => {
    const io = captureIo();
    const started = Date.now();
    const code = await main(['run', '--base-url', base, '--api-key', KEY, '--suites-dir', suiteDir({ broken: '0', stall: '?stall=1' }), '--grep', 'stream', '--timeout', '400', '--report-dir', mkdtempSync(join(tmpdir(), 'r-'))], io);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(io.text()).toMatch(/never ended|stalled/);
  });

  it('exits 2 with file:line:col for a bad suite, and runs nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-'));
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nname: bad\narea: models\ncases:\n  - id: x\n    title: x\n    requirements: [MODEL-LIST]\n    request: { method: GET, path: /v1/models, bogus: 1 }\n');
    const io = captureIo();
    const code = await main(['run', '--base-url', 'http://127.0.0.1:9', '--suites-dir', dir], io);
    expect(code).toBe(2);
    expect(io.text()).toMatch(/bad\.yaml:8:\d+/);
    expect(io.text()).toContain('nothing was run');
  });

  it('exits 2 for usage errors', async () => {
    for (const argv of [['run', '--bogus'], ['run', '--model', 'painter=x'], ['run', '--suite', 'nope', '--base-url', base], ['frobnicate'], ['run', '--seed', 'x']]) {
      const io = captureIo();
      expect(await main(argv, io), argv.join(' ')).toBe(2);
    }
  });
});

describe('the engine never reports pass for what it could not evaluate', () => {
  const harness = loadHarness({ files: [] });
  const throwing: Check = { kind: 'response', name: 'always_throws', requirements: ['MODEL-LIST'], severity: 'must', summary: 'throws', run: () => { throw new Error('boom'); } };
  const registry = new CheckRegistry([...harness.registry.all(), throwing]);

  async function runOne(path: string, checks: string[], timeoutMs = 2000) {
    const dir = mkdtempSync(join(tmpdir(), 'one-'));
    writeFileSync(join(dir, 'one.yaml'), `version: 1\nname: one\narea: models\ncases:\n  - id: c\n    title: c\n    requirements: [MODEL-LIST]\n    request: { method: GET, path: ${path} }\n    expect: { status: 200, checks: [${checks.join(', ')}] }\n`);
    const plans = loadSuites([join(dir, 'one.yaml')], {
      requirementIds: new Set(harness.catalogue.byId.keys()), checkNames: registry.names(),
      schemaExists: () => true, builtinVariables: builtinVariableNames,
    });
    const profile = buildProfile({}, { baseUrl: base, credentials: { apiKey: KEY }, requestTimeoutMs: timeoutMs });
    const transport = new LiveTransport({ maxResponseBytes: 1 << 20, redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: [KEY] }) });
    try {
      return await runSuites({ plans, transport, profile, registry, schemas: harness.schemas, seed: 1, reproduce: () => '' });
    } finally {
      await transport.close();
    }
  }

  it('a check that throws is an error, which fails the run', async () => {
    const run = await runOne('/v1/models', ['always_throws']);
    const r = run.results.find((x) => x.check === 'always_throws')!;
    expect(r.status).toBe('error');
    expect(r.message).toContain('boom');
  });

  it('a poll that waits says for which request, and what it saw (the live progress line shows it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'poll-'));
    writeFileSync(join(dir, 'e2e.yaml'), SUITE.replace('cases:', 'variables: { broken: "0", stall: "" }\ncases:'));
    const plans = loadSuites([join(dir, 'e2e.yaml')], {
      requirementIds: new Set(harness.catalogue.byId.keys()), checkNames: registry.names(),
      schemaExists: () => true, builtinVariables: builtinVariableNames,
    });
    const profile = buildProfile({}, { baseUrl: base, credentials: { apiKey: KEY } });
    const transport = new LiveTransport({ maxResponseBytes: 1 << 20, redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: [KEY] }) });
    const waits: string[] = [];
    try {
      await runSuites({ plans, transport, profile, registry, schemas: harness.schemas, seed: 1, reproduce: () => '', listener: (e) => { if (e.type === 'waiting') waits.push(e.detail); } });
    } finally {
      await transport.close();
    }
    expect(waits.length).toBeGreaterThan(0);
    for (const w of waits) expect(w).toBe('processed, GET /v1/files/file-1: /status was "uploaded"');
  });

  it('a target that stops answering fails the case within the timeout', async () => {
    const started = Date.now();
    const run = await runOne('/v1/hang', [], 300);
    expect(Date.now() - started).toBeLessThan(3000);
    const r = run.results.find((x) => x.check === 'transport')!;
    expect(r.status).toBe('fail');
  });
});
