// Building a cassette definition from a recorded exchange: the request body as stored (JSON, text or a multipart
// summary), the response bytes chosen so that nock replies with exactly them, secrets redacted.

import { startsWithUtf8Bom } from '../util/bom.ts';
import { zlibModule } from '../util/lazy-modules.ts';
import type { Redactor } from '../util/redact.ts';
import type { CassetteDefinition, MultipartCassetteSummary, SentAs } from './cassette.ts';
import { pickHeaders } from './match-headers.ts';
import type { Exchange, OutgoingRequest, RequestBodySummary } from './types.ts';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** A URL's path and query: what a recording stores and matches. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** The redacted request body as stored in `body` / `multipart`. */
export function storedBody(summary: RequestBodySummary): { body?: unknown; multipart?: MultipartCassetteSummary } {
  switch (summary.kind) {
    case 'json':
      return { body: summary.value };
    case 'text':
      return { body: summary.value };
    case 'multipart':
      return {
        multipart: {
          fields: summary.fields,
          files: summary.files.map((f) => ({
            field: f.field, filename: f.filename, contentType: f.contentType, size: f.size, sha256: f.sha256,
            ...(f.fixture !== undefined ? { fixture: f.fixture } : {}),
            ...(f.text !== undefined ? { text: f.text } : {}),
          })),
        },
      };
    default:
      return {};
  }
}

function encode(encoding: string, bytes: Buffer): Buffer | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlibModule().gzipSync(bytes);
    case 'deflate':
      return zlibModule().deflateSync(bytes);
    case 'br':
      return zlibModule().brotliCompressSync(bytes);
    default:
      return undefined;
  }
}

/** Decoding for redaction is bounded like the live read: a body that inflates past it is not stored as is. */
const DECODE_CAP = 64 * 1024 * 1024;

