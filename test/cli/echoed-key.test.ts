// A target that echoes the key back in its answers ("Incorrect API key provided: sk-…", also URL-encoded):
// the key must not reach the console (verbose included), a report, or any file the run writes.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { localServer, type LocalServer } from '../local-server.ts';
import { repoRoot } from '../../src/util/paths.ts';

const KEY = 'sk-echo/key+with=specials-0123456789';
let server: LocalServer;
let base = '';

beforeAll(async () => {
  server = await localServer((req, res) => {
    if (req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    const said = `Incorrect API key provided: ${KEY} (${encodeURIComponent(KEY)})`;
    res.writeHead(400, { 'content-type': 'application/json', 'x-echo': encodeURIComponent(KEY) }).end(JSON.stringify({ error: { message: said, type: 'invalid_request_error', param: null, code: null } }));
  });
  base = server.url;
});
afterAll(() => server.close());

it('never prints or writes a key the target echoes back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'echo-'));
  let out = '';
  let err = '';
  const code = await main(['run', '--base-url', base, '--api-key', KEY, '--suite', 'completions', '--fuzz-runs', '0', '--verbose', '--report-dir', dir], {
    out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false,
  });
  expect(code).toBe(1);
  expect(out).toContain('Incorrect API key provided: REDACTED');
  for (const text of [out, err, ...readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'))]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(encodeURIComponent(KEY));
  }
});

it('diff prints no key the target echoes back in an answer that differs from the recording', async () => {
  // A completion whose `object` holds the key: the difference diff prints shows the value received.
  const echoing = await localServer((req, res) => {
    const said = `Incorrect API key provided: ${KEY} (${encodeURIComponent(KEY)})`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url === '/v1/models' ? { object: 'list', data: [] } : { id: 'cmpl-1', object: said, created: 1, model: 'davinci', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  });
  const dir = mkdtempSync(join(tmpdir(), 'echo-diff-'));
  let out = '';
  let err = '';
  try {
    const code = await main(['diff', '--against', join(repoRoot, 'cassettes'), '--suite', 'completions', '--base-url', echoing.url, '--api-key', KEY, '--report-dir', dir], {
      out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false,
    });
    expect(code, err).toBe(0);
  } finally {
    await echoing.close();
  }
  expect(out).toContain('received: "Incorrect API key provided: REDACTED (REDACTED)"');
  for (const text of [out, err, ...readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'))]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(encodeURIComponent(KEY));
  }
});
