import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/util/redact.ts';

const KEY = 'sk-test-1234567890abcdef';
const ORG = 'org-secret-42';

describe('Redactor', () => {
  const r = new Redactor({ secretHeaders: ['Authorization', 'service-organization'], secretValues: [KEY, ORG, '', 'abc'] });

  it('redacts headers and lower-cases names', () => {
    expect(
      r.headers({
        Authorization: `Bearer ${KEY}`,
        'Service-Organization': ORG,
        'X-Echo': `key=${KEY}`,
        'Content-Type': 'application/json',
      }),
    ).toEqual({
      authorization: 'Bearer REDACTED',
      'service-organization': 'REDACTED',
      'x-echo': 'key=REDACTED',
      'content-type': 'application/json',
    });
    expect(r.headers({ authorization: `Basic ${Buffer.from('u:p').toString('base64')}` })).toEqual({ authorization: 'REDACTED' });
  });

  it('redacts every occurrence in text, including URL-encoded and overlapping ones', () => {
    expect(r.text(`a ${KEY} b ${KEY}${KEY}`)).toBe('a REDACTED b REDACTED');
    const spaced = new Redactor({ secretHeaders: [], secretValues: ['my key/1'] });
    expect(spaced.text('q=my%20key%2F1&x=my key/1')).toBe('q=REDACTED&x=REDACTED');
    const overlap = new Redactor({ secretHeaders: [], secretValues: ['abcd', 'cdef'] });
    expect(overlap.text('xxabcdefyy')).toBe('xxREDACTEDyy');
    expect(r.text('abc is too short to be a secret')).toBe('abc is too short to be a secret');
  });

  it('redacts a mixed-case key echoed in a header name, which HTTP lower-cases', () => {
    const key = 'sk-LiveSecretKeyAbc123Xyz987';
    const redactor = new Redactor({ secretHeaders: [], secretValues: [key] });
    const out = redactor.headers({ [`x-k-${key.toLowerCase()}`]: key, 'X-Plain': 'fine' });
    expect(Object.keys(out)).toEqual(['x-k-REDACTED', 'x-plain']);
    expect(out['x-k-REDACTED']).toBe('REDACTED');
  });

  it('redacts a key echoed in base64 wherever it starts (Basic auth, tokens), in both alphabets; no decodable key is left', () => {
    const key = 'sk-live-Zx9/Qw+8_long-enough-key';
    const redactor = new Redactor({ secretHeaders: [], secretValues: [key] });
    for (const prefix of ['', 'u', 'us', 'user:', 'ab:']) {
      for (const suffix of ['', 'x', 'xy', ':tail']) {
        const b64 = Buffer.from(`${prefix}${key}${suffix}`).toString('base64');
        for (const encoded of [b64, b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]) {
          const shown = redactor.text(`Authorization echoed: Basic ${encoded}!`);
          expect(shown, encoded).toContain('REDACTED');
          // What is left decodes to no more than a few bytes of the key.
          const left = shown.replace('Authorization echoed: Basic ', '').replace('!', '').split('REDACTED').join('');
          const decoded = Buffer.from(left.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
          expect(decoded.includes(key.slice(0, 8)), `${encoded} → ${shown}`).toBe(false);
        }
      }
    }
    // Ordinary base64 (an image, an embedding) is left alone.
    const png = Buffer.from('\x89PNG\r\n\x1a\n some image bytes here that are not a key').toString('base64');
    expect(redactor.text(png)).toBe(png);
  });

  it('redacts a key a JSON encoder escaped (\\uXXXX in either case, \\/ for a slash), and its name in a header', () => {
    const slashy = new Redactor({ secretHeaders: [], secretValues: ['sk-test/SECRET+123'] });
    expect(slashy.text('{"message":"Incorrect API key provided: sk-test\\/SECRET+123"}')).toBe('{"message":"Incorrect API key provided: REDACTED"}');
    expect(slashy.text('sk\\u002dtest\\u002Fsecret'.replace('secret', 'SECRET+123'))).toBe('REDACTED');
    expect(r.text(`\\u0073k-test-1234567890abcdef and ${KEY.replace(/-/g, '\\u002D')}`)).toBe('REDACTED and REDACTED');
    expect(r.text('a path like \\/v1\\/models stays')).toBe('a path like \\/v1\\/models stays');
    expect(r.headers({ [`x-${KEY}`]: '1' })).toEqual({ 'x-REDACTED': '1' });
  });

  it('redacts the start of a key a cut (…) follows, beyond the 8 characters a masked key shows anyway', () => {
    expect(r.text(`xxx${KEY.slice(0, 20)}…")`)).toBe('xxxREDACTED…")');
    expect(r.text(`masked ${KEY.slice(0, 8)}…`)).toBe(`masked ${KEY.slice(0, 8)}…`);
    expect(r.text('an ordinary cut…')).toBe('an ordinary cut…');
  });

  it('never lets a pathological secret survive', () => {
    const weird = new Redactor({ secretHeaders: [], secretValues: ['DACT', 'xREDACTED'] });
    for (const s of ['DACT', 'xDACT', 'a DACT b', 'xxREDACTED']) {
      const out = weird.text(s);
      expect(out.includes('DACT')).toBe(false);
      expect(out.includes('xREDACTED')).toBe(false);
    }
  });

  it('deep-copies values, redacting nested strings and object keys', () => {
    const input = {
      model: 'x',
      nested: [{ key: KEY, [KEY]: 1, ok: true, n: 3 }, null],
      [`org:${ORG}`]: { deeper: [`${ORG}!`] },
    };
    const out = r.value(input);
    expect(out).toEqual({
      model: 'x',
      nested: [{ key: 'REDACTED', REDACTED: 1, ok: true, n: 3 }, null],
      'org:REDACTED': { deeper: ['REDACTED!'] },
    });
    expect(out).not.toBe(input);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(input.nested[0]!.key).toBe(KEY);
  });

  it('copies values even with no secrets, and handles cycles', () => {
    const none = new Redactor({ secretHeaders: [], secretValues: [] });
    const v: Record<string, unknown> = { a: [1, 'x'] };
    v['self'] = v;
    const out = none.value(v);
    expect(out).not.toBe(v);
    expect(out['self']).toBe(out);
    const out2 = r.value(v);
    expect(out2['self']).toBe(out2);
  });

  it('shared(): redacts like value(), copying only the parts that changed', () => {
    const clean = { id: 'cmpl-1', list: [1, 'two', { deep: true }] };
    const dirty = { message: `Incorrect API key provided: ${KEY}`, headers: { authorization: 'x' } };
    const input = { clean, dirty, again: clean, [`k:${KEY}`]: 1 };
    const out = r.shared(input);
    expect(out).toEqual(r.value(input));
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out).not.toBe(input);
    expect(out.clean).toBe(clean); // nothing to redact: shared, not copied
    expect(out.again).toBe(out.clean);
    expect(out.dirty).not.toBe(dirty);
    expect(dirty.message).toContain(KEY); // the input is never changed
    const nothing = { a: [{ b: 'c' }] };
    expect(r.shared(nothing)).toBe(nothing);
    const cyclic: Record<string, unknown> = { secret: KEY };
    cyclic['self'] = cyclic;
    const copied = r.shared(cyclic);
    expect(copied['secret']).toBe('REDACTED');
    expect(copied['self']).toBe(copied);
  });

  it('shared(): a value that shares its parts many times over is still visited once per part (bounded work)', () => {
    // 2^40 paths to the bottom: a walk without memory would never end; the read-only walk gives up at its budget.
    const deep = (bottom: Record<string, unknown>): Record<string, unknown> => {
      let node = bottom;
      for (let i = 0; i < 40; i++) node = { a: node, b: node };
      return node;
    };
    const clean = deep({ note: 'nothing secret' });
    expect(r.shared(clean)).toBe(clean); // nothing to redact: not copied
    const dirty = deep({ note: `key ${KEY}` });
    const out = r.shared(dirty) as Record<string, Record<string, unknown>>;
    expect(out).not.toBe(dirty);
    expect(out['a']).toBe(out['b']); // shared parts stay shared in the copy
    let bottom: Record<string, unknown> = out;
    for (let i = 0; i < 40; i++) bottom = bottom['a'] as Record<string, unknown>;
    expect(bottom['note']).toBe('key REDACTED');
  }, 10_000);

  it('absentFromJson: true only when the JSON text shows no string of the value holds a secret', () => {
    const r = new Redactor({ secretHeaders: [], secretValues: [KEY] });
    const bytes = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');
    expect(r.absentFromJson(bytes({ model: 'davinci', input: ['a', 'b'] }))).toBe(true);
    expect(r.absentFromJson(bytes({ note: `key ${KEY}` }))).toBe(false);
    expect(r.absentFromJson(bytes({ [KEY]: 1 }))).toBe(false);
    // Byte for byte: beside characters of several bytes, and in a view into a larger buffer.
    expect(r.absentFromJson(bytes({ note: 'café ✔ 日本' }))).toBe(true);
    expect(r.absentFromJson(bytes({ note: `café ✔ 日本${KEY}` }))).toBe(false);
    const within = Buffer.concat([Buffer.from(KEY), bytes({ a: 'b' }), Buffer.from(KEY)]);
    expect(r.absentFromJson(within.subarray(KEY.length, within.length - KEY.length))).toBe(true);
    // Escapes can spell a secret its bytes do not show: unsure, so false.
    const escaped = Buffer.from(`{"note":"${[...KEY].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`, 'utf8');
    expect((JSON.parse(escaped.toString()) as { note: string }).note).toBe(KEY);
    expect(r.absentFromJson(escaped)).toBe(false);
    // The start of a secret cut short (`sk-…`) is redacted by shared(): the text is not clean.
    const cut = { note: `${KEY.slice(0, 12)}…` };
    expect(r.shared(cut)).not.toBe(cut);
    expect(r.absentFromJson(bytes(cut))).toBe(false);
    // A secret that JSON escapes cannot be searched for in JSON text at all.
    expect(new Redactor({ secretHeaders: [], secretValues: ['sk-"quoted"-key'] }).absentFromJson(bytes({ a: 'b' }))).toBe(false);
  });
});
