// Cassettes: one nock.back fixture file per suite (`DIR/<suite>.json`), an array of nock definitions
// `{scope, method, path, body, status, response, rawHeaders, responseIsBinary}` that `nock.back` and
// `nock.define(nock.loadDefs(file))` load as they are. The harness's extras ride along as properties
// nock ignores: `conformance` (run metadata, first definition only), `multipart` (a boundary-free
// summary of a multipart request body), `error` / `streamEnd` (how a live exchange failed).

import { pickHeaders } from './match-headers.ts';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { zlibModule } from '../util/lazy-modules.ts';
import type { Redactor } from '../util/redact.ts';
import type { Exchange, MultipartFileSummary, OutgoingRequest, RequestBodySummary, StreamEnd, TransportError } from './types.ts';
import { editDistance } from '../util/nearest.ts';
import { escapeToken } from '../util/pointer.ts';

export const CASSETTE_FORMAT = 1;

export interface CassetteMeta {
  format: number;
  suite: string;
  tool?: string;
  spec?: string;
  /** "reference" for the embedded reference server, else the base URL. */
  target?: string;
  /** Base URL the requests went to (replay sends to it, so template values such as base_url are unchanged). */
  base_url: string;
  plugin_url?: string;
  /** Older recordings carry it per cassette; the time is now in the folder's manifest.json only. */
  recorded_at?: string;
  /** A recording of your own (the proxy's, useCassettes'): after how many days it is to be recorded again. */
  expires_after_days?: number;
  seed: number;
  /** Which keys the run had (never their values) and the organization ids it used. */
  credentials: { api_key: boolean; member_api_key: boolean; organization?: string; other_organization?: string };
  interactions: number;
}

export interface MultipartCassetteSummary {
  fields: Record<string, string>;
  files: Array<Pick<MultipartFileSummary, 'field' | 'filename' | 'contentType' | 'size' | 'sha256'> & { fixture?: string; text?: string }>;
}

export interface CassetteDefinition {
  scope: string;
  method: string;
  path: string;
  /** JSON requests: the JSON value; text requests: the text; absent for no body and for multipart. */
  body?: unknown;
  status: number;
  /** Object (JSON that re-serialises byte-exactly), text (e.g. SSE, verbatim), or hex when responseIsBinary. */
  response?: unknown;
  rawHeaders: string[];
  responseIsBinary: boolean;
  multipart?: MultipartCassetteSummary;
  error?: TransportError;
  streamEnd?: { end: StreamEnd; detail?: string; openAfterDone?: boolean };
  /** Which credentials the request carried, by role — never their values (a differential run sends the same roles). */
  sent?: SentAs;
  conformance?: CassetteMeta;
  /**
   * A stream recorded by the proxy: its chunks as they arrived, each `[ms after the previous one, bytes]`, over the
   * stored body (the chunk boundaries and timing a replay gives back).
   */
  chunks?: Array<[number, number]>;
  /** The passive judge's verdict on this exchange (the proxy's recordings): its status and the rules it broke. */
  verdict?: ExchangeVerdict;
  /** Request headers the recording was told to match on (match-headers.ts): lower-case names, never a secret. */
  reqheaders?: Record<string, string>;
}

export interface ExchangeVerdict {
  status: 'pass' | 'fail' | 'warn' | 'unjudged';
  broken: Array<{ check: string; requirements: string[]; severity: string; message: string }>;
}

export interface SentAs {
  /** key: the run's key; member-key: its member key; other-key: a key the run made up (invalid, altered); none. */
  auth: 'key' | 'member-key' | 'other-key' | 'none';
  /** The Service-Organization header: the run's organization, its other one, another value, or none. */
  organization?: 'default' | 'other' | 'another';
}

/** The roles of the credentials a request carried, from its headers and the run's credentials. */
export function sentAs(headers: Record<string, string>, credentials: { apiKey?: string; memberApiKey?: string; organization?: string; otherOrganization?: string }, organizationHeader = 'service-organization'): SentAs {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const bearer = /^Bearer\s+(.*)$/i.exec(lower.authorization ?? '')?.[1]?.trim();
  const auth = lower.authorization === undefined ? 'none' : bearer === credentials.apiKey ? 'key' : bearer === credentials.memberApiKey ? 'member-key' : 'other-key';
  const org = lower[organizationHeader];
  const organization = org === undefined ? undefined : org === credentials.organization ? 'default' : org === credentials.otherOrganization ? 'other' : 'another';
  return { auth, ...(organization ? { organization } : {}) };
}

