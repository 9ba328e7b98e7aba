import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { ReferenceServer } from '../../src/reference/index.ts';
import { Client, sseData, startWithClient } from './helpers.ts';

let server: ReferenceServer;
let client: Client;
beforeAll(async () => ({ server, client } = await startWithClient()));
afterAll(() => server.close());

describe('server-sent events', () => {
  it('streams completions as data-only events in several socket writes, ending with [DONE]', async () => {
    const res = await request(`${server.url}/v1/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-ref-owner', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ada', prompt: 'alpha beta gamma', stop: ['gamma'], stream: true, logprobs: 1 }),
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const reads: string[] = [];
    for await (const chunk of res.body) reads.push(String(chunk));
    const text = reads.join('');
    expect(reads.length).toBeGreaterThan(1);
    expect(text).not.toMatch(/^(event|id):/m);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const events = sseData(text);
    const chunks = events.slice(0, -1) as { object: string; choices: { text: string; finish_reason: string | null; logprobs: unknown }[] }[];
    expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
    expect(chunks.map((c) => c.choices[0]!.text).join('')).toBe(' alpha beta ');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks[0]!.choices[0]!.logprobs).toMatchObject({ tokens: [' alpha'] });
  });

  it('streams chat with a role delta first and an empty final delta', async () => {
    const res = await client.post('/v1/chat/completions', { model: 'gpt-4', messages: [{ role: 'user', content: 'one two' }], stream: true });
    const events = sseData(res.text);
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1) as { object: string; choices: { delta: Record<string, string>; finish_reason: string | null }[] }[];
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]!.delta)).toEqual([{ role: 'assistant' }, { content: 'one' }, { content: ' two' }, {}]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('a hanging stream is torn down by close()', async () => {
    const hanging = await startReferenceServer({ faults: ['stream-hangs'] });
    const res = await request(`${hanging.url}/v1/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-ref-owner', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ada', prompt: 'a', max_tokens: 2, stream: true }),
    });
    let received = '';
    const reading = (async () => {
      try {
        for await (const chunk of res.body) received += String(chunk);
      } catch {
        /* socket destroyed by close() */
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    expect(received.endsWith('data: [DONE]\n\n')).toBe(true);
    await hanging.close();
    await reading;
  });
});
