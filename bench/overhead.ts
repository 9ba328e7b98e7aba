// Overhead benchmark (harness-core issue): 1000 rounds × 3 sequential POSTs (completions, chat,
// embeddings with 1536 floats), each checked for status and schema, through the harness — and the same
// requests through a bare undici loop validating with ajv. Prints both times, the ratio and peak memory.
// Target: harness ≤ 1.3× the bare loop, harness peak RSS < 150 MiB.
//
// The server and each client run in their own process, so each client's memory is its own
// (process.resourceUsage().maxRSS) and neither shares a CPU core's event loop with the server.
// Timings on a shared 2-core machine vary by ±30% from pass to pass: the best and the median of
// alternating passes are reported. Run: npm run bench:overhead [-- --rounds N --repeat K --warmups W]

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const arg = (name: string, fallback: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : fallback; };
const rounds = Number(arg('rounds', '1000'));
const repeat = Number(arg('repeat', '5'));
const role = arg('role', 'main');

const usage = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 };
const BODIES: Record<string, string> = {
  '/v1/completions': JSON.stringify({ id: 'cmpl-1', object: 'text_completion', created: 1, model: 'davinci', choices: [{ text: ' hello world', index: 0, logprobs: null, finish_reason: 'length' }], usage }),
  '/v1/chat/completions': JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-3.5-turbo', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }], usage }),
  '/v1/embeddings': JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: Array.from({ length: 1536 }, (_, i) => Math.sin(i) / 10) }], model: 'text-embedding-ada-002', usage: { prompt_tokens: 3, total_tokens: 3 } }),
};
const STEPS = [
  { path: '/v1/completions', schema: 'resources/completion.schema.json', json: { model: 'davinci', prompt: 'hello', max_tokens: 5 } },
  { path: '/v1/chat/completions', schema: 'resources/chat-completion.schema.json', json: { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hello' }] } },
  { path: '/v1/embeddings', schema: 'resources/embedding-result.schema.json', json: { model: 'text-embedding-ada-002', input: 'hello' } },
];

async function serve(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[req.url!] ?? '{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
  process.stdin.on('end', () => server.close()).resume();
}

async function bare(base: string): Promise<number> {
  const { Agent, request } = await import('undici');
  const { Ajv } = await import('ajv');
  const { repoRoot } = await import('../src/util/paths.ts');
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = STEPS.map((s) => ajv.compile(JSON.parse(readFileSync(join(repoRoot, 'schemas', s.schema), 'utf8'))));
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const started = performance.now();
  let failures = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [i, step] of STEPS.entries()) {
      const res = await request(base + step.path, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' }, body: JSON.stringify(step.json) });
      const body = await res.body.json();
      if (res.statusCode !== 200 || !validators[i]!(body)) failures++;
    }
  }
  const ms = performance.now() - started;
  await agent.close();
  if (failures) throw new Error(`bare loop saw ${failures} failures`);
  return ms;
}

async function harness(base: string): Promise<number> {
  const { loadHarness } = await import('../src/run/setup.ts');
  const { runSuites } = await import('../src/engine/run.ts');
  const { buildProfile } = await import('../src/profile/profile.ts');
  const { LiveTransport } = await import('../src/transport/live.ts');
  const { Redactor } = await import('../src/util/redact.ts');
  const { schemas, registry, catalogue } = loadHarness({ files: [] });
  const requirement = catalogue.list.find((r) => r.severity === 'must')!.id;
  const cases = [];
  for (let round = 0; round < rounds; round++) {
    for (const step of STEPS) cases.push({ id: `r${round}-${step.path.split('/').pop()}`, title: step.path, requirements: [requirement], request: { method: 'POST' as const, path: step.path, json: step.json }, expect: { status: 200, schema: step.schema } });
  }
  const plan = { spec: { version: 1 as const, name: 'overhead', area: 'completions' as const, cases }, file: 'bench', casePositions: [] };
  const profile = buildProfile({}, { baseUrl: base, credentials: { apiKey: 'sk-bench' } });
  const transport = new LiveTransport({ maxResponseBytes: profile.maxResponseBytes, redactor: new Redactor({ secretHeaders: profile.secretHeaders, secretValues: ['sk-bench'] }) });
  const started = performance.now();
  const run = await runSuites({ plans: [plan], transport, profile, registry, schemas, seed: 1, reproduce: () => '' });
  const ms = performance.now() - started;
  await transport.close();
  const bad = run.results.find((r) => r.status !== 'pass');
  if (bad) throw new Error(`harness saw a non-passing result: ${bad.message}`);
  return ms;
}

/** One measurement in a fresh process: warm up once, then time one pass. */
async function client(kind: 'bare' | 'harness', base: string): Promise<void> {
  const fn = kind === 'bare' ? bare : harness;
  let peakHeap = 0;
  const sampler = setInterval(() => { peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed); }, 5);
  const warmups = Number(arg('warmups', '1'));
  for (let i = 0; i < warmups; i++) await fn(base);
  const ms = await fn(base);
  clearInterval(sampler);
  process.stdout.write(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, peakHeapMiB: peakHeap / 1048576 }) + '\n');
}

