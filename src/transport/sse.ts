// Incremental server-sent-events parser (WHATWG "event stream interpretation"), fed raw bytes.
//
// Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
// next are one line ending). Line boundaries are found on bytes (CR/LF never occur inside a
// UTF-8 multi-byte sequence), so byte offsets are exact and characters split across chunks are
// decoded whole. The parser keeps only the current partial line and the current event.

import { startsWithUtf8Bom } from '../util/bom.ts';
import type { SseEvent } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const AFTER_DONE_CAP = 1024;
const INCOMPLETE_CAP = 200;
/**
 * Bounds of one event, far above any the spec's streams send (a chunk is a few hundred bytes): a hostile stream
 * of 100,000 distinct field names, or of millions of `data:` lines without a blank line, kept every one of them
 * (quadratic time in the names, a rope of millions of pieces in memory). Past the bounds an event keeps its
 * first names, and its data is cut, ending in "…" (so no check reads it as whole JSON).
 */
const MAX_OTHER_FIELDS = 20;
const MAX_EVENT_DATA_CHARS = 1024 * 1024;
const DONE = '[DONE]';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

export class SseParser {
  readonly #onEvent: (e: SseEvent) => void;
  #bytes = 0;
  #doneSeen = false;
  #afterDone = '';
  #incomplete = '';
  #ended = false;

  /** Bytes of the current line received so far (line not terminated yet). */
  #partial: Uint8Array[] = [];
  #partialLen = 0;
  /** Absolute byte offset of the current partial line. */
  #partialStart = 0;
  /** The previous chunk ended with CR: an LF at the start of the next belongs to it. */
  #skipLF = false;

  // Current event.
  #data = '';
  #hasData = false;
  #other: string[] | null = null;
  #dataCut = false;
  #offset = -1;

  constructor(onEvent: (e: SseEvent) => void) {
    this.#onEvent = onEvent;
  }

  /** Total bytes fed. */
  get bytes(): number {
    return this.#bytes;
  }

  /** An event whose data is exactly `[DONE]` was dispatched. */
  get doneSeen(): boolean {
    return this.#doneSeen;
  }

  /** Non-blank text received after the `[DONE]` event (lines joined with "\n"), capped at 1 KiB. */
  get afterDone(): string {
    return this.#afterDone;
  }

  /** After end(): a description of an event that was cut off by the end of the body (discarded per WHATWG), else "". */
  get incomplete(): string {
    return this.#incomplete;
  }

