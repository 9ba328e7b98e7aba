#!/usr/bin/env node
// `prepare`: builds dist/ unless it is already built from the files in this folder. npm runs `prepare` on
// `npm install` in a clone (the build is needed then), but also whenever it packs the folder: `npm pack`, `npm
// install <folder>`, and the first `npx conformance` in a clone, which installs the clone into npx's cache to link
// its bin. Those found dist/ current and rebuilt it anyway, silently: 8 to 25 s before the first command printed
// anything. Plain JavaScript, no dependency: it runs on whatever Node npm runs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// CONFORMANCE_BUILD_ROOT: another folder to judge (the tests' own).
const root = process.env.CONFORMANCE_BUILD_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the build reads: the sources, the shipped schemas and suites, the bin, and how it is configured. */
const INPUTS = ['src', 'schemas', 'suites', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestInput(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestInput(join(path, name))), st.mtimeMs);
}

function current() {
  const stamp = join(root, 'dist', '.build-started');
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'cli', 'main.js')) || !existsSync(join(root, 'dist', 'index.js'))) return false;
  // When the last build started: an input saved while it ran is newer than that build.
  const builtAt = Number(readFileSync(stamp, 'utf8'));
  return INPUTS.every((p) => newestInput(join(root, p)) <= builtAt);
}

if (process.env.CONFORMANCE_FORCE_BUILD !== '1' && current()) {
  process.stderr.write('model-api-conformance: dist/ is current, not rebuilt (CONFORMANCE_FORCE_BUILD=1 rebuilds it)\n');
} else {
  const npm = process.env.npm_execpath;
  const r = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exitCode = r.status ?? 1;
}