/** `DIR/<suite>.json`; suite names are kept readable, anything outside [A-Za-z0-9._-] becomes "_". */
export function cassettePath(dir: string, suite: string): string {
  return join(dir, `${suite.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

export function readCassette(path: string): CassetteDefinition[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    if (e instanceof SyntaxError) throw new CassetteError(`${path} is not valid JSON (${e.message})`, 'invalid');
    throw e;
  }
  if (!Array.isArray(parsed)) throw new CassetteError(`${path} is not a cassette (a JSON array of nock definitions)`, 'not-a-cassette');
  // nock's own recorder writes rawHeaders as an object (name → value, or values): the same headers, in pairs here.
  for (const d of parsed) {
    const headers = d !== null && typeof d === 'object' ? (d as Record<string, unknown>).rawHeaders : undefined;
    if (headers !== null && typeof headers === 'object' && !Array.isArray(headers)) {
      (d as Record<string, unknown>).rawHeaders = Object.entries(headers as Record<string, unknown>).flatMap(([name, v]) => (Array.isArray(v) ? v.flatMap((x) => [name, x]) : [name, v]));
    }
  }
  // A cassette edited by hand: the entry and the field at fault, not a TypeError from deep inside nock.
  parsed.forEach((d, i) => {
    const why = definitionProblem(d);
    if (why) throw new CassetteError(`${path}: entry ${i}${describeEntry(d)}: ${why}`, 'invalid');
  });
  return parsed as CassetteDefinition[];
}

/** A cassette that cannot be replayed as it is; its message names the file (and the entry) and what is wrong. */
export class CassetteError extends Error {
  /** `not-a-cassette`: other JSON (a manifest, verdicts); `invalid`: a cassette that is broken. */
  constructor(message: string, readonly kind: 'not-a-cassette' | 'invalid') {
    super(message);
  }
}

function describeEntry(d: unknown): string {
  if (d === null || typeof d !== 'object') return '';
  const { method, path } = d as Record<string, unknown>;
  return typeof method === 'string' && typeof path === 'string' ? ` (${method} ${path})` : '';
}

function definitionProblem(d: unknown): string | undefined {
  if (d === null || typeof d !== 'object' || Array.isArray(d)) return 'is not an object';
  const o = d as Record<string, unknown>;
  for (const field of ['scope', 'method', 'path'] as const) if (typeof o[field] !== 'string') return `${field} must be a string (got ${JSON.stringify(o[field]) ?? 'nothing'})`;
  // Status 0 is a request recorded without an answer (a timeout, a reset): replayed as that same error.
  const noAnswer = o.status === 0 && o.error !== null && typeof o.error === 'object' && typeof (o.error as Record<string, unknown>).message === 'string';
  if (!noAnswer && (!Number.isInteger(o.status) || (o.status as number) < 100 || (o.status as number) > 599)) return `status must be an HTTP status, an integer from 100 to 599, or 0 with the recorded error (got ${JSON.stringify(o.status) ?? 'nothing'})`;
  if (o.rawHeaders !== undefined && (!Array.isArray(o.rawHeaders) || o.rawHeaders.length % 2 !== 0 || o.rawHeaders.some((h) => typeof h !== 'string'))) return 'rawHeaders must be a list of header names and values (strings, in pairs)';
  if (o.responseIsBinary !== undefined && typeof o.responseIsBinary !== 'boolean') return 'responseIsBinary must be true or false';
  if (o.responseIsBinary === true && (typeof o.response !== 'string' || !/^(?:[0-9a-f]{2})*$/i.test(o.response))) return 'a binary response must be a string of hex digits';
  return undefined;
}

export async function writeCassette(path: string, defs: CassetteDefinition[], transform: (text: string) => string = (t) => t): Promise<void> {
  await writeFileAtomic(path, transform(JSON.stringify(defs, null, 2) + '\n'));
}

export const MANIFEST_FILE = 'manifest.json';

/** What a cassette folder holds and how it was recorded; a replay reuses these settings. */
export interface CassetteManifest {
  format: number;
  tool: string;
  spec: string;
  seed: number;
  fuzz_runs: number;
  /** Every suite the folder holds, sorted. */
  suites: string[];
  /** "reference" (with its faults) or the redacted base URL. */
  target: string;
  faults?: string[];
  /** The model per role the requests asked for (recordings made before this field have none). */
  models?: Record<string, string>;
  /** The cases it selected within its suites (--grep, --tag), when it did: a replay selects them too. */
  filter?: { grep?: string; tags?: string[] };
  recorded_at: string;
}

export function readManifest(dir: string): CassetteManifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  let value: CassetteManifest;
  // A broken manifest is the recording's problem, not the harness's: the error says what to do about it.
  const broken = (message: string) => Object.assign(new Error(message), { hint: `restore ${MANIFEST_FILE} (from version control), or record the folder again (--record --cassettes ${dir})` });
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as CassetteManifest;
  } catch (e) {
    throw broken(`${path} is not valid JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || typeof value.seed !== 'number' || !Array.isArray(value.suites)) throw broken(`${path}: not a cassette manifest`);
  return value;
}

