// schemas/volatility.yaml: what may differ between two answers to the same request (see the file).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { repoRoot } from '../util/paths.ts';

export interface Volatility {
  volatileKeys: ReadonlySet<string>;
  tolerantNumbers: ReadonlyMap<string, number>;
  compareOtherNumbers: boolean;
  vectors: ReadonlyMap<string, { normTolerance: number }>;
  fixedLengths: ReadonlySet<string>;
}

interface VolatilityFile {
  version: 1;
  volatile_keys: string[];
  tolerant_numbers: Record<string, number>;
  compare_other_numbers: boolean;
  vectors: Record<string, { norm_tolerance: number }>;
  fixed_lengths: string[];
}

export function loadVolatility(path = join(repoRoot, 'schemas', 'volatility.yaml')): Volatility {
  const f = YAML.parse(readFileSync(path, 'utf8')) as VolatilityFile;
  return {
    volatileKeys: new Set(f.volatile_keys),
    tolerantNumbers: new Map(Object.entries(f.tolerant_numbers ?? {})),
    compareOtherNumbers: f.compare_other_numbers ?? false,
    vectors: new Map(Object.entries(f.vectors ?? {}).map(([k, v]) => [k, { normTolerance: v.norm_tolerance }])),
    fixedLengths: new Set(f.fixed_lengths ?? []),
  };
}
