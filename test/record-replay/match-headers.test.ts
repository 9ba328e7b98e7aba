// Matching on request headers from an allow-list (issue 32): none by default, so a client upgrade never breaks a
// replay; named headers are kept by the recording and matched by every replay (useCassettes, serve --cassettes),
// a miss says which header differed, and a secret header is refused.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer, useCassettes } from '../../src/index.ts';
import { startProxy } from '../../src/proxy/server.ts';
import { main } from '../../src/cli/main.ts';

const BODY = JSON.stringify({ model: 'text-embedding-ada-002', input: 'the same input' });
const embed = (base: string, tenant: string | undefined, key = 'sk-test') =>
  fetch(`${base}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...(tenant ? { 'x-tenant': tenant } : {}) }, body: BODY });

describe('request headers a recording is matched on', () => {
  it('are kept as recorded, and a replay serves each request the recording of its own header value', async () => {
    const server = await startReferenceServer();
    const dir = mkdtempSync(join(tmpdir(), 'match-headers-'));
    try {
      const handle = useCassettes(dir, { name: 'tenants', mode: 'record', target: server.url, matchHeaders: ['X-Tenant'] });
      const recorded = { a: await (await embed(server.url, 'a', server.credentials.apiKey)).json(), b: await (await embed(server.url, 'b', server.credentials.apiKey)).json() };
      await handle.done();
      const defs = JSON.parse(readFileSync(join(dir, 'tenants.json'), 'utf8')) as Array<{ reqheaders?: Record<string, string> }>;
      expect(defs.map((d) => d.reqheaders)).toEqual([{ 'x-tenant': 'a' }, { 'x-tenant': 'b' }]);
      expect(JSON.stringify(defs)).not.toContain(server.credentials.apiKey);

      // In process: b first, then a, each gets its own recording.
      const replay = useCassettes(dir, { name: 'tenants', mode: 'lockdown', matchHeaders: ['x-tenant'] });
      const origin = server.url;
      expect(await (await embed(origin, 'b')).json()).toEqual(recorded.b);
      expect(await (await embed(origin, 'a')).json()).toEqual(recorded.a);
      const miss = await embed(origin, 'c');
      expect(miss.status).toBe(404);
      expect(((await miss.json()) as { error: { message: string } }).error.message).toMatch(/header x-tenant: recorded [ab], sent c/);
      await replay.done();

      // Over HTTP, the same.
      const served = await startProxy({ record: { dir, mode: 'lockdown' }, defaultCassette: 'tenants', matchHeaders: ['x-tenant'], timing: 'none' });
      try {
        expect(await (await embed(served.url, 'b')).json()).toEqual(recorded.b);
        expect(await (await embed(served.url, 'a')).json()).toEqual(recorded.a);
        const none = await embed(served.url, undefined);
        expect(none.status).toBe(404);
        expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/header x-tenant: recorded [ab], sent \(none\)/);
      } finally {
        await served.close();
      }
    } finally {
      await server.close();
    }
  });

  it('are none by default: the recordings then answer in recorded order, whatever the header says', async () => {
    const server = await startReferenceServer();
    const dir = mkdtempSync(join(tmpdir(), 'match-headers-'));
    try {
      const handle = useCassettes(dir, { name: 'plain', mode: 'record', target: server.url });
      await embed(server.url, 'a', server.credentials.apiKey);
      await handle.done();
      expect(readFileSync(join(dir, 'plain.json'), 'utf8')).not.toContain('reqheaders');
      const replay = useCassettes(dir, { name: 'plain', mode: 'lockdown' });
      expect((await embed(server.url, 'someone-else')).status).toBe(200);
      await replay.done();
    } finally {
      await server.close();
    }
  });

  it('never include a secret header: refused with one clear line', async () => {
    expect(() => useCassettes(mkdtempSync(join(tmpdir(), 'mh-')), { matchHeaders: ['Authorization'] })).toThrow(/matchHeaders: authorization cannot be matched on: it carries a secret/);
    let err = '';
    const code = await main(['serve', '--cassettes', tmpdir(), '--match-header', 'x-api-key'], { out: { write: () => true }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
    expect(code).toBe(2);
    expect(err).toMatch(/--match-header: x-api-key cannot be matched on/);
  });
});
