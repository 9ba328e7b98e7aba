// `conformance plugin URL`: the short terminal report, the report files and the exit codes.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { goodPlugin, startHost, withManifest } from './host.ts';

async function cli(args: string[], interrupt?: AbortSignal): Promise<{ code: number; out: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-cmd-'));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['plugin', ...args, '--report-dir', dir], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false, ...(interrupt ? { interrupt } : {}) });
  return { code, out, dir };
}

describe('conformance plugin', () => {
  it('exits as run does when stopped: 130 for SIGINT, 143 for SIGTERM (a CI cancel)', async () => {
    const host = await startHost(goodPlugin());
    try {
      for (const [signal, exit] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
        const stop = new AbortController();
        stop.abort(signal);
        const { code } = await cli([host.url], stop.signal);
        expect(code, signal).toBe(exit);
      }
    } finally {
      await host.close();
    }
  });

  it('passes a good plugin: one line per check group, report files written, exit 0', async () => {
    const host = await startHost(goodPlugin());
    try {
      const { code, out, dir } = await cli([host.url]);
      expect(code).toBe(0);
      expect(out).toContain(`${host.url}/.well-known/ai-plugin.json`);
      expect(out).toMatch(/^✓ manifest\s+the plugin manifest/m);
      expect(out).toMatch(/^✓ openapi\s+/m);
      expect(out).toMatch(/^- operation:addNote .*--allow-writes/m);
      expect(out).toMatch(/PASS · \d+ passed · 0 failed/);
      for (const f of ['report.json', 'junit.xml', 'summary.md']) expect(existsSync(join(dir, f))).toBe(true);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      expect(report.target.pluginUrl).toBe(host.url);
      expect(report.coverage.requirements['ERR-PLUGIN-NO-MANIFEST'].status).toBe('passed');
    } finally {
      await host.close();
    }
  });

  it('reports a failure with its requirement, pointer, expected/actual and the URL fetched; exit 1', async () => {
    const host = await startHost(withManifest((m) => { m.name_for_model = 'n'.repeat(51); }));
    try {
      const { code, out } = await cli([host.url]);
      expect(code).toBe(1);
      expect(out).toMatch(/^✗ manifest .*\[PLUGIN-NAME-FOR-MODEL-MAX50\]/m);
      expect(out).toContain('FAIL plugin_manifest_name_for_model_length');
      expect(out).toContain('at /name_for_model: name_for_model has 51 characters; the limit is 50');
      expect(out).toContain('expected: "≤ 50 characters"');
      expect(out).toContain('actual:   51');
      expect(out).toContain(`request: GET ${host.url}/.well-known/ai-plugin.json`);
      // The limit flag changes the verdict.
      expect((await cli([host.url, '--max-name-for-model', '51'])).code).toBe(0);
    } finally {
      await host.close();
    }
  });

  it('reads plugin_limits from --config', async () => {
    const host = await startHost(withManifest((m) => { m.description_for_human = 'd'.repeat(121); }));
    const cfg = join(mkdtempSync(join(tmpdir(), 'plugin-cfg-')), 'c.yaml');
    writeFileSync(cfg, 'base_url: https://ignored.example\nplugin_limits:\n  description_for_human: 130\n');
    try {
      expect((await cli([host.url])).code).toBe(1);
      expect((await cli([host.url, '--config', cfg])).code).toBe(0);
    } finally {
      await host.close();
    }
  });

  it('a missing manifest: not installable, exit 1', async () => {
    const host = await startHost({ ...goodPlugin(), manifest: null });
    try {
      const { code, out } = await cli([host.url]);
      expect(code).toBe(1);
      expect(out).toContain('the plugin cannot be installed');
      expect(out).toContain('ERR-PLUGIN-NO-MANIFEST');
    } finally {
      await host.close();
    }
  });

  it('an unreachable host judged nothing: it says why in one line with what to do, exit 3', async () => {
    const host = await startHost(goodPlugin());
    const url = host.url;
    await host.close(); // nothing listens there any more
    const { code, out } = await cli([url]);
    expect(code).toBe(3);
    expect(out).toMatch(/error: target unreachable: GET .*\/\.well-known\/ai-plugin\.json: .*ECONNREFUSED/);
    expect(out).toContain('hint: check the plugin URL');
    expect(out).toContain('not a verdict on the plugin');
    expect(out).toMatch(/ERROR \(a problem of the run, not a verdict on the plugin\)/);
  });

  it('usage errors exit 2', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['ftp://x.example'])).code).toBe(2);
    expect((await cli(['http://127.0.0.1:9', '--max-response-chars', 'lots'])).code).toBe(2);
    expect((await cli(['http://127.0.0.1:9', '--bogus'])).code).toBe(2);
  });
});
