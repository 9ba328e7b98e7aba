// What both the limit arbitraries and the relations between parameters are built from: a side of a limit (its
// arbitrary, boundary examples and patches), characters of an alphabet, and token ids every tokenizer knows.

import fc from 'fast-check';
import type { Patch } from './patch.ts';

export interface Side<V = unknown> {
  arbitrary: fc.Arbitrary<V>;
  /** Boundary values: the limit itself and one step past it; always run first. */
  examples: V[];
  patches(value: V): Patch[];
  /** Short human description of a value, e.g. `temperature = 2.01`. */
  describe(value: V): string;
}

export interface Sides {
  accept?: Side;
  reject?: Side;
}

export function chars(alphabet: string): fc.Arbitrary<string> {
  return fc.constantFrom(...alphabet.split(''));
}

/** `n` token ids every tokenizer of the service knows (ids 1000..1499 repeating). */
export function tokenIds(n: number): number[] {
  return Array.from({ length: n }, (_, i) => 1000 + (i % 500));
}