/** Whether DIR's manifest, if it has one, can be read. */
export function manifestReadable(dir: string): boolean {
  try {
    readManifest(dir);
    return true;
  } catch {
    return false;
  }
}

export async function writeManifest(dir: string, manifest: CassetteManifest): Promise<void> {
  await writeFileAtomic(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
}

/** A path that is not a folder holds no cassette (a run that writes there says it cannot). */
function isFolder(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory();
}

/** The suites a cassette folder holds: one `<suite>.json` array of definitions each (an empty array counts). */
export function recordedSuites(dir: string): Set<string> {
  const suites = new Set<string>();
  if (!isFolder(dir)) return suites;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json') || name.startsWith('.') || name === MANIFEST_FILE) continue;
    try {
      readCassette(join(dir, name));
      suites.add(name.slice(0, -'.json'.length));
    } catch {
      // not a cassette (e.g. verdicts.json)
    }
  }
  return suites;
}

/** Why a suite of a folder cannot be replayed as recorded. */
export interface CassetteDefect {
  suite: string;
  file: string;
  kind: 'missing' | 'unreadable' | 'unlisted';
  /** What is wrong, naming the file. */
  message: string;
}

export interface CassetteFolder {
  /** What the folder holds: the suites its manifest lists, and every suite it has a cassette file of. */
  suites: Set<string>;
  /** Per suite that cannot be replayed as recorded, why; also per JSON file that is no cassette (verdicts.json). */
  defects: Map<string, CassetteDefect>;
  manifest?: CassetteManifest;
}

/**
 * A folder's suites, checked against its manifest: a suite the manifest lists whose cassette is missing or
 * unreadable, or a cassette the manifest does not list (another run's: a replay would send it requests made
 * from this folder's seed), is a defect. A folder without a manifest (an older recording, an imported HAR)
 * holds the cassettes it has.
 */
export function readCassetteFolder(dir: string): CassetteFolder {
  const manifest = readManifest(dir);
  const files = cassetteFiles(dir);
  const cassettes = [...files].filter(([, why]) => why === undefined).map(([suite]) => suite);
  const listed = new Set(manifest?.suites ?? cassettes);
  const defects = new Map<string, CassetteDefect>();
  const defect = (suite: string, kind: CassetteDefect['kind'], message: string) => defects.set(suite, { suite, file: cassettePath(dir, suite), kind, message });
  for (const suite of listed) {
    if (!files.has(suite)) defect(suite, 'missing', `${cassettePath(dir, suite)} is missing (${MANIFEST_FILE} lists suite ${suite})`);
  }
  for (const [suite, why] of files) {
    if (why !== undefined) defect(suite, 'unreadable', why);
    else if (!listed.has(suite)) defect(suite, 'unlisted', `${cassettePath(dir, suite)} is not listed in ${MANIFEST_FILE}: this folder's recording (seed ${manifest?.seed}) did not record it`);
  }
  return { suites: new Set([...listed, ...cassettes]), defects, ...(manifest ? { manifest } : {}) };
}

/** Every `<suite>.json` of DIR but the manifest, with why it is not a cassette (undefined when it is one). */
function cassetteFiles(dir: string): Map<string, string | undefined> {
  const files = new Map<string, string | undefined>();
  if (!isFolder(dir)) return files;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json') || name.startsWith('.') || name === MANIFEST_FILE) continue;
    files.set(name.slice(0, -'.json'.length), unreadable(join(dir, name)));
  }
  return files;
}

function unreadable(path: string): string | undefined {
  try {
    readCassette(path);
    return undefined;
  } catch (e) {
    return e instanceof CassetteError ? e.message : `${path} cannot be read (${(e as Error).message})`;
  }
}

