// conformance proxy with real clients: the openai client v4 against the reference server through the proxy,
// clean (no must-failure, every exchange recorded, no key in any file) and with faults (the proxy names the rule);
// the recording then replays to the same client code through useCassettes, offline.
import { readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, useCassettes, type CheckResult, type ReferenceServer } from '../../src/index.ts';
import { startProxy, type ProxyHandle } from '../../src/proxy/server.ts';
import { trafficSession } from '../../src/traffic/session.ts';
import { Configuration, OpenAIApi } from 'openai';
import { client, workload } from './workload.ts';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

async function through(opts: { faults?: string[]; readings?: string[]; record?: string }): Promise<{ server: ReferenceServer; proxy: ProxyHandle }> {
  const server = await startReferenceServer({ ...(opts.faults ? { faults: opts.faults } : {}), ...(opts.readings ? { readings: opts.readings } : {}), trainingMs: 100 });
  closers.push(() => server.close());
  const proxy = await startProxy({ upstream: server.url, judge: trafficSession(server.url).judge, ...(opts.record ? { record: { dir: opts.record, mode: 'record' } } : {}) });
  closers.push(() => proxy.close());
  return { server, proxy };
}

const mustFailures = (results: readonly CheckResult[]) => results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.case} ${r.check} ${r.requirements.join(',')}: ${r.message}`);

describe('conformance proxy, with the openai client v4', () => {
  it('relays a whole workload, judges it with no must-failure, and records it without the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-rec-'));
    const { server, proxy } = await through({ record: dir });
    const answers = await workload(client(`${proxy.url}/v1`, server.credentials.apiKey, 'app'));
    expect(answers.fineTune).toBe('succeeded');
    expect(answers.dims).toBe(1536);
    expect(answers.chunks).toBeGreaterThan(2);
    const { unused, writeFailures } = await proxy.close();
    expect(writeFailures).toEqual([]);
    expect(unused).toEqual([]);
    expect(mustFailures(proxy.results)).toEqual([]);
    expect(proxy.results.filter((r) => r.status === 'pass').length).toBeGreaterThan(40);
    const text = readFileSync(join(dir, 'app.json'), 'utf8');
    expect(text).not.toContain(server.credentials.apiKey);
    const defs = JSON.parse(text) as Array<{ path: string; chunks?: unknown[]; verdict?: { status: string }; multipart?: unknown; rawHeaders: string[] }>;
    expect(defs.map((d) => d.path)).toEqual(expect.arrayContaining(['/v1/completions', '/v1/chat/completions', '/v1/embeddings', '/v1/files', '/v1/images/edits', '/v1/fine-tunes']));
    const stream = defs.find((d) => d.chunks !== undefined)!;
    expect(stream.chunks!.length).toBeGreaterThan(2);
    expect(defs.every((d) => d.verdict?.status === 'pass' || d.verdict?.status === 'unjudged')).toBe(true);
    expect(defs.filter((d) => d.multipart !== undefined)).toHaveLength(2);
  });

  it('names the rule a faulty upstream breaks, on the exchange that shows it', async () => {
    const { server, proxy } = await through({ faults: ['usage-total-not-sum', 'embeddings-1535-dims', 'stream-missing-done', 'file-bytes-counts-characters'] });
    await workload(client(`${proxy.url}/v1`, server.credentials.apiKey), { fineTune: false }).catch(() => undefined);
    const broken = new Set(proxy.results.filter((r) => r.status === 'fail' || r.status === 'warn').flatMap((r) => r.requirements));
    expect([...broken]).toEqual(expect.arrayContaining(['COMP-USAGE-TOTAL-SUM', 'EMB-ADA-1536', 'STREAM-CHAT-DONE']));
    expect(proxy.results.find((r) => r.requirements.includes('EMB-ADA-1536') && r.status === 'fail')?.case).toMatch(/^POST \/v1\/embeddings @ \d{4}-/);
  });

  it('gives no must-failure to a server serving every other reasonable reading (--readings alt)', async () => {
    const { server, proxy } = await through({ readings: ['alt'] });
    await workload(client(`${proxy.url}/v1`, server.credentials.apiKey));
    expect(mustFailures(proxy.results)).toEqual([]);
  });

  it('records cassettes that useCassettes replays to the same client code, offline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-replay-'));
    const { server, proxy } = await through({ record: dir });
    const live = await workload(client(`${proxy.url}/v1`, server.credentials.apiKey, 'replayed'), { fineTune: false });
    await proxy.close();
    const handle = useCassettes(dir, { host: proxy.url });
    try {
      const replayed = await workload(client(`${proxy.url}/v1`, 'sk-some-other-key', 'replayed'), { fineTune: false });
      expect(replayed).toEqual(live);
      expect(handle.pending()).toEqual([]);
    } finally {
      handle.done();
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual(['replayed.json']);
  });

  it('relays the openai client v3 (axios) too: completion, chat, embedding, file listing', async () => {
    const { server, proxy } = await through({});
    const api = new OpenAIApi(new Configuration({ apiKey: server.credentials.apiKey, basePath: `${proxy.url}/v1` }));
    expect((await api.createCompletion({ model: 'text-davinci-003', prompt: 'Say this is a test', max_tokens: 5 })).data.object).toBe('text_completion');
    expect((await api.createChatCompletion({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] })).data.choices[0]!.message!.role).toBe('assistant');
    expect((await api.createEmbedding({ model: 'text-embedding-ada-002', input: 'hi' })).data.data[0]!.embedding).toHaveLength(1536);
    expect((await api.listFiles()).data.object).toBe('list');
    expect(new Set(proxy.results.map((r) => r.case.split(' @')[0]))).toEqual(new Set(['POST /v1/completions', 'POST /v1/chat/completions', 'POST /v1/embeddings', 'GET /v1/files']));
    expect(mustFailures(proxy.results)).toEqual([]);
  });
});
