// Shards across CI machines: a deterministic partition of the selected suites, balanced by expected cost, so that
// `--shard 1/4` … `--shard 4/4` on four machines run every suite exactly once, and `conformance merge` can
// prove it from the reports alone.

import type { SuitePlan } from '../suite/types.ts';
import type { ProgrammaticSuite } from './programmatic.ts';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): ShardSpec | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/** What a suite is expected to cost: its cases, with polling cases (fine-tune jobs) weighing far more. */
export function suiteCost(suite: SuitePlan | ProgrammaticSuite): number {
  if ('spec' in suite) return suite.spec.cases.reduce((sum, c) => sum + (c.poll ? 40 : 1), 0);
  return suite.cost ?? 20;
}

/**
 * Longest-processing-time first: the costliest suite goes to the shard with the least cost so far (ties: the
 * lower index; equal costs: by name), so the same selection always splits the same way.
 */
export function partition(suites: ReadonlyArray<{ name: string; cost: number }>, count: number): string[][] {
  const shards = Array.from({ length: count }, () => ({ cost: 0, names: [] as string[] }));
  const ordered = [...suites].sort((a, b) => b.cost - a.cost || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const s of ordered) {
    const target = shards.reduce((best, shard) => (shard.cost < best.cost ? shard : best), shards[0]!);
    target.cost += s.cost;
    target.names.push(s.name);
  }
  return shards.map((s) => s.names);
}
