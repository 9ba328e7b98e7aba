import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { ENDPOINTS, LIMIT_SPECS, isFuzzable } from '../../src/fuzz/limits.ts';
import { buildProperties } from '../../src/fuzz/properties.ts';
import { applyPatches, describeRequest } from '../../src/fuzz/patch.ts';
import { selectProperties, fuzzSuites, FUZZ_SUITE_NAMES } from '../../src/fuzz/suite.ts';
import { selectSuites } from '../../src/run/suite-selection.ts';
import { propertySeed } from '../../src/fuzz/runner.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';

const props = buildProperties({ contextLength: { completion: 2048, chat: 4096 } });

describe('limits table', () => {
  it('cites only catalogue IDs, and each name once', () => {
    const catalogue = loadCatalogue();
    const cited = LIMIT_SPECS.flatMap((l) => [...(l.accept ?? []), ...(l.reject ?? [])]);
    expect(cited.filter((id) => !catalogue.byId.has(id))).toEqual([]);
    expect(new Set(LIMIT_SPECS.map((l) => l.name)).size).toBe(LIMIT_SPECS.length);
  });

  it('takes each property\'s severity from the register: a must property cites a must, and a reading only a should holds to is a should', () => {
    const catalogue = loadCatalogue();
    for (const p of props.filter((x) => !x.name.includes('.combined.'))) {
      const must = p.requirements.some((id) => catalogue.byId.get(id)?.severity === 'must');
      expect(p.severity, p.name).toBe(must ? 'must' : 'should');
    }
    // Register: only an image without an alpha channel lacks transparency under both readings.
    expect(props.find((p) => p.name === 'images.edits.transparency.reject')?.severity).toBe('must');
    expect(props.find((p) => p.name === 'images.edits.transparency_pixels.reject')?.severity).toBe('should');
    // "best_of results cannot be streamed": one JSON result conforms too, so a refusal is a should.
    expect(props.find((p) => p.name === 'completions.best_of_stream.reject')?.severity).toBe('should');
  });

  it('names existing resource schemas for every endpoint', () => {
    const schemas = SchemaRegistry.load();
    for (const e of Object.values(ENDPOINTS)) {
      const refs = e.schema === null ? [] : typeof e.schema === 'string' ? [e.schema] : [e.schema.default, ...Object.values(e.schema.values).filter((v): v is string => !!v)];
      for (const ref of refs) expect(schemas.has(ref), ref).toBe(true);
    }
  });

  it('derives an accept and/or reject property from every fuzzable limit, plus combined requests', () => {
    for (const l of LIMIT_SPECS.filter(isFuzzable)) {
      const mine = props.filter((p) => p.name === `${l.name}.accept` || p.name === `${l.name}.reject`);
      expect(mine.length, l.name).toBe((l.accept?.length && !(l.domain.kind === 'relation' && ['best-of-stream', 'image-png'].includes(l.domain.relation)) ? 1 : 0) + (l.reject?.length && !('acceptOnly' in l.domain && l.domain.acceptOnly) ? 1 : 0));
    }
    expect(props.filter((p) => p.name.includes('.combined.')).map((p) => p.name)).toEqual(expect.arrayContaining(['completions.combined.accept', 'completions.combined.reject', 'chat.combined.accept', 'images.generations.combined.accept', 'audio.transcriptions.combined.accept']));
    expect(new Set(props.map((p) => p.name)).size).toBe(props.length);
  });

  it('always puts the limit and one step past it among the cases', () => {
    const ex = (name: string) => props.find((p) => p.name === name)!.side.examples;
    expect(ex('completions.temperature.accept')).toEqual(expect.arrayContaining([0, 2]));
    expect(ex('completions.temperature.reject')).toEqual(expect.arrayContaining([2.01, -0.01]));
    expect(ex('audio.transcriptions.temperature.reject')).toEqual(expect.arrayContaining([1.01]));
    expect(ex('images.generations.n.reject')).toEqual(expect.arrayContaining([11, 0]));
    expect(ex('completions.logprobs.reject')).toEqual([6]);
    expect((ex('completions.stop.reject')[0] as string[]).length).toBe(5);
    expect((ex('completions.stop.accept')[0] as string[]).length).toBe(4);
    expect((ex('fine-tunes.suffix.accept')[0] as string).length).toBe(40);
    expect((ex('fine-tunes.suffix.reject')[0] as string).length).toBe(41);
    expect((ex('images.generations.prompt.reject')[0] as string).length).toBe(1001);
    expect(ex('embeddings.input.accept')).toContain(8192);
    expect(ex('embeddings.input.reject')).toEqual([8193]);
    expect(ex('completions.max_tokens.accept')).toContainEqual({ k: 1, m: 2047 });
    expect(ex('completions.logit_bias.reject')).toEqual(expect.arrayContaining([100.5, -100.5]));
  });

  it('builds requests from the base request, the patches and the profile roles', () => {
    const p = props.find((x) => x.name === 'completions.max_tokens.reject')!;
    const spec = applyPatches(ENDPOINTS.completions.base, p.side.patches({ k: 3, over: 1 }));
    expect(spec.json).toMatchObject({ model: '{{models.completion}}', prompt: [1000, 1001, 1002], max_tokens: 2046 });
    expect(ENDPOINTS.completions.base.json).toMatchObject({ prompt: 'Say this is a test' });
    const e = props.find((x) => x.name === 'embeddings.input.reject')!;
    expect(describeRequest(applyPatches(ENDPOINTS.embeddings.base, e.side.patches(8193)))).toContain('…(8193 items)');
  });
});

