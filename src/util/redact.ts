// Redaction of secrets (API keys, organization ids, ...) from headers, text and structured values,
// before anything is written to a report or a cassette.

export const REDACTED = 'REDACTED';
const CYCLE = Symbol('cycle');
const MIN_SECRET_LENGTH = 4;
/** Deeper than any report or request body the harness builds; beyond it shared() takes its cycle-safe path. */
const MAX_CLEAN_DEPTH = 200;
/**
 * Values a read-only walk visits at most (a report of 10,000 results is ~250,000): a value that shares parts many
 * times over, which the walk would visit again and again, takes shared()'s path, which visits each part once.
 */
const MAX_CLEAN_VISITS = 2_000_000;
/** The end a text cut short carries (responseExcerpt, serverMessage, …): what precedes it may be part of a secret. */
const CUT = '…';
/** The cut's UTF-8 bytes, one Latin-1 character each: a text with a cut is walked (the secret's start before it). */
const CUT_AS_LATIN1 = Buffer.from(CUT, 'utf8').toString('latin1');
/**
 * The longest start of a secret a cut text may show unredacted: 8 characters, as much as a masked key shows
 * anyway (`sk-abcd…`); a longer start before a cut is redacted.
 */
const MAX_SHOWN_PREFIX = 8;

export interface RedactorOptions {
  /** Header names whose values are always secret (case-insensitive), e.g. authorization, service-organization. */
  secretHeaders: readonly string[];
  /** Secret values (API keys etc.); empty and very short (< 4 chars) values are ignored. */
  secretValues: readonly string[];
}

export class Redactor {

  readonly #secretHeaders: ReadonlySet<string>;
  /** Secrets and their URL-encoded forms, longest first. */
  readonly #secrets: readonly string[];
  /**
   * Each secret as a JSON encoder may escape it in a body the target wrote: any character as \uXXXX (hex of
   * either case), `/` as `\/` (PHP's json_encode). Tried only on text holding a backslash.
   */
  readonly #escaped: readonly RegExp[];

  /** Header names arrive lower-cased: the secrets as they would read there. */
  get #names(): Redactor {
    return (this.#namesRedactor ??= new Redactor({ secretHeaders: [], secretValues: this.#given.map((v) => v.toLowerCase()) }));
  }
  #namesRedactor: Redactor | undefined;
  readonly #given: readonly string[];

  constructor(opts: RedactorOptions) {
    this.#given = opts.secretValues.filter((v) => typeof v === 'string');
    // `authorization` is always secret, whatever the profile lists.
    this.#secretHeaders = new Set(['authorization', 'proxy-authorization', ...opts.secretHeaders.map((h) => h.toLowerCase())]);
    const secrets = new Set<string>();
    for (const v of opts.secretValues) {
      if (typeof v !== 'string' || v.length < MIN_SECRET_LENGTH) continue;
      secrets.add(v);
      const encoded = encodeURIComponent(v);
      if (encoded !== v) secrets.add(encoded);
      for (const form of base64Forms(v)) secrets.add(form);
    }
    this.#secrets = [...secrets].sort((a, b) => b.length - a.length);
    this.#escaped = this.#secrets.map(escapedForm);
    this.#jsonSearchable = this.#secrets.every((secret) => JSON.stringify(secret) === `"${secret}"`) ? this.#secrets.map((secret) => Buffer.from(secret, 'utf8').toString('latin1')) : null;
  }

  /**
   * The secrets as UTF-8 bytes, when each one appears in JSON text as it is (nothing in it is escaped); each byte a
   * Latin-1 character, so that a body read the same way is searched by the string search, one byte per character.
   */
  readonly #jsonSearchable: readonly string[] | null;

