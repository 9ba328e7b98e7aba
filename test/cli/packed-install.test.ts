// Installed as a dependency, the way a user gets it: `npm pack`, install the tarball into a fresh project, then
// run its bin and import its API from there — compiled JavaScript, no tsx, reports under the project's cwd.
// Slow (pack, install): one pack and one install for the whole file.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let project = '';
/** `conformance serve` of the installed package, in its own process (the runs below block this one). */
let serve: ChildProcess | undefined;
let serverUrl = '';
const KEY = 'sk-ref-owner';
let packError: string | undefined;

/** npm on the PATH of the test's own Node (node_modules/.bin first, as in npm scripts). */
const env = { ...process.env, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'packed-'));
  try {
    execFileSync(npm, ['pack', '--pack-destination', work], { cwd: repoRoot, env, stdio: 'pipe' });
  } catch (e) {
    packError = `npm pack failed: ${String((e as { stderr?: Buffer }).stderr ?? e).split('\n').slice(-5).join(' ')}`;
    return;
  }
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  project = join(work, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball)], { cwd: project, env, stdio: 'pipe' });
  cpSync(join(repoRoot, 'test', 'golden', 'own-suite'), join(project, 'suites'), { recursive: true });
  serve = spawn(process.execPath, [join(project, 'node_modules', '.bin', 'conformance'), 'serve', '--port', '0'], { cwd: project, env, stdio: ['ignore', 'pipe', 'inherit'] });
  serverUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`conformance serve did not start: ${seen}`)), 30_000);
    serve!.stdout!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /listening on (http:\/\/\S+) /.exec(seen);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    });
  });
}, 300_000);

// Without a packed project, `project` is '' and every path below would be the repository's own folder: a failed
// pack once left use.ts and a rewritten tsconfig.json there. No test body runs then.
beforeEach(() => { if (packError) throw new Error(packError); });

afterAll(async () => {
  serve?.kill('SIGTERM');
  if (project) rmSync(join(project, '..'), { recursive: true, force: true });
});

function conformance(args: string[], node = process.execPath) {
  const bin = join(project, 'node_modules', '.bin', 'conformance');
  const r = spawnSync(node, [bin, ...args], { cwd: project, env: { ...env, CI: 'true' }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const target = () => ['--base-url', serverUrl, '--api-key', KEY];

describe('installed from the packed tarball', () => {
  it("is the documented install route, with commands that exist today (the registry name is for later, issue 33, item 6)", () => {
    const readme = readFileSync(join(repoRoot, 'docs', 'library.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Install it in your project'), readme.indexOf('\n## ', readme.indexOf('## Install it in your project') + 5));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    expect(block).toMatch(/^npm pack$/m);
    expect(block).toMatch(/^npm install --save-dev \S+model-api-conformance-0\.1\.0\.tgz$/m);
    expect(block).not.toMatch(/^npm install --save-dev model-api-conformance\b/m);
    expect(readdirSync(join(project, '..')).some((f) => f === 'model-api-conformance-0.1.0.tgz')).toBe(true);
  });

  it('ships compiled JavaScript and type declarations, not the TypeScript sources', () => {
    if (packError) throw new Error(packError);
    const pkg = join(project, 'node_modules', 'model-api-conformance');
    expect(existsSync(join(pkg, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(pkg, 'src'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
  });

  it('runs a suite folder of its own and writes reports under the current directory', () => {
    const r = conformance(['run', './suites', '--only', ...target()]);
    expect(r.code, r.out + r.err).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'reports', 'report.json'), 'utf8'));
    expect(report.verdict).toBe('pass');
    expect(report.suites.map((s: { suite: string }) => s.suite).sort()).toEqual(['my-embeddings', 'my-smoke']);
    expect(existsSync(join(project, 'node_modules', 'model-api-conformance', 'reports'))).toBe(false);
  });

  it('a changed expected value fails with the assertion\'s file:line:col, pointer, expected and actual', () => {
    const file = join(project, 'suites', 'my-embeddings.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('length: 1536', 'length: 1024'));
    try {
      const r = conformance(['run', './suites', '--only', ...target()]);
      expect(r.code, r.out + r.err).toBe(1);
      expect(r.out).toMatch(/suites\/my-embeddings\.yaml:\d+:\d+/);
      expect(r.out).toContain('/data/0/embedding');
      expect(r.out).toMatch(/expected:\s+"length 1024"/);
      expect(r.out).toMatch(/actual:\s+"length 1536"/);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('is usable as a library: start the reference server, run suites, get the report', () => {
    writeFileSync(join(project, 'use.mjs'), `
import { runConformance, startReferenceServer } from 'model-api-conformance';
const server = await startReferenceServer();
try {
  const { exitCode, report } = await runConformance({ baseUrl: server.url, apiKey: server.credentials.apiKey, paths: ['./suites'], only: true });
  console.log(JSON.stringify({ exitCode, verdict: report.verdict, results: report.results.length }));
} finally {
  await server.close();
}
`);
    const r = spawnSync(process.execPath, ['use.mjs'], { cwd: project, env, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(out).toMatchObject({ exitCode: 0, verdict: 'pass' });
    expect(out.results).toBeGreaterThan(5);
  });

  it('type-checks a TypeScript user of the API against the shipped declarations', () => {
    writeFileSync(join(project, 'use.ts'), `
import { runConformance, useCassettes, type Report, type RunConformanceOptions } from 'model-api-conformance';
const options: RunConformanceOptions = { suites: ['models'], fuzzRuns: 0 };
export async function verdict(): Promise<Report['verdict'] | undefined> { return (await runConformance(options)).report?.verdict; }
export const handle: () => void = () => useCassettes('cassettes', { match: 'loose' }).done();
`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: ['use.ts'] }));
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: project, env, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('on a Node older than 22.20 it says which Node it needs, without advising npm install', () => {
    const old = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
      if (!existsSync(p)) return false;
      const [major, minor] = execFileSync(p, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number);
      return major! < 22 || (major === 22 && minor! < 20);
    });
    if (!old) return void console.log('skipped: no Node older than 22.20 on this machine');
    const r = conformance(['run', '--suite', 'models'], old);
    expect(r.code).toBe(2);
    expect(r.err).toContain('needs Node >= 22.20');
    expect(r.err).not.toContain('npm install');
  });
});
