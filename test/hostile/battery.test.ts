// The hostile-target battery: for every mode of test/hostile/server.ts, in live and in --record mode, the run
// ends within its stated bound, stays under 300 MiB of RSS (measured in a child process of its own), names what
// the target did, prints no stack trace, exits with the documented code, and leaks the key nowhere.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';
import { HOSTILE_MODES, startHostile, type HostileMode } from './server.ts';

const KEY = 'sk-hostile-battery-key-0123456789';
/** The child runs the TypeScript sources through tsx, resolved from here (the child's cwd is a temp folder). */
const TSX = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const TIMEOUT_MS = 1500;
const STREAM_TOTAL_MS = 3000;
/** Two cases, each bounded by the stream budget, plus the preflight, plus start-up and reports. */
const BOUND_MS = 2 * STREAM_TOTAL_MS + TIMEOUT_MS + 12_000;
const MAX_RSS_MIB = 300;

/** What the failure must say the target did, per mode. */
const SAYS: Record<HostileMode, RegExp> = {
  hang: /no response headers within 1500 ms/,
  'hang-after-headers': /timeout|stall|no data|silent|within/i,
  reset: /socket|reset|ECONNRESET|closed|other side/i,
  'drip-json': /timeout|within|not JSON|JSON/i,
  'drip-stream': /timeout|stall|within|ended/i,
  'endless-stream': /within|total|timeout|DONE|ended/i,
  'huge-body': /larger than|cap|too large|bytes/i,
  'gzip-bomb': /larger than|cap|too large|bytes/i,
  'gzip-bomb-multi': /larger than|cap|too large|bytes/i,
  'invalid-utf8': /not valid UTF-8 \(first bad byte at offset 82\)/,
  'truncated-json': /not JSON|JSON/i,
  'deep-json': /nest|deep|depth|JSON|schema|type/i,
  'html-200': /not JSON|text\/html|JSON/i,
  'huge-header': /header/i,
  'many-headers': /header|schema|JSON|object|Missing/i,
  'stream-cut-mid-event': /cut|ended|closed|terminated|socket|DONE|incomplete/i,
  'million-chunks': /max_tokens|chunks|events|bytes|DONE|larger/i,
  'key-echo': /expected 200, got 401/,
  'key-echo-json-escaped': /expected 200, got 401/,
  'key-echo-at-cut': /expected 200, got 401/,
  'key-echo-base64': /expected 200, got 401/,
  'dead-after-preflight': /error: the target stopped answering: POST http:\/\/127\.0\.0\.1:\d+\/v1\/completions(\?stream=1)? got no response \(.*within \d+ ms\), and then GET \/v1\/models neither/,
};
/** A target that answers nothing after the preflight is a problem of the run (exit 3), not a failure per case. */
const EXIT_CODE: Partial<Record<HostileMode, number>> = { 'dead-after-preflight': 3 };

/**
 * Whether a text shows the key, or more of its start than a masked key does, written plainly, JSON-escaped, or in
 * base64 (either alphabet, from any character of a base64 run).
 */
function holdsKey(text: string): boolean {
  const plain = text.replace(/\\+u002[dD]/g, '-').replace(/\\+\//g, '/');
  const shows = (t: string) => t.includes(KEY.slice(0, 12)) || t.includes(encodeURIComponent(KEY));
  if ([text, plain].some(shows)) return true;
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{16,}/g)) {
    const std = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let at = 0; at < 4; at++) if (shows(Buffer.from(std.slice(at), 'base64').toString('latin1'))) return true;
  }
  return false;
}

