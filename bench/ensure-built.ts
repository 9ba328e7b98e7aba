// Benchmarks time the CLI a user runs: the built one (dist/). In a clone, bin/conformance.js runs the sources
// through tsx while any of them is newer than the build, which is several times slower to start; a benchmark
// that measured that would measure the wrong program. So the build is brought up to date first.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../src/util/paths.ts';

function newestSource(dir: string): number {
  return Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? newestSource(p) : e.name.endsWith('.ts') ? statSync(p).mtimeMs : 0;
  }));
}

export function ensureBuilt(): void {
  const stamp = join(repoRoot, 'dist', '.build-started');
  if (existsSync(stamp) && existsSync(join(repoRoot, 'dist', 'cli-bundle', 'main.js')) && newestSource(join(repoRoot, 'src')) <= Number(readFileSync(stamp, 'utf8'))) return;
  console.log('the build is older than the sources: npm run build (the benchmark times the built CLI)');
  const r = spawnSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}