  /**
   * Whether `json` — the JSON text of a value — shows that no string in that value holds a secret: then
   * shared(value) is the value itself, and need not walk it. False when unsure: a secret JSON would escape, a text
   * with escapes in it (\u0073k-… decodes to a secret its bytes do not show), or one with a cut (`…`), which the
   * start of a secret may precede.
   */
  absentFromJson(json: Uint8Array): boolean {
    const secrets = this.#jsonSearchable;
    if (secrets === null) return false;
    // Byte for byte as Latin-1 text: one copy, then the string search (a request body per request sent; searching
    // the bytes themselves cost a call into C++ per secret).
    const text = Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('latin1');
    if (text.includes('\\') || text.includes(CUT_AS_LATIN1)) return false;
    for (let i = 0; i < secrets.length; i++) if (text.includes(secrets[i]!)) return false;
    return true;
  }

  /** Lower-cased names; secret headers → REDACTED (`Bearer REDACTED` for bearer auth); other values pass through text(). */
  headers(h: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of Object.keys(h)) {
      const lower = name.toLowerCase();
      const value = String(h[name]);
      if (this.#secretHeaders.has(lower)) {
        const m = lower === 'authorization' ? /^(bearer)\s+\S/i.exec(value) : null;
        out[lower] = m ? `${m[1]} ${REDACTED}` : REDACTED;
      } else {
        // A name too: a target may echo the key in one (`x-<key>: 1`), which HTTP lower-cases.
        out[this.#names.text(lower)] = this.text(value);
      }
    }
    return out;
  }

