// `npx conformance serve &` then `kill $!`: the signal reaches npm, which dies without passing it on. The server
// (and the proxy) must not live on as an orphan that keeps its port: when its parent is gone, it stops.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';

const SYSTEM_NODE = '/usr/bin/node';
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

/** A parent that starts the command and prints the child's pid, as npx would; the test then kills the parent outright. */
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.argv[1], process.argv.slice(2), { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.on('data', (d) => { if (/listening|served on|proxy on/.test(String(d))) process.stdout.write(String(child.pid) + '\\n'); });
setInterval(() => {}, 1000);
`;

async function orphanOf(node: string, args: string[]): Promise<{ pid: number; gone: boolean }> {
  const parent = spawn(process.execPath, ['-e', PARENT, node, join(repoRoot, 'bin', 'conformance.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) => parent.stdout!.on('data', (d: Buffer) => resolve(Number(String(d).trim().split('\n')[0]))));
  parent.kill('SIGKILL');
  for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  const gone = !alive(pid);
  if (!gone) process.kill(pid, 'SIGKILL');
  return { pid, gone };
}

describe('a server whose parent is killed stops', () => {
  it('conformance serve', async () => {
    expect((await orphanOf(process.execPath, ['serve', '--port', '0'])).gone).toBe(true);
  });

  it('conformance proxy', async () => {
    expect((await orphanOf(process.execPath, ['proxy', '--upstream', 'http://127.0.0.1:9', '--report-dir', mkdtempSync(join(tmpdir(), 'orphan-proxy-'))])).gone).toBe(true);
  });

  it.runIf(existsSync(SYSTEM_NODE))('conformance serve through the wrapper on the system Node (it re-executes on the project’s Node 24)', async () => {
    const { gone } = await orphanOf(SYSTEM_NODE, ['serve', '--port', '0']);
    expect(gone).toBe(true);
  });
});
