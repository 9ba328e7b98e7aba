// Bad input is one clear line or file:line:col, with the documented exit code — never a stack trace, never a
// crash after the whole run, never a silently ignored value.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { repoRoot } from '../../src/util/paths.ts';

async function run(argv: string[]): Promise<{ code: number; err: string; out: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
  return { code, err, out };
}

const tmp = mkdtempSync(join(tmpdir(), 'bad-input-'));

describe('the config file is validated against schemas/config.schema.json', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['timeouts:\n  request_ms: "abc"\n', 'request_ms', /timeouts\.request_ms must be integer\n  --> .*:2:15/],
    ['max_response_bytes: big\n', 'size', /max_response_bytes must be integer\n  --> .*:1:21/],
    ['secret_headers: 5\n', 'headers', /secret_headers must be array/],
    ['base_url: 123\n', 'url', /base_url must be string\n  --> .*:1:11/],
    ['timeouts: 5\n', 'timeouts', /timeouts must be object/],
    ['context_lengths: { my-model: "4k" }\n', 'context', /context_lengths\.my-model must be integer/],
    ['models: { completion: 5 }\n', 'models', /models\.completion must be string/],
    ['models: { chatt: x }\n', 'role', /unknown field "chatt" in models[\s\S]*did you mean "chat"/],
  ];
  for (const [yaml, name, message] of cases) {
    it(`${name}: exit 2 with file:line:col, nothing runs`, async () => {
      const file = join(tmp, `${name}.yaml`);
      writeFileSync(file, yaml);
      const { code, err, out } = await run(['run', '--config', file, '--report-dir', join(tmp, `r-${name}`)]);
      expect(code).toBe(2);
      expect(err).toMatch(message);
      expect(err).not.toMatch(/\n\s+at /); // no stack trace
      expect(out).toBe('');
    });
  }
});

describe('bad paths and names are usage errors before anything runs', () => {
  it('a key quoted from a file in an error is hidden: a field named like a secret, and any value that is one of the run\'s keys', async () => {
    const key = 'sk-live-quoted-in-an-error-0123456789';
    const file = join(tmp, 'key-in-config.yaml');
    writeFileSync(file, `base_url: http://127.0.0.1:9/?k=${key}\napi_key: ${key}\nmodels: { chatt: ${key} }\n`);
    for (const argv of [['--api-key', key], [`--api-key=${key}`]]) {
      const { code, err } = await run(['run', '--config', file, ...argv, '--report-dir', join(tmp, 'r-key')]);
      expect(code).toBe(2);
      expect(err).toMatch(/--> .*key-in-config\.yaml:\d+:\d+/);
      expect(err).not.toContain(key.slice(0, 12));
    }
    // Not given to the run at all: the field's name still says it is a secret.
    writeFileSync(file, `api_key: ${key}\n`);
    const { err } = await run(['run', '--config', file, '--report-dir', join(tmp, 'r-key2')]);
    expect(err).toContain('api_key: ********');
    expect(err).not.toContain(key.slice(0, 12));
  });

  it('--report-dir under a file', async () => {
    writeFileSync(join(tmp, 'a-file'), 'x');
    const { code, err } = await run(['run', '--report-dir', join(tmp, 'a-file', 'reports'), '--suite', 'models']);
    expect(code).toBe(2);
    expect(err).toMatch(/--report-dir .*cannot write there \(ENOTDIR\)/);
  });
  it('--record --cassettes naming a file', async () => {
    const { code, err } = await run(['run', '--record', '--cassettes', join(tmp, 'a-file'), '--report-dir', join(tmp, 'r'), '--suite', 'models']);
    expect(code).toBe(2);
    expect(err).toMatch(/--cassettes .*cannot write there/);
  });
  it('--fault bogus', async () => {
    const { code, err } = await run(['run', '--fault', 'bogus', '--suite', 'models', '--report-dir', join(tmp, 'r')]);
    expect(code).toBe(2);
    expect(err).toMatch(/unknown fault "bogus" \(conformance serve --list-faults lists the \d+ faults, one per line\)/);
    expect(err.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
  });
});

describe('a crash is one line and exit 3', () => {
  it('serve on a busy port', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, err } = await run(['serve', '--port', String(port)]);
      expect(code).toBe(3);
      expect(err).toMatch(/^conformance serve: error: EADDRINUSE.*\n  hint: the port is taken: choose another with --port\n$/);
    } finally {
      blocker.close();
    }
  });
});

describe('a closed pipe ends the printing, not the run', () => {
  it('`conformance run | head -1` exits with the run\'s code and writes its reports', () => {
    const dir = join(tmp, 'piped');
    const script = `"${process.execPath}" "${join(repoRoot, 'bin', 'conformance.js')}" run --suite models --suite completions --fuzz-runs 0 --verbose --report-dir "${dir}" | head -c 10 > /dev/null; echo "status \${PIPESTATUS[0]}"`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(r.stdout.trim()).toBe('status 0');
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  }, 60_000);
});
