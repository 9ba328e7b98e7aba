// While a case is judged, the next case's request may already be in flight (runSuite's lookahead). The target
// must not be able to tell: one request at a time, in case order, and only the requests a run without the
// lookahead sends. Against servers on 127.0.0.1 whose answers the test fixes.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { loadHarness } from '../../src/run/setup.ts';
import { CheckRegistry } from '../../src/checks/registry.ts';
import type { Check } from '../../src/checks/types.ts';
import { builtinVariableNames, runSuites } from '../../src/engine/index.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import type { Report } from '../../src/report/types.ts';
import { loadSuites } from '../../src/suite/load.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import { Redactor } from '../../src/util/redact.ts';
import { localServer, type LocalServer } from '../local-server.ts';

let server: LocalServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

const header = (name: string) => `version: 1\nname: ${name}\narea: models\ndescription: lookahead\ncases:\n`;
const plain = (id: string, path: string, status = 200) =>
  `  - id: ${id}\n    title: ${id}\n    request: { method: GET, path: ${path} }\n    expect: { status: ${status} }\n`;

async function run(suite: string, url: string): Promise<{ code: number; report: Report; err: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'lookahead-'));
  writeFileSync(join(dir, 'suite.yaml'), suite);
  let out = '';
  let err = '';
  const code = await main(['run', dir, '--only', '--base-url', url, '--api-key', 'sk-lookahead-0000', '--report-dir', join(dir, 'reports')], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
  return { code, err, report: JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report };
}

const send = (res: Parameters<Parameters<typeof localServer>[0]>[1], status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('the next request goes while a case is judged', () => {
  it('one request at a time, in case order, each one once', async () => {
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    server = await localServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      seen.push(req.url!);
      // Answer a little later, so an overlapping request would be seen overlapping.
      setTimeout(() => { inFlight--; send(res, 200, { object: 'list', data: [] }); }, 5);
    });
    const paths = Array.from({ length: 30 }, (_, i) => `/v1/models?n=${i}`);
    const { code } = await run(header('order') + paths.map((p, i) => plain(`c${i}`, p)).join(''), server.url);
    expect(code).toBe(0);
    expect(seen.filter((u) => u.startsWith('/v1/models?'))).toEqual(paths);
    expect(most).toBe(1);
  });

  it('a rejection case blocked by its endpoint\'s failed baseline is never sent', async () => {
    const seen: string[] = [];
    server = await localServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      // The run's preflight (GET /v1/models) is answered; the endpoint under test fails.
      if (req.url === '/v1/models') return send(res, 200, { object: 'list', data: [] });
      send(res, 500, { error: { message: 'down', type: 'server_error', param: null, code: null } });
    });
    const suite = header('baseline') + plain('accepts', '/v1/engines') + plain('refuses', '/v1/engines', 404);
    const { report } = await run(suite, server.url);
    // A case of your own suite that cites no requirement states its own expectations: its status failure fails.
    expect(report.results.find((r) => r.case === 'accepts' && r.check === 'status')?.status).toBe('fail');
    expect(report.results.find((r) => r.case === 'refuses')?.status).toBe('blocked');
    expect(seen.filter((s) => s === 'GET /v1/engines')).toHaveLength(1);
  });

  it('a target that goes away answers the judged case; the problem belongs to the next one', async () => {
    // After the preflight's answer and the first case's, the target is gone: the request sent ahead meets a
    // refused connection.
    let served = 0;
    const target = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (++served === 2) res.on('finish', () => { target.closeAllConnections(); target.close(); });
        send(res, 200, { object: 'list', data: [] });
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const suite = header('gone') + plain('first', '/v1/models') + plain('second', '/v1/models?again=1') + plain('third', '/v1/models?again=2');
    const { code, report, err } = await run(suite, url);
    expect(code, err).toBe(3);
    expect(err).toContain('target unreachable');
    expect(report.results.find((r) => r.case === 'first')?.status).toBe('pass');
    expect(report.results.find((r) => r.case === 'second')?.status).toBe('skip');
    expect(report.results.find((r) => r.case === 'second')?.message).toMatch(/^not judged: target unreachable/);
    // The suite stopped there, as it does without the lookahead: nothing after it is sent or judged.
    expect(report.results.some((r) => r.case === 'third')).toBe(false);
  });

  it('the request sent ahead is on the wire before the case is judged, not after', async () => {
    // undici writes a request on a reused keep-alive socket one turn of the event loop after it is given it:
    // a lookahead that judged first would send nothing ahead. What undici writes, and when a check runs, in order.
    const events: string[] = [];
    const onHeaders = (message: unknown): void => { events.push(`sent ${(message as { request: { path: string } }).request.path}`); };
    const recording: Check = { kind: 'response', name: 'records_judging', requirements: ['MODEL-LIST'], severity: 'must', summary: 'records when it runs', run: (_exchange, ctx) => { events.push(`judged ${ctx.request.path}`); return []; } };
    const harness = loadHarness({ files: [] });
    const registry = new CheckRegistry([...harness.registry.all(), recording]);
    server = await localServer((_req, res) => send(res, 200, { object: 'list', data: [] }));
    const dir = mkdtempSync(join(tmpdir(), 'lookahead-'));
    const cases = [0, 1, 2, 3].map((i) => `  - id: c${i}\n    title: c${i}\n    requirements: [MODEL-LIST]\n    request: { method: GET, path: /v1/models/m${i} }\n    expect: { status: 200, checks: [records_judging] }\n`);
    writeFileSync(join(dir, 'suite.yaml'), header('wire') + cases.join(''));
    const plans = loadSuites([join(dir, 'suite.yaml')], { requirementIds: new Set(harness.catalogue.byId.keys()), checkNames: registry.names(), schemaExists: () => true, builtinVariables: builtinVariableNames });
    const profile = buildProfile({}, { baseUrl: server.url, credentials: { apiKey: 'sk-lookahead-0000' } });
    const transport = new LiveTransport({ maxResponseBytes: 1 << 20, redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: ['sk-lookahead-0000'] }) });
    subscribe('undici:client:sendHeaders', onHeaders);
    try {
      const run = await runSuites({ plans, transport, profile, registry, schemas: harness.schemas, seed: 1, reproduce: () => '' });
      expect(run.results.filter((r) => r.check === 'records_judging').map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    } finally {
      unsubscribe('undici:client:sendHeaders', onHeaders);
      await transport.close();
    }
    // The first request sent ahead may wait for a connection of its own to open; from then on, every one is
    // written before the case before it is judged.
    for (let i = 2; i < 4; i++) {
      expect(events.indexOf(`sent /v1/models/m${i}`), events.join(', ')).toBeLessThan(events.indexOf(`judged /v1/models/m${i - 1}`));
    }
    expect(events.filter((e) => e.startsWith('sent'))).toHaveLength(4);
  });
});
