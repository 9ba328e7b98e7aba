// A body undici is still delivering (raw-body.ts): nothing that arrived before it is read is lost, nothing is
// delivered after it is destroyed, and destroying it before its end aborts the request.
import { describe, expect, it } from 'vitest';
import { ArrivingBody, bodyOfBytes, type RawBodySink } from '../../src/transport/raw-body.ts';

function recorder(): RawBodySink & { got: string[] } {
  const got: string[] = [];
  return { got, data: (c) => got.push(c.toString()), end: () => got.push('END'), error: (e) => got.push(`ERROR ${(e as Error).message}`) };
}

describe('ArrivingBody', () => {
  it('delivers what arrived before it was read, then the rest as it comes, then its end', () => {
    const body = new ArrivingBody(() => { throw new Error('not cancelled'); });
    body.push(Buffer.from('a'));
    body.push(Buffer.from('b'));
    const sink = recorder();
    body.read(sink);
    expect(sink.got).toEqual(['a', 'b']);
    body.push(Buffer.from('c'));
    body.finish();
    expect(sink.got).toEqual(['a', 'b', 'c', 'END']);
  });

  it('an end or an error that came before it was read is delivered after the chunks', () => {
    const ended = new ArrivingBody(() => {});
    ended.push(Buffer.from('a'));
    ended.finish();
    const one = recorder();
    ended.read(one);
    expect(one.got).toEqual(['a', 'END']);
    const failed = new ArrivingBody(() => {});
    failed.push(Buffer.from('a'));
    failed.fail(new Error('socket closed'));
    failed.finish();
    const two = recorder();
    failed.read(two);
    expect(two.got).toEqual(['a', 'ERROR socket closed']);
  });

  it('an observer sees every chunk, those before it too; the reader is unaffected', () => {
    const body = new ArrivingBody(() => {});
    body.push(Buffer.from('a'));
    const seen: string[] = [];
    body.observe((c) => seen.push(c.toString()));
    const sink = recorder();
    body.read(sink);
    body.push(Buffer.from('b'));
    body.finish();
    expect(seen).toEqual(['a', 'b']);
    expect(sink.got).toEqual(['a', 'b', 'END']);
  });

  it('destroyed before its end: the request is cancelled once, and nothing more is delivered', () => {
    let cancelled = 0;
    const body = new ArrivingBody(() => cancelled++);
    const got: string[] = [];
    body.read({ data: (c) => { got.push(c.toString()); body.destroy(); }, end: () => got.push('END'), error: () => got.push('ERROR') });
    body.push(Buffer.from('a'));
    body.push(Buffer.from('b'));
    body.fail(new Error('aborted'));
    body.destroy();
    expect(got).toEqual(['a']);
    expect(cancelled).toBe(1);
  });

  it('destroyed after its end: nothing to cancel', () => {
    let cancelled = 0;
    const body = new ArrivingBody(() => cancelled++);
    body.read(recorder());
    body.finish();
    body.destroy();
    expect(cancelled).toBe(0);
  });

  it('is read once', () => {
    const body = new ArrivingBody(() => {});
    body.read(recorder());
    expect(() => body.read(recorder())).toThrow(/once/);
  });
});

describe('bodyOfBytes', () => {
  it('delivers its bytes and its end; no bytes is no chunk at all', () => {
    const some = recorder();
    bodyOfBytes(Buffer.from('xyz')).read(some);
    expect(some.got).toEqual(['xyz', 'END']);
    const none = recorder();
    bodyOfBytes(Buffer.alloc(0)).read(none);
    expect(none.got).toEqual(['END']);
  });
});
