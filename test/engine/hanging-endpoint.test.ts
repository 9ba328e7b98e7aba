// An endpoint that hangs while the rest of the target answers (issue 33, item 10): the first case on it waits
// --timeout and fails; every later case on it is blocked by that one without being sent, instead of waiting the
// same timeout again (36 chat cases at --timeout 3000 took 64 s; at the default 30 s, 18 minutes).
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { localServer, type LocalServer } from '../local-server.ts';

let reference: ReferenceServer;
let front: LocalServer;
/** Requests that reached the hanging endpoint. */
let hung = 0;
const dir = mkdtempSync(join(tmpdir(), 'hanging-'));

beforeAll(async () => {
  reference = await startReferenceServer();
  const target = new URL(reference.url);
  // The chat suite sends bodies only to the chat endpoint, which never answers: the rest (the model list) is
  // forwarded without one.
  front = await localServer((req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/v1/chat/completions')) { hung++; return; }
    httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    }).end();
  });
});
afterAll(async () => {
  await front.close();
  await reference.close();
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
});

it('asks a hanging endpoint once: the later cases on it are blocked by the first, not sent', { timeout: 90_000 }, async () => {
  let out = '';
  const started = Date.now();
  const code = await main(['run', '--base-url', front.url, '--api-key', reference.credentials.apiKey, '--suite', 'chat', '--fuzz-runs', '0', '--timeout', '1500', '--report-dir', dir], {
    out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, env: { CI: 'true' }, isTTY: false,
  });
  const seconds = (Date.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  const chatCases = new Set(report.results.filter((r) => r.suite === 'chat').map((r) => r.case));
  expect(code, out).toBe(1);
  expect(chatCases.size).toBeGreaterThan(20);
  // The first chat case, and no other, waited for the endpoint: --timeout plus its generation allowance (30 s for a
  // chat answer of unbounded length). Before, every case waited as long: about 25 minutes for this suite.
  expect(hung).toBe(1);
  expect(seconds, out).toBeLessThan(45);
  const failed = report.results.filter((r) => r.status === 'fail');
  expect(new Set(failed.map((r) => r.case)).size, JSON.stringify(failed.map((r) => `${r.case}/${r.check}`))).toBe(1);
  expect(report.results.filter((r) => r.status === 'blocked').length).toBeGreaterThan(20);
});
