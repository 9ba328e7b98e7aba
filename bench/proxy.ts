// What the proxy costs a client, measured as whole processes on this machine (npm run bench:proxy):
//   1. added latency, one request at a time, on the peer workload's three endpoints (fixed-server.mjs of
//      ../shared/bench/peers): p50 and p99 against talking to the upstream directly;
//   2. throughput at 64 concurrent clients, against a bare node:http pass-through proxy (bare-proxy.mjs), the floor
//      for any Node proxy here, and against talkback recording the same workload (when it can be installed);
//   3. a stream of 10^6 chunks: the proxy's peak RSS against its RSS when idle, and how long it holds the first chunk.
// The proxy runs as `conformance proxy` (the built CLI), judging every exchange; a second run also records, and two
// more relay and record with --no-judge (the README's advice for a heavy load).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { repoRoot, sharedDir } from '../src/util/paths.ts';
import { ensureBuilt } from './ensure-built.ts';

const SEQUENTIAL = Number(process.env.PROXY_BENCH_SEQUENTIAL ?? 3000);
const CONCURRENT_MS = Number(process.env.PROXY_BENCH_MS ?? 5000);
const CHUNKS = Number(process.env.PROXY_BENCH_CHUNKS ?? 1_000_000);
const STREAM_ROUNDS = Math.max(1, Number(process.env.PROXY_BENCH_STREAMS ?? 3));
const peers = join(sharedDir, 'bench', 'peers');
if (!existsSync(peers)) { console.log(`skipped: ${peers} is not there`); process.exit(0); }
ensureBuilt();
const children: ChildProcess[] = [];
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });

function start(args: string[], pattern: RegExp): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = pattern.exec(out); if (m) resolve({ url: m[1]!, child }); });
    child.once('exit', (c) => reject(new Error(`${args.join(' ')} exited ${c}: ${out}`)));
  });
}
const JSON_URL = /"(?:base_url|url)":\s*"([^"]+)"/;
const proxyOf = (upstream: string, extra: string[] = []) => start([join(repoRoot, 'bin', 'conformance.js'), 'proxy', '--upstream', upstream, '--quiet', '--report-dir', mkdtempSync(join(tmpdir(), 'bench-proxy-reports-')), ...extra], /conformance proxy on (http:\/\/\S+)/);

const BODIES: Array<[string, string]> = [
  ['/v1/completions', JSON.stringify({ model: 'davinci', prompt: 'hello', max_tokens: 2 })],
  ['/v1/chat/completions', JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] })],
  ['/v1/embeddings', JSON.stringify({ model: 'text-embedding-ada-002', input: 'hello' })],
];
const agent = new Agent({ connections: 128, keepAliveTimeout: 60_000 });
async function call(base: string, i: number, cassette?: string): Promise<void> {
  const [path, body] = BODIES[i % 3]!;
  const res = await request(`${base}${path}`, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-0123456789', ...(cassette ? { 'x-conformance-cassette': cassette } : {}) }, body });
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`${base}${path}: ${res.statusCode}`);
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
async function latencies(base: string): Promise<number[]> {
  for (let i = 0; i < 300; i++) await call(base, i);
  const out: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) { const t = performance.now(); await call(base, i); out.push(performance.now() - t); }
  return out;
}
async function throughput(base: string): Promise<number> {
  const until = performance.now() + CONCURRENT_MS;
  let done = 0;
  await Promise.all(Array.from({ length: 64 }, async (_, w) => { for (let i = w; performance.now() < until; i++) { await call(base, i, `bench-${w}`); done++; } }));
  return done / (CONCURRENT_MS / 1000);
}
const rssMiB = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

function talkbackModules(): string | undefined {
  if (process.env.TALKBACK_MODULES) return process.env.TALKBACK_MODULES;
  const dir = join(tmpdir(), 'bench-talkback');
  if (!existsSync(join(dir, 'node_modules', 'talkback'))) spawnSync('npm', ['i', '--prefix', dir, '--no-audit', '--no-fund', 'talkback@4.2.0'], { stdio: 'ignore', timeout: 120_000 });
  return existsSync(join(dir, 'node_modules', 'talkback')) ? join(dir, 'node_modules') : undefined;
}

const upstream = (await start([join(peers, 'fixed-server.mjs')], JSON_URL)).url;
const bare = (await start([join(repoRoot, 'bench', 'proxy', 'bare-proxy.mjs'), upstream], JSON_URL)).url;
const judging = await proxyOf(upstream);
const recording = await proxyOf(upstream, ['--record', mkdtempSync(join(tmpdir(), 'bench-proxy-cassettes-'))]);
// What the README offers for a heavy load: relay (and record) without judging, then `conformance judge` offline.
const relaying = await proxyOf(upstream, ['--no-judge']);
const recordingOnly = await proxyOf(upstream, ['--no-judge', '--record', mkdtempSync(join(tmpdir(), 'bench-proxy-cassettes-'))]);
const tbModules = talkbackModules();
const talkback = tbModules ? (await start([join(repoRoot, 'bench', 'proxy', 'talkback-proxy.mjs'), upstream, tbModules, mkdtempSync(join(tmpdir(), 'bench-talkback-tapes-'))], JSON_URL)).url : undefined;

