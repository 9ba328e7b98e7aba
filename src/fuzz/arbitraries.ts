// Limit domains → fast-check arbitraries. Each side (accept / reject) has an arbitrary of raw values (numbers,
// strings, arrays: fast-check can shrink these, boundary examples included), the boundary examples, and how a
// value becomes patches of the base request. Shrinking therefore works on the value, and a failing reject
// case shrinks towards the limit (e.g. temperature 2.0000000000000004, exactly 5 stop sequences).

import fc from 'fast-check';
import type { Domain, LimitSpec } from './limits.ts';
import { set, type Patch } from './patch.ts';
import { RELATIONS, type RelationContext } from './relations.ts';
import { chars, tokenIds, type Side, type Sides } from './primitives.ts';


const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';


function label(param: string): string {
  return param.replace(/^(json:\/|form:)/, '').replace(/\//g, '.');
}

export function sidesOf(limit: LimitSpec, rc: RelationContext): Sides {
  const d = limit.domain;
  if (d.kind === 'relation') return RELATIONS[d.relation](rc, limit);
  if (d.kind === 'declared') return {};
  return valueSides(d, limit.param);
}

function valueSides(d: Exclude<Domain, { kind: 'relation' | 'declared' }>, at: string): Sides {
  const name = label(at);
  const describe = (v: unknown) => `${name} = ${JSON.stringify(v)}`;
  const put = (v: unknown): Patch[] => [set(at, v)];
  switch (d.kind) {
    case 'number': {
      const lo = d.min!;
      const hi = d.max!;
      const accept: Side<number> = { arbitrary: fc.double({ min: lo, max: hi, noNaN: true }), examples: [lo, hi, (lo + hi) / 2], patches: put, describe };
      if (d.acceptOnly) return { accept: accept as Side };
      const parts: fc.Arbitrary<number>[] = [];
      const examples: number[] = [];
      if (d.max !== undefined) {
        parts.push(fc.double({ min: hi, minExcluded: true, max: hi + d.span, noNaN: true }).filter((v) => v > hi));
        examples.push(round(hi + d.step));
      }
      if (d.min !== undefined) {
        // -0 is a double below 0 for fast-check but equals 0 (and is sent as 0): filtered out.
        parts.push(fc.double({ min: lo - d.span, max: lo, maxExcluded: true, noNaN: true }).filter((v) => v < lo));
        examples.push(round(lo - d.step));
      }
      return { accept: accept as Side, reject: { arbitrary: fc.oneof(...parts), examples, patches: put, describe } as Side };
    }
    case 'integer': {
      const lo = d.acceptMin ?? d.min ?? 0;
      const hi = d.acceptMax ?? d.max ?? lo + 4;
      const accept: Side<number> = { arbitrary: fc.integer({ min: lo, max: hi }), examples: [...new Set([lo, hi])], patches: put, describe };
      if (d.acceptOnly) return { accept: accept as Side };
      const parts: fc.Arbitrary<number>[] = [];
      const examples: number[] = [];
      if (d.max !== undefined) {
        parts.push(fc.integer({ min: d.max + 1, max: d.max + d.span }));
        examples.push(d.max + 1);
      }
      if (d.min !== undefined) {
        parts.push(fc.integer({ min: d.min - d.span, max: d.min - 1 }));
        examples.push(d.min - 1);
      }
      return { accept: accept as Side, reject: { arbitrary: fc.oneof(...parts), examples, patches: put, describe } as Side };
    }
    case 'count': {
      const item = fc.string({ unit: chars(ALNUM), minLength: 1, maxLength: 6 });
      const fill = (n: number) => Array.from({ length: n }, (_, i) => `zq${i}`);
      const describeCount = (v: string[]) => `${name}: ${v.length} sequences ${JSON.stringify(v)}`;
      return {
        accept: { arbitrary: fc.array(item, { minLength: 1, maxLength: d.max }), examples: [fill(d.max), fill(1)], patches: put, describe: describeCount } as Side,
        reject: { arbitrary: fc.array(item, { minLength: d.max + 1, maxLength: d.max + d.span }), examples: [fill(d.max + 1)], patches: put, describe: describeCount } as Side,
      };
    }
    case 'length': {
      const unit = chars(d.alphabet);
      const c = d.alphabet[0]!;
      const describeLength = (v: string) => `${name}: ${v.length} characters ${JSON.stringify(v.length > 48 ? v.slice(0, 48) + '…' : v)}`;
      return {
        // A required text made of spaces only may be refused as missing: an accepted value always has a character.
        accept: { arbitrary: fc.string({ unit, minLength: d.min, maxLength: d.max }).filter((s) => d.min === 0 || s.trim() !== ''), examples: [c.repeat(d.max), c.repeat(d.min)], patches: put, describe: describeLength } as Side,
        reject: { arbitrary: fc.string({ unit, minLength: d.max + 1, maxLength: d.max + d.span }), examples: [c.repeat(d.max + 1)], patches: put, describe: describeLength } as Side,
      };
    }
    case 'enum': {
      const accept: Side<string> = { arbitrary: fc.constantFrom(...d.values), examples: [...d.values], patches: put, describe };
      if (d.acceptOnly) return { accept: accept as Side };
      const pattern = d.randomInvalid;
      const random = fc.string({ unit: chars(ALNUM), minLength: 1, maxLength: 12 }).filter((s) => !d.values.some((v) => String(v).toLowerCase() === s.toLowerCase()) && (!pattern || pattern.test(s)));
      const arbitrary = d.invalid.length ? fc.oneof(fc.constantFrom(...d.invalid), random) : random;
      return { accept: accept as Side, reject: { arbitrary, examples: [...d.invalid], patches: put, describe } as Side };
    }
    case 'tokens': {
      const describeTokens = (n: number) => `${name}: ${n} tokens`;
      const patches = (n: number) => [set(at, tokenIds(n))];
      return {
        accept: { arbitrary: fc.integer({ min: 1, max: d.max }), examples: [d.max, 1], patches, describe: describeTokens } as Side,
        reject: { arbitrary: fc.integer({ min: d.max + 1, max: d.max + d.span }), examples: [d.max + 1], patches, describe: describeTokens } as Side,
      };
    }
  }
}


function round(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
