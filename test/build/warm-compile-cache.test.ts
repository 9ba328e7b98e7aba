// The build's last step (bin/warm-compile-cache.js) fills Node's compile cache with the CLI's modules, under the V8
// settings of a `conformance` process: a machine's first run after `npm install` must find every module of the
// bundle compiled and accepted, not compiled again (nor rejected, which is what different V8 flags would give).
// The cache is the one a user's run finds on its own: Node's default folder under the system's temporary folder
// (TMPDIR here, a fresh one per test), not one named by NODE_COMPILE_CACHE.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';

const bundle = join(repoRoot, 'dist', 'cli-bundle');
const made: string[] = [];
afterEach(() => { for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true }); });

function freshTemp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'warm-cache-'));
  made.push(dir);
  return dir;
}

/** A process of the project's Node with TMPDIR (and so Node's default compile-cache folder) in `temp`. */
function node(args: string[], temp: string, extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  Object.assign(env, extraEnv);
  return spawnSync(process.execPath, args, { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
}

/** What Node's compile cache said of each file (NODE_DEBUG_NATIVE=COMPILE_CACHE), by path. */
function verdicts(debug: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of debug.matchAll(/V8 code cache for (?:ESM|CommonJS) (\S+) (was accepted|was rejected|was not initialized)/g)) out.set(m[1]!.replace(/^file:\/\//, ''), m[2]!);
  return out;
}

describe('the build warms Node\'s compile cache (bin/warm-compile-cache.js)', () => {
  it('compiles every module of the bundle, and a run of the CLI then finds each of them accepted', (ctx) => {
    expect(existsSync(bundle), 'dist/cli-bundle is written by `npm install` (prepare → npm run build)').toBe(true);
    const temp = freshTemp();
    const warm = node([join(repoRoot, 'bin', 'warm-compile-cache.js')], temp);
    expect(warm.status, warm.stderr).toBe(0);
    expect(warm.stdout + warm.stderr).toBe('');
    const [versionDir] = readdirSync(join(temp, 'node-compile-cache'));
    const chunks = readdirSync(bundle).filter((f) => f.endsWith('.js'));
    expect(readdirSync(join(temp, 'node-compile-cache', versionDir!)).length).toBeGreaterThanOrEqual(chunks.length);

    const run = node([join(repoRoot, 'bin', 'conformance.js'), 'checks'], temp, { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    expect(run.status, run.stderr.slice(-500)).toBe(0);
    const seen = verdicts(run.stderr);
    const fromBundle = [...seen].filter(([path]) => path.startsWith(bundle));
    // A clone whose sources changed since the last build runs them through tsx (bin/conformance.js): no bundle to
    // look at. CI builds on install, so there the bundle must have been used.
    if (fromBundle.length === 0 && !process.env.CI) return ctx.skip();
    expect(fromBundle.length).toBeGreaterThan(0);
    expect(fromBundle.filter(([, verdict]) => verdict !== 'was accepted')).toEqual([]);
    // The validators the build wrote, loaded by path at run time, are warmed too.
    const validators = [...seen].filter(([path]) => path.startsWith(join(repoRoot, 'dist', 'validators')));
    expect(validators.filter(([, verdict]) => verdict !== 'was accepted')).toEqual([]);
  });

  it('fails the build, with one line, when a module of the bundle does not load', () => {
    const root = freshTemp();
    mkdirSync(join(root, 'bin'));
    for (const f of ['warm-compile-cache.js', 'v8-settings.js']) copyFileSync(join(repoRoot, 'bin', f), join(root, 'bin', f));
    mkdirSync(join(root, 'dist', 'cli-bundle'), { recursive: true });
    writeFileSync(join(root, 'dist', 'cli-bundle', 'main.js'), 'export const main = () => 0;\n');
    writeFileSync(join(root, 'dist', 'cli-bundle', 'chunk-BROKEN.js'), "throw new Error('this chunk cannot load');\n");
    const r = node([join(root, 'bin', 'warm-compile-cache.js')], freshTemp());
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('this chunk cannot load');
  });

  it('does nothing, and succeeds, without a bundle or with the compile cache turned off', () => {
    const root = freshTemp();
    mkdirSync(join(root, 'bin'));
    for (const f of ['warm-compile-cache.js', 'v8-settings.js']) copyFileSync(join(repoRoot, 'bin', f), join(root, 'bin', f));
    const temp = freshTemp();
    const none = node([join(root, 'bin', 'warm-compile-cache.js')], temp);
    expect([none.status, none.stderr]).toEqual([0, '']);

    const untouched = freshTemp();
    const off = node([join(repoRoot, 'bin', 'warm-compile-cache.js')], untouched, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect([off.status, off.stderr]).toEqual([0, '']);
    expect(readdirSync(untouched)).toEqual([]);
  });
});
