// The V8 settings of a `conformance` process, and Node's compile cache of the CLI's modules. Applied by the CLI's
// entry (bin/conformance.js) before it loads any module of the harness, and by the build's warm-up
// (bin/warm-compile-cache.js): Node keys its compile cache by V8's flags, so the warm-up must compile under the
// very settings a run has, or a run would find every entry rejected. Only the CLI sets them; the library never
// changes its host's V8.

/**
 * Node's built-in modules as CommonJS exports (process.getBuiltinModule), not through `import`: an ES module's
 * view of a built-in evaluates every lazy export it has (node:fs loads its promises API, readline and streams;
 * node:module its source maps), ~15 ms of every start. An older Node (the bin's re-run path) imports them.
 */
export const builtin = async (name) => process.getBuiltinModule?.(name) ?? (await import(name));

export async function applyCliV8Settings() {
  // Two V8 settings, both measured on the 3000-request peer workload (bench:peers), whole process, in paired runs:
  // - V8 doubles its young generation again and again on the bytes that survive a long run (its results), to
  //   2 × 32 MiB: ~60 MiB of peak RSS. A growth factor of 1 holds it at its starting size through start-up and
  //   suite loading; `run` then lets it grow once, to what the requests need (src/cli/young-generation.ts).
  // - After each full collection V8 lets the old generation grow by up to 4× what is alive before collecting
  //   again; a run's garbage then piles up: peak RSS ~160 MiB. Growing by 50% keeps it near 130 MiB, at no cost in
  //   time (the default run and replays take as long).
  // Both are read whenever V8 sizes a space, so setting them here takes effect.
  try {
    const { setFlagsFromString } = await builtin('node:v8');
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString('--heap-growing-percent=50');
  } catch { /* an unknown flag changes nothing */ }

  // V8's compiled code of the CLI's modules, kept between runs in Node's compile cache (in the system's temporary
  // folder, keyed by each file's content; as TypeScript's tsc does): a start compiles only what changed. The
  // build fills it (bin/warm-compile-cache.js), so a machine's first run after `npm install` finds it too.
  // NODE_DISABLE_COMPILE_CACHE=1 turns it off.
  try { (await builtin('node:module')).enableCompileCache?.(); } catch { /* no cache: everything is compiled, as before */ }
}