const targets: Array<[string, string]> = [['direct', upstream], ['bare proxy', bare], ['conformance proxy (judging)', judging.url], ['conformance proxy (judging + recording)', recording.url], ['conformance proxy --no-judge', relaying.url], ['conformance proxy --no-judge (recording)', recordingOnly.url], ...(talkback ? [['talkback 4.2.0 (recording)', talkback] as [string, string]] : [])];
console.log(`machine: ${(await import('node:os')).cpus().length} cores, Node ${process.version}; ${SEQUENTIAL} sequential requests, 64 clients for ${CONCURRENT_MS} ms`);
const direct = await latencies(upstream);
const rows: string[] = [];
let bareRate = 0;
for (const [label, base] of targets) {
  const l = label === 'direct' ? direct : await latencies(base);
  const rate = await throughput(base);
  if (label === 'bare proxy') bareRate = rate;
  rows.push(`| ${label} | ${pct(l, 50).toFixed(3)} | ${(pct(l, 50) - pct(direct, 50)).toFixed(3)} | ${(pct(l, 99) - pct(direct, 99)).toFixed(3)} | ${rate.toFixed(0)} | ${bareRate ? ((100 * rate) / bareRate).toFixed(0) + ' %' : ''} |`);
}
console.log('| target | p50 ms | added p50 ms | added p99 ms | req/s at 64 clients | of bare proxy |\n|---|---|---|---|---|---|\n' + rows.join('\n'));

// The throughput phase's processes are stopped first: talkback, recording every exchange, was still writing
// tapes for seconds after its run, and the first-chunk delays of whatever came next measured its backlog.
for (const c of children.splice(0)) c.kill('SIGKILL');
// A stream of CHUNKS chunks through a judging proxy that does not record: memory stays flat. The first chunk's delay
// is measured the same way directly and through the bare proxy, for what the client's own reading adds.
const streamUp = (await start([join(repoRoot, 'bench', 'proxy', 'stream-server.mjs'), String(CHUNKS)], JSON_URL)).url;
const streamBare = (await start([join(repoRoot, 'bench', 'proxy', 'bare-proxy.mjs'), streamUp], JSON_URL)).url;
const streaming = await proxyOf(streamUp);
async function stream(base: string, chunks = CHUNKS): Promise<{ first: number; bytes: number; seconds: number }> {
  const t0 = performance.now();
  const res = await request(`${base}/v1/chat/completions`, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json', 'x-chunks': String(chunks) }, body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'go' }], stream: true }) });
  let first: number | undefined;
  let bytes = 0;
  for await (const chunk of res.body) {
    if (first === undefined) { const sent = Number(/"sent_at":([\d.]+)/.exec(String(chunk))![1]); first = performance.timeOrigin + performance.now() - sent; }
    bytes += (chunk as Buffer).length;
  }
  return { first: first!, bytes, seconds: (performance.now() - t0) / 1000 };
}
await new Promise((r) => setTimeout(r, 300));
// Each path is warmed up first with a short stream: the first stream a process relays compiles its code.
for (const base of [streamUp, streamBare, streaming.url]) await stream(base, 100);
await new Promise((r) => setTimeout(r, 300));
const idle = rssMiB(streaming.child.pid!, 'VmRSS');
// Each path three times, in turn, after a pause: reading 157 MiB leaves this (measuring) process garbage to collect,
// and a collection at the next stream's first chunk was counted as the proxy's delay (10-15 ms, bare proxy too).
const firsts: Record<'direct' | 'bare' | 'judging', number[]> = { direct: [], bare: [], judging: [] };
let judged: Awaited<ReturnType<typeof stream>> | undefined;
for (let round = 0; round < STREAM_ROUNDS; round++) {
  for (const [name, base] of [['direct', streamUp], ['bare', streamBare], ['judging', streaming.url]] as const) {
    await new Promise((r) => setTimeout(r, 500));
    const s = await stream(base);
    firsts[name].push(s.first);
    if (name === 'judging') judged = s;
  }
}
const peak = rssMiB(streaming.child.pid!, 'VmHWM');
const median = (xs: number[]) => pct(xs, 50).toFixed(2);
console.log(`${CHUNKS} chunks (${(judged!.bytes / 2 ** 20).toFixed(0)} MiB) in ${judged!.seconds.toFixed(1)} s through the judging proxy: idle RSS ${idle.toFixed(0)} MiB, peak over ${STREAM_ROUNDS} streams ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)} MiB)`);
console.log(`first chunk, from the upstream's write to the client's read (median of ${STREAM_ROUNDS}): direct ${median(firsts.direct)} ms, bare proxy ${median(firsts.bare)} ms, judging proxy ${median(firsts.judging)} ms (judging: ${firsts.judging.map((f) => f.toFixed(2)).join(', ')})`);
process.exit(0);
