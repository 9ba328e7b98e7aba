// The CLI process's young generation (V8's nursery), sized for each phase of a run. Only the `conformance`
// process tunes it (bin/conformance.js starts it small); the library never changes its host's V8.
//
// Measured on the 3000-request peer workload (bench:peers), whole process:
// - left to V8, the nursery doubles up to 2 × 32 MiB on the bytes that survive a run (its results): ~205 MiB
//   peak RSS for 6000 results;
// - held at its starting 1 MiB semi-space (growth factor 1, set by the bin), start-up and loading are lean,
//   but the run then takes ~350 scavenges, each copying what is alive: ~0.3 s of a 2 s process;
// - widened once to 4 MiB when the run starts: a quarter of the scavenges, fewer objects promoted too early,
//   6% less wall and CPU time, and no more peak RSS than at 1 MiB.
// V8 reads the growth factor whenever the nursery would grow, and has no cap that can be set at run time:
// the factor lets one growth step happen, and a watcher sets it back to 1 once the nursery is that size.

import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const MIB = 1024 * 1024;
const WATCH_MS = 5;

/** Lets the nursery grow once, from its 1 MiB start to `semiSpaceMiB` semi-spaces, and holds it there. */
function widenYoungGeneration(semiSpaceMiB: number): void {
  setFlagsFromString(`--semi-space-growth-factor=${semiSpaceMiB}`);
  const watch = setInterval(() => {
    const nursery = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    // new_space holds both semi-spaces.
    if (!nursery || nursery.space_size >= 2 * semiSpaceMiB * MIB) {
      setFlagsFromString('--semi-space-growth-factor=1');
      clearInterval(watch);
    }
  }, WATCH_MS);
  watch.unref();
}

/** Lets the nursery grow once, to 4 MiB semi-spaces, and holds it there. Call when the requests start. */
export function widenYoungGenerationForRun(): void {
  widenYoungGeneration(4);
}

/**
 * A server that runs until stopped (the proxy, served recordings) gets 8 MiB semi-spaces: held at 1 MiB, a proxy
 * judging 64 clients' traffic spent its time in scavenges (bench:proxy, 2,000-2,400 req/s); left to V8, a stream
 * of 10^6 chunks took its RSS 143 MiB over idle.
 */
export function widenYoungGenerationForServer(): void {
  widenYoungGeneration(8);
}