  /** Every occurrence of a secret value → REDACTED (overlapping occurrences are redacted as one run). */
  text(s: string): string {
    const secrets = this.#secrets;
    if (secrets.length === 0 || !this.#contains(s)) return s;
    let out = s;
    for (let pass = 0; pass < 3; pass++) {
      const next = this.#redactOnce(out);
      if (next === out) return out;
      out = next;
    }
    // Pathological secrets (e.g. a substring of the marker itself): never let one survive.
    return this.#contains(out) ? (this.#contains(REDACTED) ? '' : REDACTED) : out;
  }

  /** Deep copy with every string (values and object keys) passed through text(). */
  value<T>(v: T): T {
    if (this.#secrets.length === 0) return structuredCopy(v, new Map()) as T;
    return this.#value(v, new Map()) as T;
  }

  /**
   * Like value(), but plain objects and arrays are copied only where something in them changed: a report of
   * thousands of results is not duplicated to redact the few strings a target echoed. The result may share
   * parts with the input (treat both as read-only); a cycle, or anything but plain objects and arrays, is
   * deep-copied as value() does.
   */
  shared<T>(v: T): T {
    // Most values hold no secret at all (a report of thousands of results): a walk that only reads, without the
    // bookkeeping of a copy, says so and the value is returned as it is.
    if (this.#clean(v, 0, { left: MAX_CLEAN_VISITS })) return v;
    try {
      return this.#shared(v, new Map(), new Set()) as T;
    } catch (e) {
      if (e === CYCLE) return this.value(v);
      throw e;
    }
  }

  /**
   * Whether no string of `v` (values and keys), a tree of plain objects and arrays, holds a secret: then shared(v)
   * is `v`. False when unsure: anything but plain objects and arrays (shared() copies those), a tree deeper than
   * MAX_CLEAN_DEPTH (perhaps a cycle, which shared() copies as value() does), or more than MAX_CLEAN_VISITS objects.
   */
  #clean(v: unknown, depth: number, budget: { left: number }): boolean {
    if (typeof v === 'string') return !this.#contains(v);
    if (v === null || typeof v !== 'object') return true;
    if (depth > MAX_CLEAN_DEPTH || --budget.left < 0) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!this.#clean(v[i], depth + 1, budget)) return false;
      return true;
    }
    const proto = Object.getPrototypeOf(v) as object | null;
    if (proto !== Object.prototype && proto !== null) return false;
    // for-in, not Object.keys: no array per object (a plain object's inherited keys are Object.prototype's, none).
    for (const key in v) {
      if (this.#contains(key) || !this.#clean((v as Record<string, unknown>)[key], depth + 1, budget)) return false;
    }
    return true;
  }

  #shared(v: unknown, seen: Map<object, unknown>, open: Set<object>): unknown {
    if (typeof v === 'string') return this.text(v);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    if (open.has(v)) throw CYCLE;
    const proto = Object.getPrototypeOf(v) as object | null;
    if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) {
      const copy = this.value(v);
      seen.set(v, copy);
      return copy;
    }
    open.add(v);
    let out: unknown[] | Record<string, unknown> | undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = this.#shared(v[i], seen, open);
        if (out === undefined && x !== v[i]) out = v.slice(0, i);
        if (out !== undefined) (out as unknown[]).push(x);
      }
    } else {
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const original = (v as Record<string, unknown>)[key];
        const name = this.text(key);
        const x = this.#shared(original, seen, open);
        if (out === undefined && (x !== original || name !== key)) {
          out = Object.create(proto) as Record<string, unknown>;
          for (const earlier of keys.slice(0, i)) out[earlier] = (v as Record<string, unknown>)[earlier];
        }
        if (out !== undefined) (out as Record<string, unknown>)[name] = x;
      }
    }
    open.delete(v);
    const result = out ?? v;
    seen.set(v, result);
    return result;
  }

  #value(v: unknown, seen: Map<object, unknown>): unknown {
    if (typeof v === 'string') return this.text(v);
    if (v === null || typeof v !== 'object') return v;
    const known = seen.get(v);
    if (known !== undefined) return known;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const item of v) out.push(this.#value(item, seen));
      return out;
    }
    if (ArrayBuffer.isView(v) || v instanceof Date || v instanceof RegExp) return structuredCopy(v, seen);
    if (v instanceof Map) {
      const out = new Map();
      seen.set(v, out);
      for (const [k, x] of v) out.set(this.#value(k, seen), this.#value(x, seen));
      return out;
    }
    if (v instanceof Set) {
      const out = new Set();
      seen.set(v, out);
      for (const x of v) out.add(this.#value(x, seen));
      return out;
    }
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(v) as object | null);
    seen.set(v, out);
    for (const key of Object.keys(v)) {
      out[this.text(key)] = this.#value((v as Record<string, unknown>)[key], seen);
    }
    return out;
  }

  #contains(s: string): boolean {
    if (s.length < MIN_SECRET_LENGTH) return false;
    // An indexed loop: this runs for every string of a report, most of it before V8 optimises anything.
    const secrets = this.#secrets;
    for (let i = 0; i < secrets.length; i++) if (s.includes(secrets[i]!)) return true;
    if (s.includes('\\')) for (const re of this.#escaped) { re.lastIndex = 0; if (re.test(s)) return true; }
    return s.includes(CUT) && this.#cutRanges(s).length > 0;
  }

  /** [start, end) of each start of a secret longer than MAX_SHOWN_PREFIX that a cut (`…`) follows. */
  #cutRanges(s: string): number[] {
    const ranges: number[] = [];
    for (let cut = s.indexOf(CUT); cut !== -1; cut = s.indexOf(CUT, cut + 1)) {
      for (const secret of this.#secrets) {
        const shown = Math.min(MAX_SHOWN_PREFIX, secret.length - 1);
        for (let k = Math.min(secret.length - 1, cut); k > shown; k--) {
          if (s.startsWith(secret.slice(0, k), cut - k)) { ranges.push(cut - k, cut); break; }
        }
      }
    }
    return ranges;
  }

  #redactOnce(s: string): string {
    // Collect [start, end) ranges of every occurrence of every secret, overlapping ones included.
    let ranges: number[] | null = null;
    for (const secret of this.#secrets) {
      let at = s.indexOf(secret);
      while (at !== -1) {
        (ranges ??= []).push(at, at + secret.length);
        at = s.indexOf(secret, at + 1);
      }
    }
    if (s.includes('\\')) {
      for (const re of this.#escaped) {
        re.lastIndex = 0;
        for (let m = re.exec(s); m !== null; m = re.exec(s)) (ranges ??= []).push(m.index, m.index + m[0].length);
      }
    }
    if (s.includes(CUT)) {
      const cut = this.#cutRanges(s);
      if (cut.length > 0) (ranges ??= []).push(...cut);
    }
    if (ranges === null) return s;
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
    pairs.sort((a, b) => a[0] - b[0]);
    let out = '';
    let pos = 0;
    let runStart = -1;
    let runEnd = -1;
    for (const [start, end] of pairs) {
      if (runStart !== -1 && start <= runEnd) {
        if (end > runEnd) runEnd = end;
        continue;
      }
      if (runStart !== -1) {
        out += s.slice(pos, runStart) + REDACTED;
        pos = runEnd;
      }
      runStart = start;
      runEnd = end;
    }
    out += s.slice(pos, runStart) + REDACTED + s.slice(runEnd);
    return out;
  }
}

