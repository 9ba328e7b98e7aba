// useCassettes: the shipped recording answers a test of the user's own (own prompt, own client), as
// cassettes/README.md shows — with plain fetch and with the openai client v4.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai-v4';
import { afterEach, describe, expect, it } from 'vitest';
import { useCassettes, type CassetteHandle } from '../../src/index.ts';
import { repoRoot } from '../../src/util/paths.ts';

const dir = join(repoRoot, 'cassettes');
const HOST = 'https://api.example.com';
let handle: CassetteHandle | undefined;
afterEach(() => handle?.done());

describe('useCassettes', () => {
  it('loose: a request with its own prompt gets a recorded successful answer of the same endpoint (fetch)', async () => {
    handle = useCassettes(dir, { suites: ['chat'], match: 'loose', host: HOST });
    const res = await fetch(`${HOST}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-anything', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'a prompt of my own' }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; choices: Array<{ message: { role: string } }> };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]!.message.role).toBe('assistant');
  });

  it('loose: the openai client v4, streamed and not, is served the recording', async () => {
    handle = useCassettes(dir, { suites: ['chat', 'chat-stream'], match: 'loose', host: HOST });
    const client = new OpenAI({ apiKey: 'sk-anything', baseURL: `${HOST}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'my own question' }] });
    expect(completion.choices[0]!.message.role).toBe('assistant');
    const stream = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'my own question' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text.length).toBeGreaterThan(0);
  });

  it('strict: only the recorded body matches; anything else fails instead of reaching the network', async () => {
    const recorded = (JSON.parse(readFileSync(join(dir, 'embeddings.json'), 'utf8')) as Array<{ method: string; path: string; status: number; body?: unknown }>)
      .find((d) => d.method === 'POST' && d.status === 200 && d.body !== undefined)!;
    handle = useCassettes(dir, { suites: ['embeddings'], host: HOST });
    const post = (body: unknown) => fetch(`${HOST}${recorded.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(recorded.body)).status).toBe(200);
    // nock answers what no recording matches with 501 (never a call to the network).
    expect((await post({ model: 'text-embedding-ada-002', input: 'never recorded' })).status).toBe(501);
    expect(handle.pending().length).toBeGreaterThan(0);
  });

  it('bodyMatch decides body matching itself', async () => {
    handle = useCassettes(dir, { suites: ['embeddings'], host: HOST, bodyMatch: (rec, sent) => (rec as { model?: string }).model === (sent as { model?: string }).model });
    const res = await fetch(`${HOST}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'mine' }) });
    expect(res.status).toBeLessThan(500);
  });

  it('done() removes its interceptors and lets the network back', async () => {
    handle = useCassettes(dir, { suites: ['models'], host: HOST, match: 'loose' });
    expect((await fetch(`${HOST}/v1/models`)).status).toBe(200);
    handle.done();
    handle = undefined;
    const nock = (await import('nock')).default;
    expect(nock.pendingMocks().filter((m) => m.includes('api.example.com'))).toEqual([]);
  });
});
