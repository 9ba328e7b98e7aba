// Replaying a test's own recording (npm run bench:replay-own): 1,000 recorded exchanges (chat completions, streamed
// ones and embeddings, each request different) answered in process by useCassettes, over HTTP by
// `conformance serve --cassettes` (--timing none), and by nock.back replaying the same cassette file, which is in
// nock's own fixture format. Each is timed for the 1,000 calls, sequential, after a warm-up of 50.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { Agent, request } from 'undici';
import { startReferenceServer, useCassettes } from '../src/index.ts';
import { startProxy } from '../src/proxy/server.ts';
import { repoRoot } from '../src/util/paths.ts';

const N = Number(process.env.REPLAY_OWN_N ?? 1000);
const ORIGIN = 'http://replay.example';
const bodyOf = (i: number) => (i % 3 === 2
  ? { model: 'text-embedding-ada-002', input: `text ${i}` }
  : { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: `question ${i}` }], max_tokens: 8, ...(i % 3 === 1 ? { stream: true } : {}) });
const pathOf = (i: number) => (i % 3 === 2 ? '/v1/embeddings' : '/v1/chat/completions');

async function calls(base: string, send: (url: string, body: string) => Promise<string>): Promise<number> {
  for (let i = 0; i < 50; i++) await send(`${base}${pathOf(i)}`, JSON.stringify(bodyOf(i)));
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await send(`${base}${pathOf(i)}`, JSON.stringify(bodyOf(i)));
  return performance.now() - t0;
}
const viaFetch = async (url: string, body: string) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();

// Record the N exchanges (with a repeat of the warm-up's first 50, which are replayed in order again).
const dir = mkdtempSync(join(tmpdir(), 'replay-own-'));
const server = await startReferenceServer();
const proxy = await startProxy({ upstream: server.url, record: { dir, mode: 'record' }, defaultCassette: 'own' });
for (let i = 0; i < 50; i++) await viaFetch(`${proxy.url}${pathOf(i)}`, JSON.stringify(bodyOf(i)));
for (let i = 0; i < N; i++) await viaFetch(`${proxy.url}${pathOf(i)}`, JSON.stringify(bodyOf(i)));
await proxy.close();
await server.close();
const rows: string[] = [];
const row = (label: string, ms: number) => { console.error(`  ${label}: ${ms.toFixed(0)} ms`); rows.push(`| ${label} | ${ms.toFixed(0)} | ${((ms * 1000) / N).toFixed(0)} |`); };

// In process: useCassettes (the origin the test calls is given as host).
const handle = useCassettes(dir, { name: 'own', mode: 'lockdown', host: ORIGIN });
row('useCassettes, in process (fetch)', await calls(ORIGIN, viaFetch));
await handle.done();

// nock.back on the same file.
nock.back.fixtures = dir;
nock.back.setMode('lockdown');
const { nockDone } = await nock.back('own.json', { before: (def: nock.Definition) => { def.scope = ORIGIN; } });
row('nock.back, in process (fetch)', await calls(ORIGIN, viaFetch));
nockDone();
nock.restore();
nock.cleanAll();

// Over HTTP: conformance serve --cassettes, as a process of its own.
const child = spawn(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'serve', '--cassettes', dir, '--cassette', 'own', '--timing', 'none', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve) => { let out = ''; child.stdout!.on('data', (d: Buffer) => { out += d; const m = /served on (http:\/\/\S+) /.exec(out); if (m) resolve(m[1]!); }); });
const agent = new Agent({ keepAliveTimeout: 60_000 });
row('conformance serve --cassettes, over HTTP (undici)', await calls(url, async (u, body) => (await request(u, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json' }, body })).body.text()));
child.kill('SIGTERM');
console.log(`${N} replayed exchanges (1/3 streamed), sequential; Node ${process.version}\n| replay | total ms | µs per exchange |\n|---|---|---|\n${rows.join('\n')}`);
process.exit(0);
