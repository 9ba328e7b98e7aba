// The CLI as a bundle (`npm run build` → dist/cli-bundle/): the compiled modules of the harness and of its
// dependencies joined into a few files, split where commands load lazily.
// A `conformance run` loaded about 350 files (112 of undici, 73 of checks, 66 of Ajv): resolving, reading and
// compiling each took ~70 ms of every start, measured whole-process on the peer workload and on a one-case run.
// The library (dist/index.js) stays unbundled: a project that imports it shares its own undici, Ajv and nock.
//
// The bundle sits at the same depth as every other folder of dist/ (dist/<folder>/<file>.js): modules that find
// the package's files from their own location (util/paths.ts, schema/registry.ts) find the same files.
// What is loaded at run time by a path computed then — the build's validators, and yaml, jsonpath-rfc9535 and
// pngjs through createRequire (util/lazy-modules.ts) — stays outside, resolved from node_modules as before, and so
// does nock (EXTERNAL).

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from '../util/paths.ts';

export const bundleDir = join(repoRoot, 'dist', 'cli-bundle');
/**
 * Packages that find files next to their own modules at run time, which a bundle would move: nock's interceptors
 * read llhttp.wasm from their own folder. Loaded from node_modules, as the library loads them.
 */
const EXTERNAL = ['nock'];

/**
 * Bundles dist/cli/main.js (compiled by tsc just before) into dist/cli-bundle/; returns the entry's path.
 * `npm run build` removes the old bundle before compiling: a build that fails never leaves one of older sources.
 */
export function writeCliBundle(): string {
  // esbuild is a development dependency: a clone builds the bundle, an installed package ships it.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  rmSync(bundleDir, { recursive: true, force: true });
  esbuild.buildSync({
    entryPoints: { main: join(repoRoot, 'dist', 'cli', 'main.js') },
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Bundled CommonJS (undici, Ajv) requires Node's built-in modules: an ES module has no `require` of its own.
    banner: { js: "import { createRequire as __conformanceRequire } from 'node:module'; const require = __conformanceRequire(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'none',
    external: EXTERNAL,
  });
  return join(bundleDir, 'main.js');
}