describe('selection', () => {
  it('--grep selects one property by exact name, otherwise by substring; tags other than fuzz select none', () => {
    expect(selectProperties(props, { grep: 'completions.stop.reject' }, 'fuzz-completions').map((p) => p.name)).toEqual(['completions.stop.reject']);
    expect(selectProperties(props, { grep: 'temperature.reject' }, 'fuzz-x').length).toBeGreaterThan(3);
    expect(selectProperties(props, { tags: ['smoke'] }, 'fuzz-completions')).toEqual([]);
    expect(selectProperties(props, { tags: ['fuzz'] }, 'fuzz-completions').length).toBe(props.length);
  });

  it('--suite fuzz selects every fuzz suite and no other suite; no --suite runs everything', () => {
    const fuzz = fuzzSuites({ runs: 1, budgetMs: 100 });
    const plan = (name: string) => ({ spec: { version: 1 as const, name, area: 'completions' as const, cases: [] }, file: `${name}.yaml`, casePositions: [] });
    const plans = [plan('completions'), plan('chat')];
    const names = (sel: ReturnType<typeof selectSuites>) => [...sel.plans.map((p) => p.spec.name), ...sel.programmatic.map((s) => s.name)];
    expect(names(selectSuites(['fuzz'], plans, fuzz))).toEqual(fuzz.map((s) => s.name));
    expect(names(selectSuites(['fuzz-images'], plans, fuzz))).toEqual(['fuzz-images']);
    expect(names(selectSuites(['completions', 'fuzz'], plans, fuzz))).toEqual(['completions', ...fuzz.map((s) => s.name)]);
    expect(names(selectSuites([], plans, fuzz))).toEqual(['completions', 'chat', ...fuzz.map((s) => s.name)]);
    expect(names(selectSuites(['completions'], plans, fuzz))).toEqual(['completions']);
    expect(names(selectSuites(['fuzz-chat'], plans, [], FUZZ_SUITE_NAMES))).toEqual([]);
    expect(() => selectSuites(['fuzz-imagez'], plans, fuzz)).toThrow(/did you mean "fuzz-images"/);
    expect(fuzz.map((s) => s.name)).toContain('fuzz-fine-tunes');
    expect(FUZZ_SUITE_NAMES).toEqual(fuzz.map((s) => s.name));
  });

  it('derives the property seed from the run seed and the name', () => {
    expect(propertySeed(7, 'a')).toBe(propertySeed(7, 'a'));
    expect(propertySeed(7, 'a')).not.toBe(propertySeed(7, 'b'));
    expect(propertySeed(8, 'a')).not.toBe(propertySeed(7, 'a'));
  });
});