const root = mkdtempSync(join(tmpdir(), 'hostile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const suitesDir = join(root, 'suites');
mkdirSync(suitesDir);
writeFileSync(join(suitesDir, 'hostile.yaml'), `version: 1
name: hostile
area: completions
description: one JSON case and one stream case against a hostile target
cases:
  - id: json
    title: a completion
    requirements: [COMP-CREATE, RES-COMPLETION]
    request: { method: POST, path: /v1/completions, json: { model: davinci, prompt: hello, max_tokens: 8 } }
    expect: { status: 200, schema: resources/completion.schema.json, checks: [completion_usage_total_is_sum] }
  - id: stream
    title: a streamed completion
    requirements: [STREAM-COMP-SSE, STREAM-COMP-DONE]
    request: { method: POST, path: /v1/completions?stream=1, json: { model: davinci, prompt: hello, max_tokens: 8, stream: true }, stream: true }
    expect: { status: 200, checks: [sse_content_type, sse_data_only, sse_completion_ends_with_done] }
`);
const config = join(root, 'config.yaml');
// A 16 MiB cap instead of the default 64 MiB: the cap is what the size modes test, and reading 64 MiB within the
// 1.5 s request budget is a race on a loaded 2-core CI machine (the budget then ends the read first, and the
// failure says "timeout" where it must say "too large").
writeFileSync(config, `timeouts: { request_ms: ${TIMEOUT_MS}, stream_idle_ms: ${TIMEOUT_MS}, stream_total_ms: ${STREAM_TOTAL_MS} }\nmax_response_bytes: ${16 * 1024 * 1024}\n`);

interface Outcome { code: number; maxRssMiB: number; wallMs: number; out: string; err: string; dir: string }

function runChild(args: string[], dir: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, join(repoRoot, 'test', 'hostile', 'child.ts'), ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // 'close', not 'exit': the child may exit before its last stderr bytes (the @@child line) are read, which read
    // as a peak RSS of -1 KiB under load.
    child.on('close', (code) => {
      const m = /@@child (\{.*\})/.exec(err);
      const info = m ? (JSON.parse(m[1]!) as { maxRssKiB: number }) : { maxRssKiB: -1 };
      resolve({ code: code ?? -1, maxRssMiB: info.maxRssKiB / 1024, wallMs: Date.now() - started, out, err: err.replace(/\n@@child .*\n?$/, ''), dir });
    });
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const measured: string[] = [];
afterAll(() => console.log(`\nhostile battery (mode, transport: wall s, peak RSS MiB, exit)\n${measured.join('\n')}`));

describe.each(['live', 'record'] as const)('hostile targets, %s', (transport) => {
  it.concurrent.each([...HOSTILE_MODES])('%s', async (mode) => {
    const target = await startHostile(mode, KEY);
    const dir = mkdtempSync(join(root, `${transport}-${mode}-`));
    try {
      const args = ['run', '--base-url', target.url, '--api-key', KEY, '--config', config, '--suites-dir', suitesDir, '--suite', 'hostile', '--fuzz-runs', '0', '--report-dir', join(dir, 'reports'), ...(transport === 'record' ? ['--record', '--cassettes', join(dir, 'cassettes')] : [])];
      const o = await runChild(args, dir);
      measured.push(`${mode.padEnd(22)} ${transport.padEnd(6)} ${(o.wallMs / 1000).toFixed(1).padStart(5)} ${o.maxRssMiB.toFixed(0).padStart(5)} ${o.code}`);
      const said = `${o.out}\n${o.err}`;
      expect(o.code, said).toBe(EXIT_CODE[mode] ?? 1);
      expect(o.wallMs, said).toBeLessThan(BOUND_MS);
      expect(o.maxRssMiB, said).toBeGreaterThan(0);
      expect(o.maxRssMiB, said).toBeLessThan(MAX_RSS_MIB);
      expect(said).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
      expect(said).toMatch(SAYS[mode]);
      if (EXIT_CODE[mode] === 3) expect(JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')).summary.failed, said).toBe(0);
      for (const file of filesUnder(dir)) {
        const text = readFileSync(file, 'latin1');
        expect(holdsKey(text), `${file} holds the key`).toBe(false);
      }
      expect(holdsKey(said), said).toBe(false);
    } finally {
      await target.close();
    }
  }, 60_000);
});
