// The README's "Record your own application" examples, run as written: the Node block with the openai client v4
// (installed here as openai-v4, so `openai` is resolved to it from a scratch folder) and the Python block with
// Debian's python3, both through the proxy to the reference server.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/index.ts';
import { startProxy } from '../../src/proxy/server.ts';
import { trafficSession } from '../../src/traffic/session.ts';
import { repoRoot } from '../../src/util/paths.ts';

const run = promisify(execFile);
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const block = (lang: string, kind = lang === 'sh' ? 'serve-example' : 'proxy-example') => new RegExp('```' + lang + ' ' + kind + '\\n([\\s\\S]*?)```').exec(readme)![1]!;

describe('README: Record your own application', () => {
  it('the Node and the Python example run as written, are recorded and judged', async () => {
    const server = await startReferenceServer();
    const dir = mkdtempSync(join(tmpdir(), 'readme-proxy-'));
    const proxy = await startProxy({ upstream: server.url, record: { dir: join(dir, 'cassettes'), mode: 'record' }, judge: trafficSession(server.url).judge });
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(join(repoRoot, 'node_modules', 'openai-v4'), join(dir, 'node_modules', 'openai'));
      writeFileSync(join(dir, 'example.mjs'), block('js'));
      writeFileSync(join(dir, 'example.py'), block('python'));
      const env = { ...process.env, PROXY_URL: proxy.url, OPENAI_API_KEY: server.credentials.apiKey };
      const node = await run(process.execPath, [join(dir, 'example.mjs')], { env, cwd: dir });
      const python = await run('python3', [join(dir, 'example.py')], { env, cwd: dir });
      expect(node.stdout.trim().length).toBeGreaterThan(0);
      expect(python.stdout.trim().length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
      await server.close();
    }
    // The serve examples, as written, answered from what the two examples above recorded.
    const served = await startProxy({ record: { dir: join(dir, 'cassettes'), mode: 'lockdown' }, defaultCassette: '*' });
    try {
      const env = { ...process.env, SERVE_URL: served.url };
      const curl = await run('sh', ['-c', block('sh')], { env });
      const python = await run('python3', ['-c', block('python', 'serve-example')], { env });
      expect((JSON.parse(curl.stdout) as { object: string }).object).toBe('chat.completion');
      expect(python.stdout.trim().length).toBeGreaterThan(0);
    } finally {
      await served.close();
    }
    for (const name of ['greeting', 'greeting-python']) {
      const text = readFileSync(join(dir, 'cassettes', `${name}.json`), 'utf8');
      expect(text).not.toContain(server.credentials.apiKey);
      expect(JSON.parse(text)).toHaveLength(1);
    }
    expect(proxy.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(proxy.results.filter((r) => r.status === 'pass').length).toBeGreaterThan(5);
  });
});
