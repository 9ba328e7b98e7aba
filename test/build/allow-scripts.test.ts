// Every dependency with an install script is approved in package.json's allowScripts (issue 33, item 5): npm
// blocks unapproved install scripts in a coming release, and the project's own Node 24 installs by one.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

it('approves every locked package that has an install script, and nothing else', () => {
  const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([path]) => path.replace(/^.*node_modules\//, '')).sort();
  expect(scripted.length).toBeGreaterThan(0);
  expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(scripted);
  expect(Object.values(pkg.allowScripts ?? {}).every((v) => v === true)).toBe(true);
});

it('npm itself finds no install script left to review (where its npm knows allowScripts)', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['approve-scripts', '--allow-scripts-pending'], { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0 && /Unknown command|not a valid command/i.test(r.stdout + r.stderr)) return; // an npm older than 11.16
  expect(r.stdout + r.stderr).toMatch(/No packages with unreviewed install scripts/);
});
