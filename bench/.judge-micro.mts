import { trafficSession } from '/work/main/src/traffic/session.ts';
import { fillBody } from '/work/main/src/transport/body-decode.ts';
import type { Exchange } from '/work/main/src/transport/types.ts';
const emb = Array.from({ length: 1536 }, (_, i) => Math.sin(i) / 40);
const bodies: Record<string, [unknown, string]> = {
  '/v1/completions': [{ model: 'davinci', prompt: 'hello', max_tokens: 2 }, JSON.stringify({ id: 'cmpl-1', object: 'text_completion', created: 1679000000, model: 'davinci', choices: [{ text: ' hello world', index: 0, logprobs: null, finish_reason: 'length' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })],
  '/v1/chat/completions': [{ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }, JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1679000000, model: 'gpt-3.5-turbo', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } })],
  '/v1/embeddings': [{ model: 'text-embedding-ada-002', input: 'hello' }, JSON.stringify({ object: 'list', data: [{ object: 'embedding', embedding: emb, index: 0 }], model: 'text-embedding-ada-002', usage: { prompt_tokens: 4, total_tokens: 4 } })],
};
const s = trafficSession('http://x');
const paths = Object.keys(bodies);
const run = (n: number, which?: string) => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const p = which ?? paths[i % 3]!;
    const [req, res] = bodies[p]!;
    const request = { method: 'POST' as const, url: 'http://x' + p, headers: {}, body: { kind: 'json' as const, value: req } };
    const pending = s.judge.begin(request, { suite: 's', startedAt: Date.now() });
    const ex: Exchange = { request, response: { status: 200, headers: { 'content-type': 'application/json' }, truncated: false }, attachments: {}, timing: { startedAt: 0, durationMs: 1 } };
    fillBody(ex.response!, Buffer.from(res), 'application/json');
    pending.finish(ex);
  }
  return (performance.now() - t0) / n;
};
run(2000);
console.log('mixed ms/exchange', run(6000).toFixed(3));
for (const p of paths) console.log(p, run(3000, p).toFixed(3));
{
  const t0 = performance.now();
  for (let i = 0; i < 6000; i++) {
    const p = paths[i % 3]!;
    const request = { method: 'POST' as const, url: 'http://x' + p, headers: {}, body: { kind: 'json' as const, value: bodies[p]![0] } };
    s.judge.begin(request, { suite: 's', startedAt: Date.now() });
  }
  console.log('begin only ms', ((performance.now() - t0) / 6000).toFixed(3));
}
