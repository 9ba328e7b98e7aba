// A replay gives back what the live run saw, including how an answer broke off: a gzip answer cut by a timeout is
// kept with no body, and its replay is that timeout again, never a decoding failure of the empty body.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ReplayTransport } from '../../src/transport/replay.ts';
import { Redactor } from '../../src/util/redact.ts';

it('replays a recorded timeout of a gzip answer as that timeout, and an empty gzip answer as an empty body', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-errors-'));
  const gz = ['content-type', 'application/json', 'content-encoding', 'gzip'];
  writeFileSync(join(dir, 's.json'), JSON.stringify([
    { scope: 'http://127.0.0.1:9', method: 'GET', path: '/v1/fine-tunes/ft-1', status: 200, response: '', rawHeaders: gz, responseIsBinary: false, error: { kind: 'timeout', message: 'no complete response within 10 ms' } },
    { scope: 'http://127.0.0.1:9', method: 'DELETE', path: '/v1/files/f-1', status: 200, response: '', rawHeaders: gz, responseIsBinary: false },
  ]));
  const t = new ReplayTransport({ dir, redactor: new Redactor({ secretHeaders: [], secretValues: [] }), maxResponseBytes: 1e7 });
  try {
    await t.beginSuite('s');
    const cut = await t.send({ method: 'GET', url: 'http://127.0.0.1:9/v1/fine-tunes/ft-1', headers: {}, bodySummary: { kind: 'none' }, stream: false }, { timeoutMs: 5000 });
    expect(cut.error).toEqual({ kind: 'timeout', message: 'no complete response within 10 ms' });
    const empty = await t.send({ method: 'DELETE', url: 'http://127.0.0.1:9/v1/files/f-1', headers: {}, bodySummary: { kind: 'none' }, stream: false }, { timeoutMs: 5000 });
    expect(empty.error).toBeUndefined();
    expect(empty.response?.status).toBe(200);
  } finally {
    await t.close();
  }
});
