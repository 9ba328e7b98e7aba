// The proxy's cassette store and its key scan: a cassette never reaches the disk with a key the proxy knows of
// (each entry is scanned once, and all of them again when a key was learnt since), and a write the scan refused
// neither leaves a broken file nor keeps the proxy from stopping.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CassetteStore } from '../../src/proxy/store.ts';
import type { CassetteDefinition } from '../../src/transport/cassette.ts';

const LATER = 'sk-learnt-later-0123456789';
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function storeWith(keys: Set<string>): { store: CassetteStore; dir: string; scanned: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'store-guard-'));
  dirs.push(dir);
  const scanned: string[] = [];
  const store = new CassetteStore({
    dir, mode: 'record',
    file: {
      header: (name, interactions) => ({ format: 1, suite: name, base_url: 'http://upstream.test', seed: 0, credentials: { api_key: true, member_api_key: false }, interactions } as never),
      guard: (part) => {
        const text = Buffer.from(part).toString('utf8');
        scanned.push(text);
        for (const key of keys) if (text.includes(key)) throw new Error('a key is still in the text');
      },
      guardVersion: () => keys.size,
    },
  });
  return { store, dir, scanned };
}

const answer = (text: string): CassetteDefinition => ({ scope: 'http://upstream.test', method: 'POST', path: '/v1/completions', body: { prompt: 'p' }, status: 200, response: { text }, rawHeaders: ['content-type', 'application/json'], responseIsBinary: false });
const held = (dir: string) => (JSON.parse(readFileSync(join(dir, 'proxy.json'), 'utf8')) as unknown[]).length;
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms))]);

// Before the fix, the second flush() never ended: it waited on a write that had ended before it was registered,
// in a loop of promises only (no timer could fire, so this test hung instead of failing; vitest's run then times out).
describe('the cassette store\'s key scan', () => {
  it('looks at each entry once while no key is learnt since, and writes every entry', async () => {
    const { store, dir, scanned } = storeWith(new Set(['sk-known-0123456789']));
    for (const t of ['a', 'b', 'c']) { store.add('proxy', answer(t)); await within(store.flush(), 5000); }
    expect(held(dir)).toBe(3);
    // The first entry (it carries the header) at every write; each other entry once.
    expect(scanned.filter((s) => s.includes('"text":"b"'))).toHaveLength(1);
    expect(scanned.filter((s) => s.includes('"text":"a"'))).toHaveLength(3);
    expect(store.failures).toEqual([]);
  });

  it('a key learnt after an entry was kept stops the next write; the file stays whole, and the store still stops', async () => {
    const keys = new Set<string>();
    const { store, dir } = storeWith(keys);
    store.add('proxy', answer('first'));
    store.add('proxy', answer(`echoed ${LATER}`));
    await within(store.flush(), 5000);
    expect(held(dir)).toBe(2);
    keys.add(LATER);
    store.add('proxy', answer('clean'));
    await within(store.flush(), 5000);
    expect(store.failures).toHaveLength(1);
    expect(store.failures[0]).toMatch(/a key is still in the text/);
    expect(held(dir)).toBe(2);
  });
});
