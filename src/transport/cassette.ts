// Cassettes: one nock.back fixture file per suite (`DIR/<suite>.json`), an array of nock definitions
// `{scope, method, path, body, status, response, rawHeaders, responseIsBinary}` that `nock.back` and
// `nock.define(nock.loadDefs(file))` load as they are. The harness's extras ride along as properties
// nock ignores: `conformance` (run metadata, first definition only), `multipart` (a boundary-free
// summary of a multipart request body), `error` / `streamEnd` (how a live exchange failed).
// This file is the format: its types, reading and writing a cassette and the folder's manifest. A folder's
// listing is cassette-folder.ts, building a definition cassette-record.ts, matching cassette-match.ts.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import type { MultipartFileSummary, StreamEnd, TransportError } from './types.ts';

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
  /** Read from a HAR file, which may leave a form's files out (browsers do): judged, never sent again. */
  fromHar?: true;
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

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The answer body a definition replays, as bytes (hex when binary, the text, or the JSON object re-serialised as nock does). */
export function recordedBodyBytes(def: CassetteDefinition): Buffer {
  if (def.responseIsBinary && typeof def.response === 'string') return Buffer.from(def.response, 'hex');
  if (typeof def.response === 'string') return Buffer.from(def.response, 'utf8');
  return def.response === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(def.response), 'utf8');
}
