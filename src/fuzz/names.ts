// The fuzz suites' names and defaults, without the property machinery (fast-check): a run selects suites by
// name, and a run without fuzzing never loads the rest.

import type { Area } from '../suite/types.ts';
import { ENDPOINTS } from './limits.ts';

export const FUZZ_SUITE = 'fuzz';
export const DEFAULT_FUZZ_RUNS = 25;
export const DEFAULT_FUZZ_BUDGET_MS = 5000;

export const AREAS_WITH_LIMITS: Area[] = [...new Set(Object.values(ENDPOINTS).map((e) => e.area))];

/** Every fuzz suite's name, whether fuzzing is on or not (`--suite fuzz-images` with `--fuzz-runs 0` is not a typo). */
export const FUZZ_SUITE_NAMES: readonly string[] = AREAS_WITH_LIMITS.map((area) => `${FUZZ_SUITE}-${area}`);
