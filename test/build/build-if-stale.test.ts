// `prepare` builds only when dist/ is older than what it is built from (issue 33, item 2): npm runs it whenever it
// packs the folder, which the first `npx conformance` in a clone does, and a full rebuild there cost 8 to 25 s.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';

const root = mkdtempSync(join(tmpdir(), 'prepare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function prepare(): { stderr: string; built: boolean } {
  rmSync(join(root, 'built'), { force: true });
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-if-stale.js')], { encoding: 'utf8', env: { ...process.env, CONFORMANCE_BUILD_ROOT: root, npm_execpath: '' } });
  expect(r.status, r.stderr).toBe(0);
  return { stderr: r.stderr, built: existsSync(join(root, 'built')) };
}

it('skips the build when dist/ was built after every input, and builds when an input is newer or dist/ is missing', () => {
  // A folder with a build that only leaves a mark.
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', scripts: { build: 'node -e "require(\'fs\').writeFileSync(\'built\', \'\')"' } }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
  expect(prepare().built).toBe(true); // no dist/ at all

  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist', 'cli', 'main.js'), '');
  writeFileSync(join(root, 'dist', 'index.js'), '');
  const past = new Date(Date.now() - 60_000);
  for (const p of ['package.json', 'src/a.ts', 'src']) utimesSync(join(root, p), past, past);
  writeFileSync(join(root, 'dist', '.build-started'), String(Date.now() - 1000));
  const skipped = prepare();
  expect(skipped.built).toBe(false);
  expect(skipped.stderr).toContain('dist/ is current');

  writeFileSync(join(root, 'src', 'a.ts'), 'export const edited = 1;\n'); // saved after that build
  expect(prepare().built).toBe(true);
  expect(readFileSync(join(root, 'src', 'a.ts'), 'utf8')).toContain('edited');
});