export function decodeBody(encoding: string, bytes: Buffer): Buffer | undefined {
  try {
    switch (encoding) {
      case 'gzip':
      case 'x-gzip':
        return zlibModule().gunzipSync(bytes, { maxOutputLength: DECODE_CAP });
      case 'deflate':
        return zlibModule().inflateSync(bytes, { maxOutputLength: DECODE_CAP });
      case 'br':
        return zlibModule().brotliDecompressSync(bytes, { maxOutputLength: DECODE_CAP });
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

const MAX_STORED_DEPTH = 512;

/** The deepest nesting of arrays and objects in a JSON text, without recursion (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) { if (++depth > max) max = depth; }
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/**
 * Whether a JSON text may nest deeper than `max`: only with more than `max` opening brackets. Counted with the
 * native indexOf, so a long flat answer (an embedding's 1536 numbers) is not walked character by character.
 */
function mayNestDeeperThan(text: string, max: number): boolean {
  let opening = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) if (++opening > max) return jsonDepth(text) > max;
  }
  return false;
}

/** A body's text and its JSON, as the judge already read them from exactly these bytes: not decoded and parsed again. */
export interface JsonReading {
  text: string;
  json: unknown;
}

/** The text and JSON of a body (the judge's, when it read them), or what it is when it is not JSON: text, or not even UTF-8. */
function readJson(raw: Buffer, known: JsonReading | undefined): JsonReading | { text: string | undefined } {
  const text = known?.text ?? strictText(raw);
  // Nesting beyond what JSON.stringify can walk back is stored as text (a hostile 100,000-deep array).
  if (text === undefined || mayNestDeeperThan(text, MAX_STORED_DEPTH)) return { text };
  if (known !== undefined) return known;
  try {
    return { text, json: JSON.parse(text) as unknown };
  } catch {
    return { text };
  }
}

function strictText(raw: Buffer): string | undefined {
  try {
    return utf8Strict.decode(raw);
  } catch {
    return undefined;
  }
}

/** A stored response object's JSON text, known to be exactly what JSON.stringify makes of it (it was checked). */
const exactTexts = new WeakMap<object, string>();

/**
 * What JSON.stringify would make of a stored response, when that is already known: a cassette writer splices it in
 * instead of serialising the answer a second time (an embedding's 1536 numbers are the costliest part of an entry).
 */
export function serialisedResponse(response: unknown): string | undefined {
  return response !== null && typeof response === 'object' ? exactTexts.get(response) : undefined;
}

/**
 * Body bytes → `response` + `responseIsBinary`, chosen so that nock replies with exactly these bytes. `known`: the
 * judge's reading of the same bytes, when it parsed them as JSON.
 */
export function storedResponse(raw: Buffer, encoded: boolean, hasContentType: boolean, known?: JsonReading): { response: unknown; responseIsBinary: boolean } {
  if (raw.length === 0) return { response: '', responseIsBinary: false };
  // The decoder drops a leading byte-order mark: such a body is kept as its bytes, or its replay would lose it.
  if (!encoded && !startsWithUtf8Bom(raw)) {
    const read = readJson(raw, known);
    // nock.define JSON-parses string responses and re-serialises objects: keep JSON as an object only
    // when that round trip is exact, and text only when it does not parse as JSON at all.
    if (read.text !== undefined && !('json' in read)) return { response: read.text, responseIsBinary: false };
    // JSON.stringify never writes a raw line break: a pretty-printed answer (as the real service sends) fails
    // the round trip without one.
    if ('json' in read && hasContentType && read.json !== null && typeof read.json === 'object' && !read.text.includes('\n') && JSON.stringify(read.json) === read.text) {
      exactTexts.set(read.json, read.text);
      return { response: read.json, responseIsBinary: false };
    }
  }
  return { response: raw.toString('hex'), responseIsBinary: true };
}

/** Secrets in the body (even inside a compressed body) are redacted; the body is re-encoded and content-length fixed. */
function redactBody(raw: Buffer, encoding: string | undefined, redactor: Redactor): { raw: Buffer; changed: boolean } {
  const plain = encoding === undefined ? raw : decodeBody(encoding, raw);
  // A compressed body that cannot be decoded within the cap could hide a key: it is not stored.
  if (plain === undefined) return encoding === undefined ? { raw, changed: false } : { raw: Buffer.alloc(0), changed: true };
  const text = plain.toString('utf8');
  const redacted = redactor.text(text);
  if (redacted === text) return { raw, changed: false };
  const out = Buffer.from(redacted, 'utf8');
  if (encoding === undefined) return { raw: out, changed: true };
  return { raw: encode(encoding, out) ?? out, changed: true };
}

/** A recording's definition, with the allow-listed request headers it will be matched on (`matchHeaders`). */
export function withRequestHeaders(def: CassetteDefinition, headers: Readonly<Record<string, string>>, matchHeaders: readonly string[]): CassetteDefinition {
  const picked = pickHeaders(headers, matchHeaders);
  return picked ? { ...def, reqheaders: picked } : def;
}

/**
 * The judge's reading of the body, when it read these very bytes (nothing redacted from them) as JSON. The stored
 * response is then the judge's own object, not a copy: checks only read an answer, and an object changed later
 * would no longer match the text serialisedResponse remembers for it.
 */
function judgedReading(response: NonNullable<Exchange['response']>, raw: Buffer): JsonReading | undefined {
  return response.bytes === raw && response.text !== undefined && response.json !== undefined ? { text: response.text, json: response.json } : undefined;
}

export function toDefinition(req: OutgoingRequest, exchange: Exchange, rawBody: Buffer | undefined, redactor: Redactor, sent?: SentAs): CassetteDefinition {
  const url = new URL(req.url);
  const def: CassetteDefinition = {
    scope: url.origin,
    method: req.method,
    path: redactor.text(pathOf(req.url)),
    ...storedBody(exchange.request.body),
    status: exchange.response?.status ?? 0,
    response: '',
    rawHeaders: [],
    responseIsBinary: false,
  };
  // Keep `body`/`multipart` before status for readability, as nock's recorder does.
  const response = exchange.response;
  if (response !== undefined) {
    const headers = redactor.headers(response.headers);
    let raw = rawBody ?? Buffer.alloc(0);
    if (rawBody === undefined && exchange.error === undefined) {
      // Longer than a recording keeps (an event stream over 16 MiB): stored as too large, which its replay reports.
      def.error = { kind: 'too-large', message: 'response longer than a recording keeps (16 MiB of an event stream); not recorded in full' };
    }
    if (exchange.error?.kind === 'too-large') {
      // The replay needs what the live run judged: the readable prefix, and the too-large error recorded below.
      raw = Buffer.from(response.bytes ?? Buffer.alloc(0));
      delete headers['content-encoding'];
      delete headers['content-length'];
    }
    const redacted = redactBody(raw, headers['content-encoding']?.trim().toLowerCase() || undefined, redactor);
    if (redacted.changed) {
      raw = redacted.raw;
      if (headers['content-length'] !== undefined) headers['content-length'] = String(raw.length);
    }
    for (const [name, value] of Object.entries(headers)) {
      // set-cookie is the one header undici keeps as an array; replaying it as one joined value gives the same Exchange.
      def.rawHeaders.push(name, value);
    }
    Object.assign(def, storedResponse(raw, headers['content-encoding'] !== undefined, headers['content-type'] !== undefined, judgedReading(response, raw)));
  }
  if (exchange.error !== undefined) def.error = { kind: exchange.error.kind, message: redactor.text(exchange.error.message) };
  if (sent !== undefined) def.sent = sent;
  if (exchange.stream !== undefined && ((exchange.stream.end !== 'done' && exchange.stream.end !== 'eof') || exchange.stream.openAfterDone)) {
    def.streamEnd = { end: exchange.stream.end, ...(exchange.stream.detail !== undefined ? { detail: redactor.text(exchange.stream.detail) } : {}), ...(exchange.stream.openAfterDone ? { openAfterDone: true } : {}) };
  }
  return def;
}