function runChild(args: string[]): Promise<string> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`))));
    child.stdin.end();
  });
}

async function mainRole(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const server = spawn(process.execPath, ['--import', 'tsx', self, '--role', 'server'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((r) => server.stdout.once('data', (d) => r(String(d).trim())));
  const base = `http://127.0.0.1:${port}`;
  type Sample = { ms: number; maxRssMiB: number; peakHeapMiB: number };
  const samples = { bare: [] as Sample[], harness: [] as Sample[] };
  for (let i = 0; i < repeat; i++) {
    for (const kind of ['bare', 'harness'] as const) samples[kind].push(JSON.parse(await runChild(['--role', kind, '--base', base, '--rounds', String(rounds)])));
  }
  server.stdin.end();
  server.kill();
  const best = (xs: Array<{ ms: number }>) => Math.min(...xs.map((x) => x.ms));
  const median = (xs: Array<{ ms: number }>) => [...xs.map((x) => x.ms)].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const peak = (xs: Sample[]) => Math.max(...xs.map((x) => x.maxRssMiB));
  const heap = (xs: Sample[]) => Math.max(...xs.map((x) => x.peakHeapMiB));
  const n = rounds * 3;
  console.log(`requests: ${n} per pass (${rounds} rounds × 3 POSTs, status + schema each); ${repeat} passes each, fresh process per pass`);
  console.log(`bare undici + ajv loop: best ${best(samples.bare).toFixed(0)} ms, median ${median(samples.bare).toFixed(0)} ms (${(n / (best(samples.bare) / 1000)).toFixed(0)} req/s), peak heap ${heap(samples.bare).toFixed(0)} MiB, peak RSS ${peak(samples.bare).toFixed(0)} MiB`);
  console.log(`harness:                best ${best(samples.harness).toFixed(0)} ms, median ${median(samples.harness).toFixed(0)} ms (${(n / (best(samples.harness) / 1000)).toFixed(0)} req/s), peak heap ${heap(samples.harness).toFixed(0)} MiB, peak RSS ${peak(samples.harness).toFixed(0)} MiB`);
  console.log(`ratio harness/bare:     best ${(best(samples.harness) / best(samples.bare)).toFixed(2)}×, median ${(median(samples.harness) / median(samples.bare)).toFixed(2)}× (target ≤ 1.30×)`);
  console.log(`harness peak memory:    heap ${heap(samples.harness).toFixed(0)} MiB, RSS ${peak(samples.harness).toFixed(0)} MiB (target < 150 MiB; the bare loop's own RSS is in the line above)`);
}

if (role === 'server') await serve();
else if (role === 'bare' || role === 'harness') await client(role, arg('base', ''));
else await mainRole();
