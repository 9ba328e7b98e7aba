// The accepted classification settings the fuzzer sends agree with the files it uploads (two classes, " yes" and
// " no"): a server may check a request against its files, and refusing a class count or a positive class the data
// does not have is no broken rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELATIONS } from '../../src/fuzz/relations.ts';

describe('fuzzed classification settings', () => {
  it('name only the classes the uploaded data has', () => {
    const accept = (RELATIONS.classification as unknown as () => { accept: { arbitrary: fc.Arbitrary<{ mode: string; n: number; positive: string }>; examples: Array<{ mode: string; n: number; positive: string }> } })().accept;
    const values = [...accept.examples, ...fc.sample(accept.arbitrary, { numRuns: 50, seed: 7 })];
    for (const v of values) {
      if (v.mode === 'multiclass') expect(v.n).toBe(2);
      else expect(['yes', 'no']).toContain(v.positive);
    }
  });
});

describe('fuzzed required texts', () => {
  it('are never only spaces on the accept side (a blank prompt may be refused as missing)', async () => {
    const { buildProperties } = await import('../../src/fuzz/properties.ts');
    const props = buildProperties({ contextLength: { completion: 2048, chat: 4096 } }).filter((p) => /images\.(generations|edits)\.(prompt|combined)\.accept/.test(p.name));
    expect(props.length).toBeGreaterThan(0);
    for (const p of props) {
      for (const v of fc.sample(p.side.arbitrary as fc.Arbitrary<unknown>, { numRuns: 2000, seed: 11 })) {
        const prompt = typeof v === 'string' ? v : (v as { prompt?: unknown }).prompt;
        if (typeof prompt === 'string') expect(prompt.trim(), p.name).not.toBe('');
      }
    }
  });
});

describe('fuzzed sampling settings', () => {
  it('accept top_p above 0 only (a server reading it as the nucleus mass refuses 0) and logit_bias ids every vocabulary has', async () => {
    const { buildProperties } = await import('../../src/fuzz/properties.ts');
    const props = buildProperties({ contextLength: { completion: 2048, chat: 4096 } }).filter((p) => /\.(top_p|combined)\.accept$/.test(p.name) && /^(completions|chat|edits)\./.test(p.name));
    expect(props.length).toBeGreaterThanOrEqual(6);
    for (const p of props) {
      const values = [...(p.side.examples as unknown[]), ...fc.sample(p.side.arbitrary as fc.Arbitrary<unknown>, { numRuns: 500, seed: 5 })];
      for (const v of values) {
        const o = typeof v === 'number' ? { top_p: v } : (v as { top_p?: unknown; logit_bias?: Record<string, unknown> });
        if (typeof o.top_p === 'number') expect(o.top_p, p.name).toBeGreaterThan(0);
        for (const id of Object.keys(o.logit_bias ?? {})) expect(Number(id), p.name).toBeLessThanOrEqual(1000);
      }
    }
  });
});
