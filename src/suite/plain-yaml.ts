// A reader for the plain YAML suite files are written in, and nothing else: block mappings and sequences, keys
// that are simple words or quoted, scalars and flow collections that each end on their line. Whatever lies
// outside that (anchors, tags, block or multi-line scalars, complex keys, tabs, rare escapes, numbers in unusual
// forms) makes it answer undefined, and the parser with positions decides. Within it, it reads what that parser
// (`yaml`, core schema, unique keys) reads, as its differential test checks on generated and mutated text.
//
// Why it exists: a generated 3000-case suite (800 KB) takes the parser with positions ~480 ms in a fresh process,
// in a run that sends its 3000 requests in ~1 s; reading line by line, allocating little besides the values
// themselves, takes ~15 ms. A fresh CI machine has no parse cache to spare it that.

/** Part of the parse cache's key (parse-cache.ts): raise it whenever what this reader takes or returns changes. */
export const PLAIN_YAML_READER = 1;

/** Thrown inside the reader, caught at its entry: the text is outside what it reads. */
const OUTSIDE = Symbol('outside the plain subset');

/** The document as plain data, or undefined when the text is outside the plain subset (or not one document). */
export function parsePlainYaml(text: string): unknown {
  const lines = contentLines(text);
  if (!lines || lines.count === 0) return undefined;
  const reader = new Reader(text, lines);
  try {
    const value = reader.block(lines.indent[0]!);
    return reader.line === lines.count ? value : undefined;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

interface Lines {
  count: number;
  /** Spaces before the content. */
  indent: Int32Array;
  /** Offset of the first character of content. */
  start: Int32Array;
  /** Offset just after the last non-space character. */
  end: Int32Array;
}

/** Every line holding more than spaces and a comment; undefined for text the reader never takes. */
function contentLines(text: string): Lines | undefined {
  // Tabs (indentation or separation), carriage returns and a byte-order mark each have rules of their own.
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  let capacity = 64;
  let indent: Int32Array<ArrayBuffer> = new Int32Array(capacity);
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let count = 0;
  for (let from = 0; from <= text.length;) {
    const nl = text.indexOf('\n', from);
    const stop = nl === -1 ? text.length : nl;
    let s = from;
    while (s < stop && text.charCodeAt(s) === 32) s++;
    if (s < stop && text.charCodeAt(s) !== 35 /* # */) {
      // Directives and document markers: more than one plain document.
      if (s === from && (text.charCodeAt(s) === 37 /* % */ || isDocumentMarker(text, s, stop))) return undefined;
      let e = stop;
      while (text.charCodeAt(e - 1) === 32) e--;
      if (count === capacity) {
        capacity *= 2;
        indent = grow(indent, capacity);
        start = grow(start, capacity);
        end = grow(end, capacity);
      }
      indent[count] = s - from;
      start[count] = s;
      end[count] = e;
      count++;
    }
    if (nl === -1) break;
    from = nl + 1;
  }
  return { count, indent, start, end };
}

function grow(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}

function isDocumentMarker(text: string, s: number, stop: number): boolean {
  const c = text.charCodeAt(s);
  if ((c !== 45 && c !== 46) || text.charCodeAt(s + 1) !== c || text.charCodeAt(s + 2) !== c) return false;
  return s + 3 === stop || text.charCodeAt(s + 3) === 32;
}

class Reader {
  /** The line being read. */
  line = 0;
  /** Where the flow node or quoted scalar just read ends. */
  private at = 0;
  private readonly indent: Int32Array;
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly count: number;

  constructor(private readonly text: string, lines: Lines) {
    this.indent = lines.indent;
    this.start = lines.start;
    this.end = lines.end;
    this.count = lines.count;
  }

  /** The node whose first line is the current one, at `indent`: a block collection, or a value alone on its line. */
  block(indent: number): unknown {
    if (this.isSequenceItem(this.line)) return this.sequence(indent);
    const p = this.start[this.line]!;
    const end = this.end[this.line]!;
    if (this.blockKey(p, end) !== undefined) return this.mapping(indent, p);
    const value = this.inline(p, end);
    this.line++;
    return value;
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    while (this.line < this.count && this.indent[this.line] === indent && this.isSequenceItem(this.line)) {
      const line = this.line;
      const end = this.end[line]!;
      const p = this.skipSpaces(this.start[line]! + 1, end);
      if (p === end || this.text.charCodeAt(p) === 35 /* # */) {
        this.line++;
        items.push(this.nested(indent, false));
      } else if (this.blockKey(p, end) !== undefined) {
        // `- key: value`: a mapping whose keys stand at the column of this first one.
        items.push(this.mapping(indent + (p - this.start[line]!), p));
      } else {
        items.push(this.inline(p, end));
        this.line++;
      }
      this.expectAtMost(indent);
    }
    return items;
  }

  private mapping(column: number, first: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    let p = first;
    for (;;) {
      const line = this.line;
      const end = this.end[line]!;
      const key = this.blockKey(p, end);
      if (key === undefined || key === '__proto__' || Object.hasOwn(map, key)) throw OUTSIDE;
      const v = this.skipSpaces(this.at + 1, end);
      if (v === end || this.text.charCodeAt(v) === 35 /* # */) {
        this.line++;
        map[key] = this.nested(column, true);
      } else {
        map[key] = this.inline(v, end);
        this.line++;
      }
      this.expectAtMost(column);
      if (this.line === this.count || this.indent[this.line] !== column) return map;
      // A sequence at the keys' column belongs to a key with no value of its own (handled by nested()).
      if (this.isSequenceItem(this.line)) throw OUTSIDE;
      p = this.start[this.line]!;
    }
  }

  /** The value of a key or item whose line ends after it: a block below, deeper (or a sequence at a key's column). */
  private nested(parentIndent: number, sequenceAtSameIndent: boolean): unknown {
    if (this.line === this.count) return null;
    const indent = this.indent[this.line]!;
    if (indent > parentIndent) return this.block(indent);
    if (sequenceAtSameIndent && indent === parentIndent && this.isSequenceItem(this.line)) return this.sequence(indent);
    return null;
  }

  /** After a node, the next line must not be deeper than its parent's indent (a continuation, or an error). */
  private expectAtMost(indent: number): void {
    if (this.line < this.count && this.indent[this.line]! > indent) throw OUTSIDE;
  }

  private isSequenceItem(line: number): boolean {
    const s = this.start[line]!;
    if (this.text.charCodeAt(s) !== 45 /* - */) return false;
    return s + 1 === this.end[line] || this.text.charCodeAt(s + 1) === 32;
  }

  private skipSpaces(p: number, end: number): number {
    while (p < end && this.text.charCodeAt(p) === 32) p++;
    return p;
  }

  /**
   * The key of a block mapping entry at `p` (a simple word, or a quoted scalar) followed by ": " or by ":" at the
   * end of the line, with `at` on that colon; undefined when `p` does not start one.
   */
  private blockKey(p: number, end: number): string | undefined {
    const c = this.text.charCodeAt(p);
    if (c === 34 || c === 39) {
      const key = c === 34 ? this.doubleQuoted(p, end) : this.singleQuoted(p, end);
      const colon = this.at;
      return this.text.charCodeAt(colon) === 58 && (colon + 1 === end || this.text.charCodeAt(colon + 1) === 32) ? key : undefined;
    }
    const colon = this.keyEnd(p, end);
    if (colon === -1) return undefined;
    const key = this.text.slice(p, colon);
    this.at = colon;
    return isPlainKey(key) ? key : undefined;
  }

  /** Where a simple key starting at `p` ends in ": " (or ":" at the end of the line), or -1. */
  private keyEnd(p: number, end: number): number {
    if (!isKeyStart(this.text.charCodeAt(p))) return -1;
    let i = p + 1;
    while (i < end && isKeyPart(this.text.charCodeAt(i))) i++;
    if (this.text.charCodeAt(i) !== 58 /* : */) return -1;
    return i + 1 === end || this.text.charCodeAt(i + 1) === 32 ? i : -1;
  }

  /** A value that begins at `p` and ends on this line (a comment may follow it). */
  private inline(p: number, end: number): unknown {
    const c = this.text.charCodeAt(p);
    if (c === 34 /* " */ || c === 39 /* ' */ || c === 123 /* { */ || c === 91 /* [ */) {
      const value = this.flowNode(p, end);
      const after = this.at;
      const rest = this.skipSpaces(after, end);
      if (rest !== end && !(rest > after && this.text.charCodeAt(rest) === 35 /* # */)) throw OUTSIDE;
      return value;
    }
    if (!isPlainStart(c)) throw OUTSIDE;
    // A plain scalar: to the end of the line, or to a comment (" #").
    let stop = p;
    while (stop < end && !(this.text.charCodeAt(stop) === 35 && this.text.charCodeAt(stop - 1) === 32)) stop++;
    while (this.text.charCodeAt(stop - 1) === 32) stop--;
    const plain = this.text.slice(p, stop);
    // "a: b: c" is an error, and "a: b:" a nested key.
    if (plain.includes(': ') || plain.endsWith(':')) throw OUTSIDE;
    return resolvePlain(plain);
  }

  /** A quoted scalar or a flow collection at `p`, ending on this line; `at` is then the offset after it. */
  private flowNode(p: number, end: number): unknown {
    const c = this.text.charCodeAt(p);
    if (c === 34) return this.doubleQuoted(p, end);
    if (c === 39) return this.singleQuoted(p, end);
    if (c === 123) return this.flowMapping(p, end);
    if (c === 91) return this.flowSequence(p, end);
    // A plain scalar inside a flow collection: up to , ] or }, and without the characters that mean more.
    let i = p;
    for (; i < end; i++) {
      const d = this.text.charCodeAt(i);
      if (d === 44 || d === 93 || d === 125) break;
      if (d === 58 || d === 35 || d === 91 || d === 123) throw OUTSIDE;
    }
    if (i === end || !isPlainStart(c)) throw OUTSIDE;
    let stop = i;
    while (this.text.charCodeAt(stop - 1) === 32) stop--;
    this.at = i;
    return resolvePlain(this.text.slice(p, stop));
  }

  private flowMapping(p: number, end: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    let i = this.skipSpaces(p + 1, end);
    if (this.text.charCodeAt(i) === 125 /* } */) return this.after(map, i + 1);
    for (;;) {
      let key: string;
      const k = this.text.charCodeAt(i);
      if (k === 34 || k === 39) {
        key = k === 34 ? this.doubleQuoted(i, end) : this.singleQuoted(i, end);
        // JSON style, `"key":value`, as well as `"key": value`.
        if (this.text.charCodeAt(this.at) !== 58) throw OUTSIDE;
        i = this.at + 1;
      } else {
        const colon = this.keyEnd(i, end);
        if (colon === -1) throw OUTSIDE;
        key = this.text.slice(i, colon);
        if (!isPlainKey(key)) throw OUTSIDE;
        i = colon + 1;
      }
      if (key === '__proto__' || Object.hasOwn(map, key)) throw OUTSIDE;
      i = this.skipSpaces(i, end);
      const v = this.text.charCodeAt(i);
      // An empty value (`{a: , b: 1}`) is null in YAML; rare enough to leave to the general parsers.
      if (i === end || v === 44 || v === 125) throw OUTSIDE;
      map[key] = this.flowNode(i, end);
      i = this.nextEntry(this.at, end, 125 /* } */);
      if (i === -1) return map;
    }
  }

  private flowSequence(p: number, end: number): unknown[] {
    const items: unknown[] = [];
    let i = this.skipSpaces(p + 1, end);
    if (this.text.charCodeAt(i) === 93 /* ] */) return this.after(items, i + 1);
    for (;;) {
      const v = this.text.charCodeAt(i);
      if (i >= end || v === 44 || v === 93) throw OUTSIDE;
      items.push(this.flowNode(i, end));
      i = this.nextEntry(this.at, end, 93 /* ] */);
      if (i === -1) return items;
    }
  }

  /** After an entry of a flow collection: where the next one starts, or -1 at the closing bracket (`at` after it). */
  private nextEntry(from: number, end: number, close: number): number {
    let i = this.skipSpaces(from, end);
    const sep = this.text.charCodeAt(i);
    if (i < end && sep === close) {
      this.at = i + 1;
      return -1;
    }
    // Anything but a comma (`[a: b]`, a single-pair mapping, among others), and a trailing comma: valid YAML, left
    // to the general parsers.
    if (i >= end || sep !== 44) throw OUTSIDE;
    i = this.skipSpaces(i + 1, end);
    if (i >= end || this.text.charCodeAt(i) === close) throw OUTSIDE;
    return i;
  }

  private after<T>(value: T, at: number): T {
    this.at = at;
    return value;
  }

  private singleQuoted(p: number, end: number): string {
    let out = '';
    let from = p + 1;
    for (;;) {
      const q = this.text.indexOf("'", from);
      if (q === -1 || q >= end) throw OUTSIDE;
      if (this.text.charCodeAt(q + 1) === 39 && q + 1 < end) {
        out += this.text.slice(from, q + 1);
        from = q + 2;
        continue;
      }
      return this.after(out + this.text.slice(from, q), q + 1);
    }
  }

  private doubleQuoted(p: number, end: number): string {
    let out = '';
    let from = p + 1;
    for (let i = from; i < end; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 34) return this.after(out + this.text.slice(from, i), i + 1);
      if (c !== 92 /* \ */) continue;
      out += this.text.slice(from, i);
      const e = this.text.charCodeAt(i + 1);
      const simple = ESCAPES[e];
      if (simple !== undefined && i + 1 < end) {
        out += simple;
        i += 1;
      } else if (e === 117 /* u */ && i + 5 < end && /^[0-9a-fA-F]{4}$/.test(this.text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(this.text.slice(i + 2, i + 6), 16));
        i += 5;
      } else {
        throw OUTSIDE;
      }
      from = i + 1;
    }
    throw OUTSIDE;
  }
}

/** The escapes of JSON, which YAML's double-quoted scalars share (YAML's others are left to the general parsers). */
const ESCAPES: Record<number, string> = { 34: '"', 92: '\\', 47: '/', 98: '\b', 102: '\f', 110: '\n', 114: '\r', 116: '\t' };

/** [A-Za-z_$]: how a simple key starts (not a digit: `1e3:` would be the number 1000). */
function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** [A-Za-z0-9_$./-] */
function isKeyPart(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 47;
}

/** A key the core schema reads as this very string (not null or a boolean), and an ordinary property. */
function isPlainKey(key: string): boolean {
  return key !== '__proto__' && !isSpecialWord(key);
}

/** null, true or false in one of the core schema's spellings (checked by hand: it runs for every key and word). */
function isSpecialWord(s: string): boolean {
  const c = s.charCodeAt(0);
  const mayBe = c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70;
  return mayBe && s.length <= 5 && SPECIAL_WORD.test(s);
}

/** Indicator characters cannot start a plain scalar; a sign or a dot may, and resolvePlain judges it. */
function isPlainStart(c: number): boolean {
  switch (c) {
    case 44: case 91: case 93: case 123: case 125: // , [ ] { }
    case 35: case 38: case 42: case 33: case 124: case 62: // # & * ! | >
    case 39: case 34: case 37: case 64: case 96: // ' " % @ `
    case 63: case 58: // ? :
      return false;
    default:
      return true;
  }
}

const SPECIAL_WORD = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** A decimal number in the form JSON writes it, small enough to read exactly as the core schema does. */
const NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?(?:[eE][-+]?[0-9]{1,3})?$/;

/** A plain scalar as the core schema resolves it; anything number-like in another form is left to the parsers. */
function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46) {
    // "-" followed by a space is a sequence item, not a scalar; "-x", "+1", ".5", "1_000", "0x1f": the parsers'.
    if (!NUMBER.test(s)) throw OUTSIDE;
    return Number(s);
  }
  if (isSpecialWord(s)) return c === 116 || c === 84 ? true : c === 102 || c === 70 ? false : null;
  return s;
}
