// schemas/volatility.yaml: what may differ between two answers to the same request, and between two sendings of
// the same request (see the file). Read once, on first use.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { yamlLib } from './lazy-modules.ts';
import { repoRoot } from './paths.ts';

export interface Volatility {
  volatileKeys: ReadonlySet<string>;
  tolerantNumbers: ReadonlyMap<string, number>;
  compareOtherNumbers: boolean;
  vectors: ReadonlyMap<string, { normTolerance: number }>;
  fixedLengths: ReadonlySet<string>;
  /** Request keys (lower case) whose values a recording's match ignores. */
  requestVolatileKeys: ReadonlySet<string>;
}

interface VolatilityFile {
  version: 1;
  volatile_keys: string[];
  tolerant_numbers: Record<string, number>;
  compare_other_numbers: boolean;
  vectors: Record<string, { norm_tolerance: number }>;
  fixed_lengths: string[];
  request_volatile_keys: string[];
}

export function loadVolatility(path = join(repoRoot, 'schemas', 'volatility.yaml')): Volatility {
  // The full YAML parser is loaded only when the file is first read (most runs never read it).
  const f = yamlLib().parse(readFileSync(path, 'utf8')) as VolatilityFile;
  return {
    volatileKeys: new Set(f.volatile_keys),
    tolerantNumbers: new Map(Object.entries(f.tolerant_numbers ?? {})),
    compareOtherNumbers: f.compare_other_numbers ?? false,
    vectors: new Map(Object.entries(f.vectors ?? {}).map(([k, v]) => [k, { normTolerance: v.norm_tolerance }])),
    fixedLengths: new Set(f.fixed_lengths ?? []),
    requestVolatileKeys: new Set((f.request_volatile_keys ?? []).map((k) => k.toLowerCase())),
  };
}

let shipped: Volatility | undefined;
/** The shipped file, read once. */
export function shippedVolatility(): Volatility {
  return (shipped ??= loadVolatility());
}
