// How long a request may take is the target's business within documented bounds: a generation gets time for what
// it asks to generate (README, "Pace").
import { describe, expect, it } from 'vitest';
import { generationAllowanceMs } from '../../src/engine/index.ts';
import { GENERATION_MS_PER_ITEM, GENERATION_MS_PER_TOKEN } from '../../src/profile/profile.ts';

describe('generation allowance', () => {
  it('grows with the tokens asked for, times n or best_of', () => {
    expect(generationAllowanceMs({ json: { model: 'davinci', prompt: 'x', max_tokens: 2000 } })).toBe(2000 * GENERATION_MS_PER_TOKEN);
    expect(generationAllowanceMs({ json: { model: 'davinci', prompt: 'x', max_tokens: 10, n: 2, best_of: 3 } })).toBe(30 * GENERATION_MS_PER_TOKEN);
  });
  it('gives an unbounded chat answer and each image asked for time of their own', () => {
    expect(generationAllowanceMs({ json: { model: 'gpt-3.5-turbo', messages: [] } })).toBe(GENERATION_MS_PER_ITEM);
    expect(generationAllowanceMs({ json: { prompt: 'a cat', n: 10 } })).toBe(10 * GENERATION_MS_PER_ITEM);
    expect(generationAllowanceMs({ multipart: { fields: { prompt: 'a cat', n: '3' } } })).toBe(3 * GENERATION_MS_PER_ITEM);
  });
  it('gives nothing extra to what generates nothing (a list, an upload, an embedding)', () => {
    expect(generationAllowanceMs({})).toBe(0);
    expect(generationAllowanceMs({ json: { model: 'text-embedding-ada-002', input: 'x' } })).toBe(0);
    expect(generationAllowanceMs({ multipart: { fields: { purpose: 'fine-tune' } } })).toBe(0);
  });
});
