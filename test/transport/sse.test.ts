import { describe, expect, it } from 'vitest';
import { SseParser, parseSseText } from '../../src/transport/sse.ts';
import type { SseEvent } from '../../src/transport/types.ts';

const enc = new TextEncoder();

function feedAll(chunks: Uint8Array[]): { events: SseEvent[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const c of chunks) parser.feed(c);
  parser.end();
  return { events, parser };
}

function byteByByte(text: string): Uint8Array[] {
  const b = enc.encode(text);
  return Array.from(b, (x) => Uint8Array.of(x));
}

describe('SseParser', () => {
  const body = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('parses %s line endings, whole and byte by byte', (_name, eol) => {
    const text = body.replace(/\n/g, eol);
    for (const chunks of [[enc.encode(text)], byteByByte(text)]) {
      const { events, parser } = feedAll(chunks);
      expect(events.map((e) => e.data)).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
      expect(parser.doneSeen).toBe(true);
      expect(parser.afterDone).toBe('');
      expect(parser.bytes).toBe(enc.encode(text).length);
      expect(events[1]!.offset).toBe(enc.encode(`data: {"a":1}${eol}${eol}`).length);
    }
  });

  it('handles mixed line endings and CR at a chunk end followed by LF', () => {
    const { events } = feedAll([enc.encode('data: a\r'), enc.encode('\ndata: b\r'), enc.encode('\r\ndata: c\n'), enc.encode('\r')]);
    expect(events).toEqual([
      { data: 'a\nb', otherFields: [], offset: 0 },
      { data: 'c', otherFields: [], offset: 19 },
    ]);
  });

  it('CR at chunk end followed by a non-LF starts a new line', () => {
    const { events } = feedAll([enc.encode('data: a\r'), enc.encode('\rdata: b\n\n')]);
    expect(events.map((e) => e.data)).toEqual(['a', 'b']);
  });

  it('joins data lines, strips one leading space, ignores comments', () => {
    const { events } = parseSseText(': hello\ndata:x\ndata:  y\ndata\n: c\ndata: z\n\n');
    expect(events).toEqual([{ data: 'x\n y\n\nz', otherFields: [], offset: 8 }]);
  });

  it('records other fields (deduped) and reports events without data', () => {
    const { events } = parseSseText('event: delta\nid: 1\nevent: x\ndata: {}\n\nevent: ping\nretry: 5\nfoo\n\n\n\n');
    expect(events).toEqual([
      { data: '{}', otherFields: ['event', 'id'], offset: 0 },
      { data: '', otherFields: ['event', 'retry', 'foo'], offset: 38 },
    ]);
  });

  it('bounds one event: the first 20 other field names, and data cut at 1 MiB ending in "…"', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `f${i.toString(36)}:\n`).join('');
    const { events } = feedAll([enc.encode(`${names}data: {}\n\n`)]);
    expect(events[0]!.otherFields).toEqual(Array.from({ length: 20 }, (_, i) => `f${i.toString(36)}`));
    const lines = 'data: xxxxxxxxxxxxxxx\n'.repeat(100_000); // 1.6 MB of data lines in one event
    const [big] = feedAll([enc.encode(`${lines}\n`)]).events;
    expect(big!.data.length).toBe(1024 * 1024 + 1);
    expect(big!.data.endsWith('…')).toBe(true);
    expect(() => JSON.parse(big!.data)).toThrow();
    // The next event starts whole again.
    expect(feedAll([enc.encode(`${lines}\ndata: {"a":1}\n\n`)]).events[1]!.data).toBe('{"a":1}');
  });

  it('reports an empty data field as an event with empty data', () => {
    expect(parseSseText('data:\n\n').events).toEqual([{ data: '', otherFields: [], offset: 0 }]);
  });

  it('decodes multi-byte characters split across chunks, offsets in bytes', () => {
    const text = 'data: héllo 😀\n\ndata: 日本\n\n';
    const { events } = feedAll(byteByByte(text));
    expect(events.map((e) => e.data)).toEqual(['héllo 😀', '日本']);
    expect(events[1]!.offset).toBe(enc.encode('data: héllo 😀\n\n').length);
  });

  it('strips a leading BOM', () => {
    const { events } = feedAll(byteByByte('\uFEFFdata: a\n\n'));
    expect(events).toEqual([{ data: 'a', otherFields: [], offset: 0 }]);
  });

  it('captures non-blank text after [DONE] and stops dispatching', () => {
    const r = parseSseText('data: [DONE]\n\n\n  \ndata: {"late":true}\n\ntrailing garbage');
    expect(r.events.map((e) => e.data)).toEqual(['[DONE]']);
    expect(r.doneSeen).toBe(true);
    expect(r.afterDone).toBe('data: {"late":true}\ntrailing garbage');
  });

  it('caps afterDone at 1 KiB', () => {
    const r = parseSseText('data: [DONE]\n\n' + 'data: xxxxxxxxxx\n\n'.repeat(500));
    expect(r.afterDone.length).toBe(1024);
  });

  it('data "[DONE] " is not DONE', () => {
    expect(parseSseText('data: [DONE] \n\n').doneSeen).toBe(false);
  });

  it('discards an unterminated final event and describes it', () => {
    const events: SseEvent[] = [];
    const p = new SseParser((e) => events.push(e));
    p.feed(enc.encode('data: 1\n\ndata: [DONE]\n'));
    p.end();
    expect(events.map((e) => e.data)).toEqual(['1']);
    expect(p.doneSeen).toBe(false);
    expect(p.incomplete).toContain('[DONE]');
  });

  it('parses a realistic stream fed byte by byte identically to whole', () => {
    const parts: string[] = [];
    for (let i = 0; i < 50; i++) {
      parts.push(`data: ${JSON.stringify({ id: 'cmpl-1', choices: [{ text: `tok ${i} ✓`, index: 0 }] })}\r\n\r\n`);
      if (i % 7 === 0) parts.push(': keep-alive\r\n\r\n');
    }
    parts.push('data: [DONE]\r\n\r\n');
    const text = parts.join('');
    const whole = parseSseText(text).events;
    const { events } = feedAll(byteByByte(text));
    expect(events).toEqual(whole);
    expect(events).toHaveLength(51);
    expect(JSON.parse(events[3]!.data).choices[0].text).toBe('tok 3 ✓');
  });

  it('does not keep the buffer of the caller (copies partial lines)', () => {
    const events: SseEvent[] = [];
    const p = new SseParser((e) => events.push(e));
    const buf = enc.encode('data: ab');
    p.feed(buf);
    buf.fill(0x7a);
    p.feed(enc.encode('c\n\n'));
    expect(events[0]!.data).toBe('abc');
  });
});
