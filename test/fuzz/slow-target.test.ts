// Fuzzing a slow target (a real proxy on 127.0.0.1 in front of the reference server): a case the fuzz cap cuts
// is not judged, never a failure; a single-worker server busy with a cut request is slow, not dead; a recording
// stays bounded and replays; and a status that did arrive is still judged.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';

let reference: ReferenceServer;
let proxy: Server;
let proxyUrl = '';
/** How the proxy treats POST /v1/completions and POST /v1/images/generations. */
let mode: { delayMs: number; serial: boolean; headersFirst?: RegExp } = { delayMs: 0, serial: false };
let queue = Promise.resolve();

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, delayFirst: number): Promise<void> {
  const target = new URL(reference.url);
  return new Promise((done) => {
    const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const send = () => { if (!res.destroyed) { res.writeHead(answer.statusCode ?? 502, answer.headers); res.end(Buffer.concat(chunks)); } done(); };
        // headersFirst: an out-of-limit request the proxy accepts (200) at once, its body only after the delay.
        if (mode.headersFirst?.test(body.toString())) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          setTimeout(() => { if (!res.destroyed) res.end('{}'); done(); }, mode.delayMs);
          return;
        }
        setTimeout(send, delayFirst);
      });
    });
    up.end(body);
  });
}

beforeAll(async () => {
  reference = await startReferenceServer();
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const slow = req.method === 'POST' && /^\/v1\/(completions|images\/generations)/.test(req.url ?? '');
      const job = () => forward(req, res, body, slow ? mode.delayMs : 0);
      // serial: one request at a time, as a single-worker server, which goes on with a request its client left.
      if (mode.serial) queue = queue.then(job);
      else void job();
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await reference.close();
});

async function run(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'slow-fuzz-'));
  let out = '';
  const code = await main(['run', '--base-url', proxyUrl, '--api-key', reference.credentials.apiKey, '--organization', reference.credentials.organization, '--seed', '4', '--report-dir', join(dir, 'r'), ...args], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, env: { CI: 'true' }, isTTY: false });
  return { code, out, dir, report: JSON.parse(readFileSync(join(dir, 'r', 'report.json'), 'utf8')) as Report };
}

describe('fuzzing a slow target', () => {
  it('a single-worker server slower than the fuzz budget: cases not judged, no failure, no false "stopped answering"', { timeout: 60_000 }, async () => {
    mode = { delayMs: 700, serial: true };
    const { code, out, report } = await run(['--suite', 'fuzz-completions', '--grep', 'completions.temperature', '--fuzz-budget-ms', '400', '--timeout', '5000', '--fuzz-runs', '2']);
    expect(report.problems, out).toEqual([]);
    expect(report.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.case}: ${r.message}`)).toEqual([]);
    expect(code, out).toBe(0);
    const fuzz = report.results.filter((r) => r.check === 'fuzz');
    expect(fuzz.length).toBeGreaterThan(0);
    for (const r of fuzz) expect(r.status, r.message).toBe('skip');
    expect(report.results.find((r) => r.check === 'baseline')?.status).toBe('skip');
  });

  it('recording against it stays bounded (each property runs its number of cases) and replays to the same verdicts', { timeout: 60_000 }, async () => {
    mode = { delayMs: 500, serial: false };
    const started = Date.now();
    rmSync(join(tmpdir(), `slow-cas-${process.pid}`), { recursive: true, force: true });
    const live = await run(['--suite', 'fuzz-completions', '--grep', 'completions.temperature.accept', '--fuzz-budget-ms', '200', '--timeout', '5000', '--fuzz-runs', '1', '--record', '--cassettes', join(tmpdir(), `slow-cas-${process.pid}`)]);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(live.code, live.out).toBe(0);
    // The recording's --grep is in its manifest: the replay selects those cases without being told.
    const replay = await run(['--cassettes', join(tmpdir(), `slow-cas-${process.pid}`)]);
    expect(replay.code, replay.out).toBe(0);
    const verdicts = (r: Report) => r.results.map((x) => `${x.case}/${x.check}: ${x.status}`);
    expect(verdicts(replay.report)).toEqual(verdicts(live.report));
  });

  it('a status that did arrive is judged: an out-of-limit n accepted (200 at once, the body late) fails the reject property', { timeout: 60_000 }, async () => {
    mode = { delayMs: 1500, serial: false, headersFirst: /"n":(1[1-9]|[2-9]\d|\d{3,})[,}]/ };
    const { code, report } = await run(['--suite', 'fuzz-images', '--grep', 'images.generations.n.reject', '--fuzz-budget-ms', '3000', '--timeout', '10000', '--fuzz-runs', '3']);
    const r = report.results.find((x) => x.case === 'images.generations.n.reject')!;
    expect(r.status, r.message).toBe('fail');
    expect(code).toBe(1);
  });
});