  feed(chunk: Uint8Array): void {
    if (this.#ended) throw new Error('SseParser.feed() after end()');
    const n = chunk.length;
    if (n === 0) return;
    const base = this.#bytes;
    this.#bytes += n;
    let i = 0;
    if (this.#skipLF) {
      this.#skipLF = false;
      if (chunk[0] === LF) i = 1;
    }
    let nextLF = chunk.indexOf(LF, i);
    let nextCR = chunk.indexOf(CR, i);
    while (i < n) {
      if (nextLF !== -1 && nextLF < i) nextLF = chunk.indexOf(LF, i);
      if (nextCR !== -1 && nextCR < i) nextCR = chunk.indexOf(CR, i);
      const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (end === -1) break;
      let line: Uint8Array;
      let lineStart: number;
      if (this.#partialLen > 0) {
        this.#partial.push(chunk.subarray(i, end));
        line = concat(this.#partial, this.#partialLen + (end - i));
        lineStart = this.#partialStart;
        this.#partial = [];
        this.#partialLen = 0;
      } else {
        line = chunk.subarray(i, end);
        lineStart = base + i;
      }
      if (chunk[end] === CR) {
        if (end + 1 < n) {
          i = chunk[end + 1] === LF ? end + 2 : end + 1;
        } else {
          this.#skipLF = true;
          i = end + 1;
        }
      } else {
        i = end + 1;
      }
      this.#line(line, lineStart);
    }
    if (i < n) {
      if (this.#partialLen === 0) this.#partialStart = base + i;
      // Copy: the caller may reuse its buffer.
      this.#partial.push(chunk.slice(i));
      this.#partialLen += n - i;
    }
  }

  /** End of body: an unterminated event is discarded (WHATWG); see `incomplete`. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    const rest = this.#partialLen > 0 ? decoder.decode(concat(this.#partial, this.#partialLen)) : '';
    this.#partial = [];
    this.#partialLen = 0;
    if (this.#doneSeen) {
      this.#appendAfterDone(rest);
      return;
    }
    if (this.#hasData || this.#other !== null || rest.trim() !== '') {
      const parts: string[] = [];
      if (this.#hasData) parts.push(`data ${JSON.stringify(this.#data)}`);
      if (this.#other !== null) parts.push(`fields ${this.#other.join(', ')}`);
      if (rest !== '') parts.push(`unterminated line ${JSON.stringify(rest)}`);
      let text = parts.join('; ');
      if (text.length > INCOMPLETE_CAP) text = `${text.slice(0, INCOMPLETE_CAP)}…`;
      this.#incomplete = text;
    }
    this.#resetEvent();
  }

  #line(line: Uint8Array, lineStart: number): void {
    if (this.#doneSeen) {
      if (line.length > 0) this.#appendAfterDone(decoder.decode(line));
      return;
    }
    if (line.length === 0) {
      this.#dispatch();
      return;
    }
    if (lineStart === 0 && startsWithUtf8Bom(line)) {
      line = line.subarray(3); // leading BOM
      if (line.length === 0) return;
    }
    if (line[0] === COLON) return; // comment
    const text = decoder.decode(line);
    const colon = text.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = text;
      value = '';
    } else {
      field = text.slice(0, colon);
      value = text.charCodeAt(colon + 1) === 0x20 ? text.slice(colon + 2) : text.slice(colon + 1);
    }
    if (this.#offset === -1) this.#offset = lineStart;
    if (field === 'data') this.#appendData(value);
    else if (this.#other === null) this.#other = [field];
    else if (this.#other.length < MAX_OTHER_FIELDS && !this.#other.includes(field)) this.#other.push(field);
  }

  #appendData(value: string): void {
    if (this.#dataCut) return;
    const next = this.#hasData ? this.#data.length + 1 + value.length : value.length;
    if (next > MAX_EVENT_DATA_CHARS) {
      this.#dataCut = true;
      this.#data = `${(this.#hasData ? `${this.#data}\n${value}` : value).slice(0, MAX_EVENT_DATA_CHARS)}…`;
      this.#hasData = true;
      return;
    }
    if (this.#hasData) this.#data += '\n' + value;
    else {
      this.#data = value;
      this.#hasData = true;
    }
  }

  #dispatch(): void {
    if (!this.#hasData && this.#other === null) {
      this.#resetEvent();
      return;
    }
    const event: SseEvent = {
      data: this.#hasData ? this.#data : '',
      otherFields: this.#other ?? [],
      offset: this.#offset,
    };
    if (this.#hasData && this.#data === DONE) this.#doneSeen = true;
    this.#resetEvent();
    this.#onEvent(event);
  }

  #resetEvent(): void {
    this.#data = '';
    this.#hasData = false;
    this.#other = null;
    this.#dataCut = false;
    this.#offset = -1;
  }

  #appendAfterDone(text: string): void {
    const t = text.trim();
    if (t === '' || this.#afterDone.length >= AFTER_DONE_CAP) return;
    const next = this.#afterDone === '' ? t : `${this.#afterDone}\n${t}`;
    this.#afterDone = next.length > AFTER_DONE_CAP ? next.slice(0, AFTER_DONE_CAP) : next;
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Parse a whole recorded event-stream body. */
export function parseSseText(text: string): { events: SseEvent[]; doneSeen: boolean; afterDone: string } {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  parser.feed(encoder.encode(text));
  parser.end();
  return { events, doneSeen: parser.doneSeen, afterDone: parser.afterDone };
}
