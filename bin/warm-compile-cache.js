#!/usr/bin/env node
// The last step of `npm run build`: compiles into Node's compile cache every module of the CLI bundle
// (dist/cli-bundle), the validators the build wrote (dist/validators), and the packages some runs load on first
// use (dist/util/lazy-modules.js: the full YAML parser, JSONPath, the PNG codec). It compiles them under the V8
// settings a `conformance` process has (bin/v8-settings.js), so that a machine's first run after `npm install`
// finds them compiled as its later runs do, as installing a Python package compiles its .pyc files. It also
// proves that each module of the bundle loads: a bundle that fails to evaluate fails the build, not a user's run.
// A module is evaluated, never run: the bundle's modules only define (the bin calls the CLI's `main`).
// Nothing to do without a bundle, on a Node without a compile cache, or with NODE_DISABLE_COMPILE_CACHE=1.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { applyCliV8Settings } from './v8-settings.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const bundle = join(dist, 'cli-bundle');
const validators = join(dist, 'validators');
const lazyModules = join(dist, 'util', 'lazy-modules.js');
await applyCliV8Settings();
const nodeModule = await import('node:module');
const cacheDir = nodeModule.getCompileCacheDir?.();
if (!cacheDir || !existsSync(bundle)) process.exit(0);
try {
  for (const file of readdirSync(bundle).filter((name) => name.endsWith('.js')).sort()) {
    await import(pathToFileURL(join(bundle, file)).href);
  }
  if (existsSync(validators)) {
    const load = nodeModule.createRequire(join(validators, 'index.cjs'));
    for (const file of readdirSync(validators).filter((name) => name.endsWith('.cjs')).sort()) load(join(validators, file));
  }
  if (existsSync(lazyModules)) {
    const lazy = await import(pathToFileURL(lazyModules).href);
    for (const loader of [lazy.yamlLib, lazy.jsonPathLib, lazy.pngLib]) loader?.();
  }
  nodeModule.flushCompileCache?.();
} catch (err) {
  console.error(`warm-compile-cache: a module of ${dist} failed to load: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
// A module may have left a handle open (a timer, a pool): the warm-up is over, not a run to wait for.
process.exit(0);
