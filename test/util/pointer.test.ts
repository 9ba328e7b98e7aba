// RFC 6901 JSON Pointers, as findings name places: escaping of "~" and "/", resolution, and wildcards.

import { describe, expect, it } from 'vitest';
import { escapeToken, joinPointer, pointerOf, resolvePointer, resolveWildcard } from '../../src/util/pointer.ts';

const doc = { 'a/b': { 'm~n': [10, 20] }, list: [{ id: 'x' }, { id: 'y' }], '': 'empty key', plain: { deep: true } };

describe('JSON pointers (RFC 6901)', () => {
  it('escapes "~" as ~0 and "/" as ~1, in that order, and leaves other tokens as they are', () => {
    expect(escapeToken('a/b')).toBe('a~1b');
    expect(escapeToken('m~n')).toBe('m~0n');
    expect(escapeToken('~1')).toBe('~01');
    expect(escapeToken('plain')).toBe('plain');
    expect(escapeToken(3)).toBe('3');
    expect(pointerOf('a/b', 'm~n', 1)).toBe('/a~1b/m~0n/1');
    expect(joinPointer('/list', 0, 'id')).toBe('/list/0/id');
    expect(pointerOf()).toBe('');
  });

  it('resolves escaped tokens, array indexes and the empty key; a missing step is undefined', () => {
    expect(resolvePointer(doc, '/a~1b/m~0n/1')).toBe(20);
    expect(resolvePointer(doc, '/plain/deep')).toBe(true);
    expect(resolvePointer(doc, '/')).toBe('empty key');
    expect(resolvePointer(doc, '')).toBe(doc);
    expect(resolvePointer(doc, '/list/01')).toBeUndefined();
    expect(resolvePointer(doc, '/list/2')).toBeUndefined();
    expect(resolvePointer(doc, '/plain/toString')).toBeUndefined();
    expect(() => resolvePointer(doc, 'plain')).toThrow(/must start with/);
    // The same pointer twice gives the same answer (a parsed pointer may be kept).
    expect(resolvePointer(doc, '/a~1b/m~0n/0')).toBe(10);
    expect(resolvePointer(doc, '/a~1b/m~0n/0')).toBe(10);
  });

  it('expands wildcards to the concrete pointers of what they found', () => {
    expect(resolveWildcard(doc, '/list/*/id')).toEqual([{ pointer: '/list/0/id', value: 'x' }, { pointer: '/list/1/id', value: 'y' }]);
    expect(resolveWildcard(doc, '/a~1b/*')).toEqual([{ pointer: '/a~1b/m~0n', value: [10, 20] }]);
    expect(resolveWildcard(doc, '/missing/*')).toEqual([]);
  });
});
