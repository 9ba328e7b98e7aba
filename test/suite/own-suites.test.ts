// Your own suites beside ours: `conformance run PATH...` (files or folders), `--only`, config `suites:`, schemas
// next to the suite, a catalogue of your own, and inline assertions on JSON bodies and on streams — checks like
// every other, whose failures name the assertion's file:line:col, pointer, expected and actual.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';
import { repoRoot } from '../../src/util/paths.ts';

const example = join(repoRoot, 'test', 'golden', 'own-suite');

async function run(args: string[]): Promise<{ code: number; out: string; err: string; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'own-'));
  let out = '';
  let err = '';
  const code = await main(['run', ...args, '--fuzz-runs', '0', '--report-dir', dir], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
  let report: Report | undefined;
  try { report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report; } catch { report = undefined; }
  return { code, out, err, ...(report ? { report } : {}) };
}

describe('your own suites', () => {
  it('a folder of two suite files with inline assertions on JSON and on a stream passes (--only)', async () => {
    const { code, out, report } = await run([example, '--only']);
    expect(code, out).toBe(0);
    expect(report!.suites.map((s) => s.suite).sort()).toEqual(['my-embeddings', 'my-smoke']);
    const asserts = report!.results.filter((r) => r.check.startsWith('assert['));
    expect(asserts.length).toBe(9);
    expect(asserts.every((r) => r.status === 'pass')).toBe(true);
    // The user's own catalogue is in the coverage, under its own IDs; uncatalogued cases cite nothing.
    expect(report!.coverage.requirements['MY-CHAT-STREAM']?.status).toBe('passed');
    expect(report!.results.filter((r) => r.case === 'models-list').every((r) => r.requirements.length === 0)).toBe(true);
  });

  it('a changed expected value fails, naming the assertion\'s file:line:col, pointer, expected and actual', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-suite-'));
    cpSync(example, dir, { recursive: true });
    const file = join(dir, 'my-embeddings.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('length: 1536', 'length: 1535'));
    const { code, out, report } = await run([dir, '--only']);
    expect(code, out).toBe(1);
    const failed = report!.results.filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.check)).toEqual(['assert[1]']);
    const f = failed[0]!;
    expect(f.message).toMatch(/^the body at \/data\/0\/embedding: length 1535: has length 1536, not 1535 \(.*my-embeddings\.yaml:13:11\)$/);
    expect(f.findings?.[0]).toMatchObject({ pointer: '/data/0/embedding', expected: 'length 1535' });
    expect(f.findings?.[0]?.actual).toBe('length 1536'); // what the predicate measured, not the 1536 floats
    expect(out).toContain('my-embeddings.yaml:13:11');
  });

  it('the printed command reproduces a failure of your suite, wherever its folder is (quoted for the shell)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'own-suite-')), "Jo's suites");
    cpSync(example, dir, { recursive: true });
    const file = join(dir, 'my-embeddings.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('length: 1536', 'length: 1535'));
    const { code, report } = await run([dir, '--only']);
    expect(code).toBe(1);
    const command = report!.results.find((r) => r.status === 'fail')!.reproduce!;
    expect(command.startsWith(`npx conformance run '${dir.replace("'", "'\\''")}' --only `)).toBe(true);
    // Through a real shell, from another folder: the same case fails the same assertion, and nothing else runs.
    const cwd = mkdtempSync(join(tmpdir(), 'own-rerun-'));
    const rerun = spawnSync('/bin/sh', ['-c', command.replace('npx conformance', `"${process.execPath}" "${join(repoRoot, 'bin', 'conformance.js')}"`)], { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 120_000 });
    expect(rerun.status, rerun.stdout + rerun.stderr).toBe(1);
    const again = JSON.parse(readFileSync(join(cwd, 'reports', 'report.json'), 'utf8')) as Report;
    expect(again.results.filter((r) => r.status === 'fail').map((r) => [r.suite, r.check])).toEqual([['my-embeddings', 'assert[1]']]);
    expect(new Set(again.results.map((r) => r.suite))).toEqual(new Set(['my-embeddings']));
  });

  it('a stream assertion that does not hold fails like any check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-suite-'));
    cpSync(example, dir, { recursive: true });
    const file = join(dir, 'my-smoke.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('count: { gte: 2 }', 'count: { gte: 100000 }'));
    const { code, report } = await run([join(dir, 'my-smoke.yaml'), '--only']);
    expect(code).toBe(1);
    expect(report!.results.find((r) => r.status === 'fail')?.message).toMatch(/count \d+ is not ≥ 100000 \(.*my-smoke\.yaml:20:11\)/);
  });

  it('without --only, your suites run beside ours; a name clash shows both positions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-suite-'));
    writeFileSync(join(dir, 'clash.yaml'), readFileSync(join(example, 'my-smoke.yaml'), 'utf8').replace('name: my-smoke', 'name: models').replace(/^requirements: .*$/m, '').replace('    requirements: [MY-CHAT-STREAM]\n', ''));
    const { code, err } = await run([join(dir, 'clash.yaml'), '--suite', 'models']);
    expect(code).toBe(2);
    expect(err).toMatch(/suite name "models" is already used by suites\/models\.yaml:\d+:\d+/);
    expect(err).toMatch(/clash\.yaml:3:7/);
  });

  it('the config file lists suites too, relative to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-config-'));
    cpSync(example, join(dir, 'mine'), { recursive: true });
    writeFileSync(join(dir, 'conformance.yaml'), 'suites: [mine]\n');
    const { code, report } = await run(['--config', join(dir, 'conformance.yaml'), '--only']);
    expect(code).toBe(0);
    expect(report!.suites.map((s) => s.suite).sort()).toEqual(['my-embeddings', 'my-smoke']);
  });

  it('a bad JSONPath or regular expression is a load error at its position', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-bad-'));
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nname: bad\narea: models\ncases:\n  - id: a\n    title: a\n    request: { method: GET, path: /v1/models }\n    expect:\n      assert:\n        - { path: "$.data[?", exists: true }\n        - { pointer: /object, matches: "(" }\n');
    const { code, err } = await run([dir, '--only']);
    expect(code).toBe(2);
    expect(err).toMatch(/not an RFC 9535 JSONPath[\s\S]*bad\.yaml:10:/);
    expect(err).toMatch(/not a regular expression[\s\S]*bad\.yaml:11:/);
  });

  it('a misspelt `with:` of a named check is a load error (exit 2) with a did-you-mean, not an ERROR or a skip at run time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-with-'));
    writeFileSync(join(dir, 'mine.yaml'), [
      'version: 1', 'name: mine', 'area: models', 'cases:',
      '  - id: list', '    title: list', '    request: { method: GET, path: /v1/models }',
      '    expect:', '      status: 200', '      checks: [{ name: model_still_listed, with: { modle: davinci } }]',
      '  - id: again', '    title: again', '    request: { method: GET, path: /v1/models }',
      '    expect:', '      checks: [{ name: engines_listed_as_models, with: { models_case: lsit } }]', '',
    ].join('\n'));
    const { code, out, err, report } = await run([dir, '--only']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(report).toBeUndefined();
    expect(err).toMatch(/model_still_listed has no parameter "modle"\n\s+--> \S*mine\.yaml:10:/);
    expect(err).toMatch(/did you mean "model"\?/);
    expect(err).toMatch(/engines_listed_as_models: parameter "models_case" names no earlier case of this suite: "lsit"[\s\S]*did you mean "list"\?/);
  });

  it('`conformance checks` lists the parameters each check takes', async () => {
    let out = '';
    const code = await main(['checks'], { out: { write: (s: string) => (out += s) }, err: { write: () => undefined }, env: {}, isTTY: false });
    expect(code).toBe(0);
    expect(out).toMatch(/^model_still_listed .*\n {4}.*\n {4}with model: a string, the model that must still be listed$/m);
    expect(out).toMatch(/^ft_stream_events_in_order .*\n {4}.*\n {4}with job \(optional\): an earlier case id, /m);
  });
});
