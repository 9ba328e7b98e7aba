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
 * Node's built-in modules, taken as CommonJS exports (process.getBuiltinModule) instead of imported: an ES
 * module's view of a built-in evaluates every lazy export it has, and loads what they need (node:fs its promises
 * API, readline and streams; node:crypto WebCrypto; node:util its diff), ~15 ms of every start for nothing.
 */
const builtinsAsCommonJs: import('esbuild').Plugin = {
  name: 'builtins-as-commonjs',
  setup(build) {
    // An `import` of a built-in gets an ES module of its data exports, so esbuild links it directly; as CommonJS it
    // wrapped it (__toESM) in every importing module, copying each of its properties (~9 ms of every start). Lazy
    // exports (accessors such as fs.promises) stay out of it: importing one by name fails the build, not a run.
    // A `require` (bundled CommonJS: undici, Ajv) gets the module object itself, as before.
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: args.kind === 'require-call' ? 'node-builtin' : 'node-builtin-esm' }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const eager = LAZY_BUILTINS[args.path];
      return { contents: eager ? lazyBuiltin(args.path, eager) : `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`, loader: 'js' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin-esm' }, (args) => ({ contents: builtinAsEsm(args.path), loader: 'js' }));
  },
};

/**
 * Built-ins that bundled code requires when it loads but uses only on a path the harness never takes, with the
 * properties it reads then: undici's HTTP/2 client requires node:http2 for its constants (HTTP/2 is off in every
 * Agent here). node:http2 and the node:tls it loads take ~8 ms each to load on their own (measured on Node 24).
 */
const LAZY_BUILTINS: Readonly<Record<string, readonly string[]>> = { 'node:http2': ['constants'] };

/**
 * A built-in that loads on first use: the properties read at load time are the build's values (protocol
 * constants, the same in every Node the package supports); anything else loads the module and answers from it.
 */
export function lazyBuiltin(name: string, eager: readonly string[]): string {
  const mod = process.getBuiltinModule(name) as Record<string, unknown>;
  const known = Object.fromEntries(eager.map((k) => [k, mod[k]]));
  return [
    `const known = ${JSON.stringify(known)};`,
    'let real;',
    `const load = () => (real ??= process.getBuiltinModule(${JSON.stringify(name)}));`,
    'module.exports = new Proxy(known, {',
    '  get: (target, key) => (Object.hasOwn(target, key) ? target[key] : load()[key]),',
    '  has: (target, key) => Object.hasOwn(target, key) || key in load(),',
    '  ownKeys: () => Reflect.ownKeys(load()),',
    '  getOwnPropertyDescriptor: (target, key) => Object.hasOwn(target, key) ? Reflect.getOwnPropertyDescriptor(target, key) : { ...Reflect.getOwnPropertyDescriptor(load(), key), configurable: true },',
    '});',
  ].join('\n');
}

/** An ES module over a built-in: its default export, and each data property of it (read once) as a named export. */
function builtinAsEsm(name: string): string {
  const mod = process.getBuiltinModule(name) as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(mod).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k) && 'value' in (Object.getOwnPropertyDescriptor(mod, k) ?? {}));
  return [
    `const m = process.getBuiltinModule(${JSON.stringify(name)});`,
    'export default m;',
    ...names.map((k, i) => `const e${i} = m.${k};`),
    `export { ${names.map((k, i) => `e${i} as ${k}`).join(', ')} };`,
  ].join('\n');
}

/**
 * Bundles dist/cli/main.js (compiled by tsc just before) into dist/cli-bundle/; returns the entry's path.
 * `npm run build` removes the old bundle before compiling: a build that fails never leaves one of older sources.
 */
export async function writeCliBundle(): Promise<string> {
  // esbuild is a development dependency: a clone builds the bundle, an installed package ships it.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  rmSync(bundleDir, { recursive: true, force: true });
  // Asynchronous: esbuild runs plugins only in its asynchronous API.
  await esbuild.build({
    entryPoints: { main: join(repoRoot, 'dist', 'cli', 'main.js') },
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Bundled CommonJS (undici, Ajv) requires Node's built-in modules: an ES module has no `require` of its own.
    banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
    plugins: [builtinsAsCommonJs],
    logLevel: 'warning',
    legalComments: 'none',
    external: EXTERNAL,
  });
  return join(bundleDir, 'main.js');
}
