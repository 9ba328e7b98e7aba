import { Agent, request } from 'undici';
const base = process.argv[2];
const agent = new Agent({ connections: 128 });
const B = [['/v1/completions', JSON.stringify({ model: 'davinci', prompt: 'hello', max_tokens: 2 })], ['/v1/chat/completions', JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] })], ['/v1/embeddings', JSON.stringify({ model: 'text-embedding-ada-002', input: 'hello' })]];
const until = performance.now() + 4000; let n = 0;
await Promise.all(Array.from({ length: 64 }, async (_, w) => { for (let i = w; performance.now() < until; i++) { const [p, b] = B[i % 3]; const r = await request(base + p, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json' }, body: b }); await r.body.arrayBuffer(); n++; } }));
console.log(n / 4, 'req/s'); process.exit(0);
