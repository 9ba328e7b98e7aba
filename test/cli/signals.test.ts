// Interrupts as promised, with real signals to a real process: SIGINT and SIGTERM sent to the wrapper
// (bin/conformance.js on the system's older Node re-executes on the project's Node 24) reach the run, which
// finishes the request in flight, deletes what it created, writes its reports, and exits 130 / 143.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import { repoRoot } from '../../src/util/paths.ts';

const SYSTEM_NODE = '/usr/bin/node';
const servers: ReferenceServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => s.close())); });

async function api(server: ReferenceServer, method: string, path: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.credentials.apiKey}`, 'service-organization': server.credentials.organization } });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

async function jobs(server: ReferenceServer): Promise<Array<{ id: string; status: string; fine_tuned_model: string | null }>> {
  return (await api(server, 'GET', '/v1/fine-tunes')).json.data;
}

async function files(server: ReferenceServer): Promise<string[]> {
  return ((await api(server, 'GET', '/v1/files')).json.data as Array<{ id: string }>).map((f) => f.id);
}

/** The wrapper on the system's older Node (it re-executes the run), or the run itself on the project's Node. */
const LAUNCHERS = [
  ...(existsSync(SYSTEM_NODE) ? [['wrapper', SYSTEM_NODE]] as const : []),
  ['run', process.execPath] as const,
];

describe('signals reach the run, which finishes the request in flight and cleans up', () => {
  for (const [to, node] of LAUNCHERS) for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`${signal} to the ${to} while a job of the run is under way: exit ${code}, nothing the run created is left, reports written`, async () => {
      const server = await startReferenceServer({ trainingMs: 4000 });
      servers.push(server);
      const filesBefore = new Set(await files(server));
      const dir = mkdtempSync(join(tmpdir(), 'signals-'));
      const child = spawn(node, [join(repoRoot, 'bin', 'conformance.js'), 'run', '--base-url', server.url, '--api-key', server.credentials.apiKey, '--organization', server.credentials.organization, '--suite', 'fine-tunes', '--fuzz-runs', '0', '--report-dir', dir, '--poll-deadline', '20000'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      // Signal the wrapper as soon as the run has a job of its own under way.
      for (let i = 0; i < 300; i++) {
        if ((await jobs(server)).some((j) => j.status !== 'succeeded' && j.status !== 'cancelled' && j.status !== 'failed')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill(signal);
      const exit = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
      if (exit === 'hung') child.kill('SIGKILL');
      expect(exit, out).toBe(code);
      expect(out).toMatch(signal === 'SIGTERM' ? /terminated: finishing the current request/ : /interrupted: finishing the current request/);
      expect(existsSync(join(dir, 'report.json')), out).toBe(true);
      // A partial run without a failure is no pass, and no verdict on the target either.
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { interrupted: boolean; verdict: string; summary: { failed: number } };
      expect(report.interrupted).toBe(true);
      expect(report.verdict, out).toBe(report.summary.failed > 0 ? 'fail' : 'error');
      const left = (await jobs(server)).filter((j) => !['succeeded', 'cancelled', 'failed'].includes(j.status));
      expect(left.map((j) => `${j.id} ${j.status}`), out).toEqual([]);
      for (const j of await jobs(server)) if (j.fine_tuned_model) expect((await api(server, 'GET', `/v1/models/${j.fine_tuned_model}`)).status, `model of ${j.id}`).not.toBe(200);
      expect((await files(server)).filter((f) => !filesBefore.has(f)), out).toEqual([]);
    }, 60_000);
  }

  it('a second signal exits at once, without waiting for the request in flight', async () => {
    const server = await startReferenceServer({ trainingMs: 8000 });
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'signals-twice-'));
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'run', '--base-url', server.url, '--api-key', server.credentials.apiKey, '--suite', 'fine-tunes', '--fuzz-runs', '0', '--report-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    // Once a job of the run exists, its events stream stays open until the job finishes (8 s from now).
    for (let i = 0; i < 300 && !(await jobs(server)).length; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 200));
    const second = Date.now();
    child.kill('SIGINT');
    expect(await exited, out).toBe(130);
    expect(Date.now() - second, out).toBeLessThan(3000);
  }, 60_000);
});
