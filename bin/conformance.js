#!/usr/bin/env node
// Entry point of `conformance`. Installed as a dependency it runs the compiled JavaScript in dist/; in a clone of
// the repository (src/ present) it runs the TypeScript sources through tsx, so an edit takes effect at once.
// The harness needs Node >= 22.20 (nock 15 intercepts undici at the socket level only from there): in a clone,
// an older system Node re-runs this file on the project's own Node 24 (the `node` devDependency); installed as a
// dependency, it says which Node it needs.
// Built-in modules come through `builtin` (bin/v8-settings.js says why).
import { applyCliV8Settings, builtin } from './v8-settings.js';

const { existsSync, readdirSync, readFileSync, statSync } = await builtin('node:fs');
const { dirname, join } = await builtin('node:path');
const { fileURLToPath, pathToFileURL } = await builtin('node:url');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

// `--version` imports nothing: it answers before any module of the harness is loaded.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}

// V8's settings for this process and Node's compile cache, before any module of the harness is loaded.
await applyCliV8Settings();

const checkout = existsSync(join(root, 'src', 'cli', 'main.ts'));

/**
 * In a clone, dist/ (built by `npm install`'s prepare) is used while no source is newer than it: it starts
 * faster than compiling on the fly. After an edit the sources run through tsx until the next `npm run build`.
 */
function builtFromCurrentSources() {
  // When the build started, not when it ended: a source saved while tsc ran is newer than that build.
  const stamp = join(root, 'dist', '.build-started');
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'cli', 'main.js'))) return false;
  const builtAt = Number(readFileSync(stamp, 'utf8'));
  const newer = (dir) => readdirSync(dir, { withFileTypes: true }).some((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? newer(p) : e.name.endsWith('.ts') && statSync(p).mtimeMs > builtAt;
  });
  return !newer(join(root, 'src'));
}
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 20)) {
  const local = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!checkout || !existsSync(local) || process.env.CONFORMANCE_REEXEC) {
    const advice = checkout ? "run `npm install` in the repository to get the project's Node 24" : 'install Node 22.20 or newer (Node 24 is what it is tested on) and run it again';
    console.error(`conformance needs Node >= 22.20 (this is ${process.version}); ${advice}.`);
    process.exit(2);
  }
  const { spawn } = await builtin('node:child_process');
  const child = spawn(local, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit', env: { ...process.env, CONFORMANCE_REEXEC: '1' } });
  // The run is the child: a Ctrl-C or a CI cancel sent to this wrapper must reach it (it finishes the request
  // in flight, cleans up and writes reports), and the wrapper exits with the child's own code.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 143 : signal === 'SIGINT' ? 130 : 1)));
  // Whoever started the wrapper (npx) may be killed without passing the signal on: then the child is told to stop,
  // as when interrupted, instead of living on as an orphan that keeps its port.
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) child.kill('SIGTERM'); }, 500).unref();
} else if (checkout && !builtFromCurrentSources()) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
  process.exitCode = await main(args);
} else {
  // The bundle (dist/cli-bundle, written by the build) starts ~70 ms sooner than the ~350 files it joins.
  const bundled = join(root, 'dist', 'cli-bundle', 'main.js');
  const entry = existsSync(bundled) ? bundled : join(root, 'dist', 'cli', 'main.js');
  const { main } = await import(pathToFileURL(entry).href);
  process.exitCode = await main(args);
}