/** The metadata of the first cassette in DIR that has some (suites share the run's metadata), if any. */
export function readCassetteMeta(dir: string): CassetteMeta | undefined {
  if (!isFolder(dir)) return undefined;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    try {
      const defs = readCassette(join(dir, name));
      const meta = defs[0]?.conformance;
      if (meta !== undefined && typeof meta.seed === 'number') return meta;
    } catch {
      // not a cassette (e.g. verdicts.json)
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Building a definition from a recorded exchange.

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function pathOf(url: string): string {
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

/** Body bytes → `response` + `responseIsBinary`, chosen so that nock replies with exactly these bytes. */
export function storedResponse(raw: Buffer, encoded: boolean, hasContentType: boolean): { response: unknown; responseIsBinary: boolean } {
  if (raw.length === 0) return { response: '', responseIsBinary: false };
  if (!encoded) {
    let text: string | undefined;
    try {
      text = utf8Strict.decode(raw);
    } catch {
      text = undefined;
    }
    if (text !== undefined && !text.startsWith('\uFEFF')) {
      let parsed: unknown;
      let isJson = true;
      try {
        // Nesting beyond what JSON.stringify can walk back is stored as text (a hostile 100,000-deep array).
        if (jsonDepth(text) > MAX_STORED_DEPTH) throw new Error('too deep');
        parsed = JSON.parse(text);
      } catch {
        isJson = false;
      }
      // nock.define JSON-parses string responses and re-serialises objects: keep JSON as an object only
      // when that round trip is exact, and text only when it does not parse as JSON at all.
      if (!isJson) return { response: text, responseIsBinary: false };
      if (hasContentType && parsed !== null && typeof parsed === 'object' && JSON.stringify(parsed) === text) return { response: parsed, responseIsBinary: false };
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
    Object.assign(def, storedResponse(raw, headers['content-encoding'] !== undefined, headers['content-type'] !== undefined));
  }
  if (exchange.error !== undefined) def.error = { kind: exchange.error.kind, message: redactor.text(exchange.error.message) };
  if (sent !== undefined) def.sent = sent;
  if (exchange.stream !== undefined && ((exchange.stream.end !== 'done' && exchange.stream.end !== 'eof') || exchange.stream.openAfterDone)) {
    def.streamEnd = { end: exchange.stream.end, ...(exchange.stream.detail !== undefined ? { detail: redactor.text(exchange.stream.detail) } : {}), ...(exchange.stream.openAfterDone ? { openAfterDone: true } : {}) };
  }
  return def;
}

// ---------------------------------------------------------------------------------------------
// Matching: method, path and body, with volatile parts normalised.

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const VOLATILE_KEY = /^(timestamp|time|date|nonce|request_id|idempotency_key|created|created_at|updated_at|expires_at|sent_at)$/i;

/** Volatile values replaced by placeholders; object keys sorted, so key order never matters. */
export function normalise(value: unknown, key?: string): unknown {
  if (key !== undefined && VOLATILE_KEY.test(key) && (typeof value === 'string' || typeof value === 'number')) return '<volatile>';
  if (typeof value === 'string') return ISO_TIME.test(value) ? '<timestamp>' : value;
  if (Array.isArray(value)) return value.map((v) => normalise(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = normalise((value as Record<string, unknown>)[k], k);
    return out;
  }
  return value;
}

function normalisePath(path: string): string {
  const q = path.indexOf('?');
  if (q === -1) return path;
  const params = new URLSearchParams(path.slice(q + 1));
  const pairs = [...params].map(([k, v]) => [k, VOLATILE_KEY.test(k) ? '<volatile>' : ISO_TIME.test(v) ? '<timestamp>' : v] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${path.slice(0, q)}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

export interface MatchTarget {
  method: string;
  path: string;
  /** Normalised body (JSON value, text, multipart summary or undefined). */
  body: unknown;
  /** The allow-listed request headers it carries (match-headers.ts); absent when none is matched on. */
  headers?: Record<string, string>;
}

/** A recording as it is matched; `matchHeaders`: the allow-list of the replay (default: no header). */
export function targetOfDefinition(def: CassetteDefinition, matchHeaders: readonly string[] = []): MatchTarget {
  const body = def.multipart !== undefined ? { multipart: stripFixture(def.multipart) } : def.body;
  const headers = pickHeaders(def.reqheaders ?? {}, matchHeaders);
  return { method: def.method.toUpperCase(), path: normalisePath(def.path), body: body === undefined ? undefined : normalise(body), ...(headers ? { headers } : {}) };
}

/** A request being sent, as it is matched: `summary` is its redacted body summary (Exchange.request.body). */
export function targetOfRequest(method: string, url: string, summary: RequestBodySummary, redactor: Redactor): MatchTarget {
  const stored = storedBody(summary);
  const body = stored.multipart !== undefined ? { multipart: stripFixture(stored.multipart) } : stored.body;
  return { method: method.toUpperCase(), path: normalisePath(redactor.text(pathOf(url))), body: body === undefined ? undefined : normalise(body) };
}

/** The same target, matched on the allow-listed headers the request carries too. */
export function withHeaders(target: MatchTarget, headers: Readonly<Record<string, string | undefined>>, matchHeaders: readonly string[]): MatchTarget {
  const picked = pickHeaders(headers, matchHeaders);
  return picked ? { ...target, headers: picked } : target;
}

function stripFixture(m: MultipartCassetteSummary): unknown {
  // Matched by field values and file name/type/size/sha256 (the boundary is never part of it).
  return { fields: m.fields, files: m.files.map(({ field, filename, contentType, size, sha256 }) => ({ field, filename, contentType, size, sha256 })) };
}

export function keyOf(t: MatchTarget): string {
  return `${t.method} ${t.path} ${t.body === undefined ? '' : JSON.stringify(t.body)}${t.headers ? ` ${JSON.stringify(t.headers)}` : ''}`;
}

/** Human description of a request for messages, body cut at `max` characters. */
export function describeTarget(t: MatchTarget, max = 160): string {
  let body = t.body === undefined ? '' : ` ${JSON.stringify(t.body)}`;
  if (body.length > max) body = `${body.slice(0, max)}…`;
  const headers = t.headers ? ` [${Object.entries(t.headers).map(([k, v]) => `${k}: ${v}`).join(', ')}]` : '';
  return `${t.method} ${t.path}${body}${headers}`;
}

/** Leaf differences between two JSON values, as "pointer: recorded X, sent Y". */
function differences(recorded: unknown, sent: unknown, pointer: string, out: string[], limit: number): void {
  if (out.length >= limit) return;
  if (JSON.stringify(recorded) === JSON.stringify(sent)) return;
  const bothObjects = recorded !== null && sent !== null && typeof recorded === 'object' && typeof sent === 'object' && Array.isArray(recorded) === Array.isArray(sent);
  if (bothObjects) {
    const r = recorded as Record<string, unknown>;
    const s = sent as Record<string, unknown>;
    for (const k of new Set([...Object.keys(r), ...Object.keys(s)])) differences(r[k], s[k], `${pointer}/${escapeToken(k)}`, out, limit);
    return;
  }
  const show = (v: unknown): string => {
    const t = v === undefined ? '(absent)' : JSON.stringify(v);
    return t.length > 60 ? `${t.slice(0, 60)}…` : t;
  };
  out.push(`${pointer || '(body)'}: recorded ${show(recorded)}, sent ${show(sent)}`);
}

function countDifferences(a: unknown, b: unknown): number {
  const out: string[] = [];
  differences(a, b, '', out, 1000);
  return out.length;
}

/** The recorded request nearest to `sent`, and what differs. */
export function nearest(sent: MatchTarget, candidates: readonly MatchTarget[]): { index: number; why: string } | undefined {
  let best = -1;
  let bestScore = Infinity;
  for (const [i, c] of candidates.entries()) {
    const score = (c.method === sent.method ? 0 : 10_000) + editDistance(c.path, sent.path) * 100 + countDifferences(c.body, sent.body) + countDifferences(c.headers ?? {}, sent.headers ?? {});
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best === -1) return undefined;
  const c = candidates[best]!;
  const why: string[] = [];
  if (c.method !== sent.method) why.push(`method: recorded ${c.method}, sent ${sent.method}`);
  if (c.path !== sent.path) why.push(`path: recorded ${c.path}, sent ${sent.path}`);
  for (const name of new Set([...Object.keys(c.headers ?? {}), ...Object.keys(sent.headers ?? {})])) {
    const [r, g] = [c.headers?.[name], sent.headers?.[name]];
    if (r !== g) why.push(`header ${name}: recorded ${r ?? '(none)'}, sent ${g ?? '(none)'}`);
  }
  const diffs: string[] = [];
  differences(c.body, sent.body, '', diffs, 3);
  why.push(...diffs);
  return { index: best, why: why.join('; ') };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The answer body a definition replays, as bytes (hex when binary, the text, or the JSON object re-serialised as nock does). */
export function recordedBodyBytes(def: CassetteDefinition): Buffer {
  if (def.responseIsBinary && typeof def.response === 'string') return Buffer.from(def.response, 'hex');
  if (typeof def.response === 'string') return Buffer.from(def.response, 'utf8');
  return def.response === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(def.response), 'utf8');
}
