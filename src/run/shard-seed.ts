// The seed of a sharded run: every shard must draw the same cases, so a random seed per shard fails only at
// `merge`, after every CI shard has run. Given --seed wins; else the CI run's own id, which every shard of one CI
// run shares; else the run is refused before anything is sent.

import { createHash } from 'node:crypto';
import { UsageError } from './usage-error.ts';

/** Variables that name one CI run (the same in every job of it), by CI. */
const RUN_IDS: ReadonlyArray<readonly string[]> = [
  ['GITHUB_RUN_ID', 'GITHUB_RUN_ATTEMPT'],
  ['CI_PIPELINE_ID'],
  ['BUILDKITE_BUILD_ID'],
  ['CIRCLE_WORKFLOW_ID'],
  ['BUILD_BUILDID'],
];

/** A 31-bit seed from the CI run's id, or a usage error saying to give --seed. */
export function shardSeed(env: Readonly<Record<string, string | undefined>>): number {
  const ids = RUN_IDS.find((names) => env[names[0]!] !== undefined);
  if (!ids) throw new UsageError('--shard needs a seed that every shard shares (their cases must be the same): give --seed N, the same to each shard, e.g. --seed "$GITHUB_RUN_ID"');
  const key = ids.map((n) => `${n}=${env[n] ?? ''}`).join(' ');
  return createHash('sha256').update(key).digest().readUInt32BE(0) & 0x7fffffff;
}