/** The shortest base64 form of a secret that is searched for: shorter ones could match unrelated text. */
const MIN_BASE64_FORM = 16;

/**
 * What a secret looks like inside base64 text (a target that echoes `Basic base64(user:key)`, or a token that
 * embeds the key): base64 groups 3 bytes, so the secret's characters depend on where it starts modulo 3. For each
 * of the three, the characters that only the secret's bytes decide — standard and URL-safe alphabets.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const middle = text.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    if (middle.length < MIN_BASE64_FORM) continue;
    forms.push(middle);
    const urlSafe = middle.replace(/\+/g, '-').replace(/\//g, '_');
    if (urlSafe !== middle) forms.push(urlSafe);
  }
  return forms;
}

/** A secret with each character written as itself or as a JSON escape (\uXXXX, and \/ for a slash). */
function escapedForm(secret: string): RegExp {
  const hexClass = (d: string) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d);
  const parts = [...secret].map((ch) => {
    const code = ch.codePointAt(0)!;
    const literal = ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    if (code > 0xffff) return literal;
    const unicode = `\\\\u${[...code.toString(16).padStart(4, '0')].map(hexClass).join('')}`;
    return `(?:${literal}|${unicode}${ch === '/' ? '|\\\\/' : ''})`;
  });
  return new RegExp(parts.join(''), 'g');
}

/** Deep copy without redaction (used when there are no secrets: callers still get a copy). */
function structuredCopy(v: unknown, seen: Map<object, unknown>): unknown {
  if (v === null || typeof v !== 'object') return v;
  const known = seen.get(v);
  if (known !== undefined) return known;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const item of v) out.push(structuredCopy(item, seen));
    return out;
  }
  if (ArrayBuffer.isView(v)) {
    const out = (v as unknown as { slice(): unknown }).slice?.() ?? v;
    seen.set(v, out);
    return out;
  }
  if (v instanceof Date) return new Date(v.getTime());
  if (v instanceof RegExp) return new RegExp(v.source, v.flags);
  if (v instanceof Map) {
    const out = new Map();
    seen.set(v, out);
    for (const [k, x] of v) out.set(structuredCopy(k, seen), structuredCopy(x, seen));
    return out;
  }
  if (v instanceof Set) {
    const out = new Set();
    seen.set(v, out);
    for (const x of v) out.add(structuredCopy(x, seen));
    return out;
  }
  const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(v) as object | null);
  seen.set(v, out);
  for (const key of Object.keys(v)) out[key] = structuredCopy((v as Record<string, unknown>)[key], seen);
  return out;
}

/** For what was redacted before it came here (shards' reports, exchanges redacted as they were judged). */
export const NO_SECRETS = new Redactor({ secretHeaders: [], secretValues: [] });
