import { describe, expect, it } from 'vitest';
import { evaluate, referencedNames, render, TemplateError } from '../../src/suite/template.ts';

const scope = { models: { chat: 'gpt' }, context: { chat: 4096 }, n: 3, name: 'x', list: [1, 2] };

describe('templates', () => {
  it('keeps the type of a whole-string template', () => {
    expect(render({ max_tokens: '{{context.chat - 64}}', model: '{{models.chat}}', l: '{{list}}' }, scope)).toEqual({ max_tokens: 4032, model: 'gpt', l: [1, 2] });
  });
  it('interpolates inside strings', () => {
    expect(render('/v1/{{name}}/x{{n + 1}}', scope)).toBe('/v1/x/x4');
  });
  it('has a fixed table of functions', () => {
    expect(evaluate("repeat('ab', 3)", scope)).toBe('ababab');
    expect(evaluate('range(3)', scope)).toEqual([0, 1, 2]);
    expect(evaluate("fill(2, 'q')", scope)).toEqual(['q', 'q']);
    expect(evaluate('words(3)', scope)).toBe('w0 w1 w2');
    expect(evaluate("len(repeat('a', n))", scope)).toBe(3);
    expect(() => evaluate('exec(1)', scope)).toThrow(/unknown function exec/);
  });
  it('rejects unknown names and bad syntax', () => {
    expect(() => evaluate('nope', scope)).toThrow(TemplateError);
    expect(() => evaluate('models.nope', scope)).toThrow(/"models.nope" is not defined/);
    expect(() => evaluate('n +', scope)).toThrow(/ends too early/);
    expect(() => evaluate("'a' - 1", scope)).toThrow(/needs numbers/);
    expect(() => evaluate('repeat("a", -1)', scope)).toThrow(/expected a count/);
  });
  it('lists the root names an expression reads', () => {
    expect(referencedNames({ a: '{{models.chat}} {{n + len(name)}}', b: ["{{repeat('x', 2)}}"] }).sort()).toEqual(['models', 'n', 'name']);
  });
});

describe('renderPath', () => {
  it('percent-encodes an interpolated value as one path segment, and leaves a whole-template path as written', async () => {
    const { renderPath } = await import('../../src/suite/template.ts');
    expect(renderPath('/v1/models/{{id}}', { id: 'meta-llama/Llama-2-7b-chat-hf' })).toBe('/v1/models/meta-llama%2FLlama-2-7b-chat-hf');
    // ':' is allowed in a segment, and an encoded one is another URI: a fine-tuned model name goes out as written.
    expect(renderPath('/v1/models/{{id}}', { id: 'curie:ft-acme-2023-02-18-22-17-49' })).toBe('/v1/models/curie:ft-acme-2023-02-18-22-17-49');
    expect(renderPath('/v1/x/{{id}}', { id: 'a b?c#d%e' })).toBe('/v1/x/a%20b%3Fc%23d%25e');
    expect(renderPath('{{p}}', { p: '/v1/models/a/b' })).toBe('/v1/models/a/b');
    expect(renderPath('/v1/files', {})).toBe('/v1/files');
  });
});
