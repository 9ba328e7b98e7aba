// HAR 1.2 (browsers, Schemathesis, Polly.js write it) → a cassette in this harness's format, so recordings made
// elsewhere can be diffed (conformance diff --against) and served to tests (useCassettes). Secrets never reach
// the cassette: request headers are not stored at all, and every credential the HAR carried (Authorization,
// api-key style headers, cookies) is redacted wherever it occurs in the answers.

import { isUtf8 } from 'node:buffer';
import { Redactor } from '../util/redact.ts';
import { CASSETTE_FORMAT, type CassetteDefinition, type CassetteMeta, type SentAs } from './cassette.ts';
import { storedResponse } from './cassette-record.ts';

interface HarHeader { name: string; value: string }
interface HarEntry {
  request: { method: string; url: string; headers?: HarHeader[]; postData?: { mimeType?: string; text?: string } };
  response: { status: number; headers?: HarHeader[]; content?: { mimeType?: string; text?: string; encoding?: string } };
}
interface Har { log: { entries: HarEntry[]; creator?: { name?: string; version?: string } } }

export class HarError extends Error {}

const SECRET_HEADER = /^(authorization|proxy-authorization|api-key|x-api-key|openai-api-key|cookie|set-cookie|service-organization|openai-organization)$/i;
/** Hop-by-hop and length headers: the stored body is what a replay serves, so its length is recomputed. */
const DROPPED = /^(connection|keep-alive|transfer-encoding|content-length|content-encoding)$/i;

export function parseHar(text: string, file: string): Har {
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) { throw new HarError(`${file}: not JSON (${(e as Error).message.split('\n')[0]})`); }
  const entries = (value as Har | undefined)?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError(`${file}: not a HAR file (no log.entries array)`);
  entries.forEach((e, i) => {
    if (typeof e?.request?.method !== 'string' || typeof e?.request?.url !== 'string' || typeof e?.response?.status !== 'number') throw new HarError(`${file}: log.entries[${i}] has no request method/url or response status`);
    if (!URL.canParse(e.request.url)) throw new HarError(`${file}: log.entries[${i}].request.url is not an absolute URL (${JSON.stringify(e.request.url.slice(0, 80))})`);
  });
  return value as Har;
}

/** The secrets a HAR carries: values of credential headers, and bearer tokens without their scheme. */
function secretsOf(har: Har): string[] {
  const out = new Set<string>();
  for (const e of har.log.entries) {
    for (const h of [...(e.request.headers ?? []), ...(e.response.headers ?? [])]) {
      if (!SECRET_HEADER.test(h.name) || !h.value) continue;
      out.add(h.value);
      const token = /^(?:Bearer|Basic)\s+(.+)$/i.exec(h.value)?.[1];
      if (token) out.add(token);
    }
  }
  return [...out].filter((s) => s.length >= 6);
}

/**
 * The credentials each entry carried, by role, as a recording keeps them (never their values): the key most
 * entries were sent with is the session's key; another one is a made-up key (a request about a wrong key, answered
 * 401), none is none. A diff then sends each with the same role, not every one with the diff's own key.
 */
function rolesOf(entries: readonly HarEntry[]): (e: HarEntry) => SentAs {
  const authOf = (e: HarEntry) => (e.request.headers ?? []).find((h) => /^(authorization|api-key|x-api-key)$/i.test(h.name))?.value;
  const uses = new Map<string, number>();
  for (const e of entries) { const a = authOf(e); if (a) uses.set(a, (uses.get(a) ?? 0) + 1); }
  const key = [...uses].sort((a, b) => b[1] - a[1])[0]?.[0];
  return (e) => {
    const a = authOf(e);
    return { auth: a === undefined ? 'none' : a === key ? 'key' : 'other-key' };
  };
}

/** Binary bytes with every secret's UTF-8 bytes replaced by REDACTED. */
function redactBytes(bytes: Buffer, secrets: readonly string[]): Buffer {
  let out = bytes;
  for (const secret of secrets) {
    const needle = Buffer.from(secret, 'utf8');
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, from)) {
      parts.push(out.subarray(from, at), Buffer.from('REDACTED'));
      from = at + needle.length;
    }
    if (parts.length > 0) out = Buffer.concat([...parts, out.subarray(from)]);
  }
  return out;
}

function requestBody(e: HarEntry): unknown {
  const text = e.request.postData?.text;
  if (text === undefined || text === '') return undefined;
  if (/json/i.test(e.request.postData?.mimeType ?? '')) {
    try { return JSON.parse(text); } catch { return text; }
  }
  return text;
}

function responseBytes(e: HarEntry): Buffer {
  const c = e.response.content;
  if (c?.text === undefined) return Buffer.alloc(0);
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64') : Buffer.from(c.text, 'utf8');
}

/** One cassette (a suite) from the entries of a HAR file; `only` keeps the entries whose path starts with it. */
export function harToCassette(har: Har, suite: string, only = '/v1/'): CassetteDefinition[] {
  const secrets = secretsOf(har);
  const redactor = new Redactor({ secretHeaders: [], secretValues: secrets });
  const entries = har.log.entries.filter((e) => new URL(e.request.url).pathname.startsWith(only));
  const sentAs = rolesOf(entries);
  const defs = entries.map((e): CassetteDefinition => {
    const url = new URL(e.request.url);
    const rawHeaders: string[] = [];
    for (const h of e.response.headers ?? []) {
      if (DROPPED.test(h.name) || h.name.startsWith(':')) continue;
      rawHeaders.push(h.name.toLowerCase(), SECRET_HEADER.test(h.name) ? 'REDACTED' : redactor.text(h.value));
    }
    if (!rawHeaders.includes('content-type') && e.response.content?.mimeType) rawHeaders.push('content-type', e.response.content.mimeType);
    // A body is redacted however the HAR stores it: browsers export JSON answers base64-encoded too, and the key
    // an answer echoes ("Incorrect API key provided: sk-…") is in those bytes.
    const bytes = responseBytes(e);
    const stored = isUtf8(bytes) ? Buffer.from(redactor.text(bytes.toString('utf8')), 'utf8') : redactBytes(bytes, secrets);
    const body = requestBody(e);
    return {
      scope: url.origin,
      method: e.request.method.toUpperCase(),
      path: redactor.text(url.pathname + url.search),
      ...(body !== undefined ? { body: redactor.value(body) } : {}),
      status: e.response.status,
      sent: sentAs(e),
      ...storedResponse(stored, false, rawHeaders.includes('content-type')),
      rawHeaders,
    } as CassetteDefinition;
  });
  if (defs.length > 0) {
    const origin = new URL(entries[0]!.request.url).origin;
    const meta: CassetteMeta = {
      format: CASSETTE_FORMAT, suite, tool: `har:${har.log.creator?.name ?? 'unknown'}${har.log.creator?.version ? `@${har.log.creator.version}` : ''}`,
      target: origin, base_url: origin, seed: 0,
      credentials: { api_key: har.log.entries.some((e) => (e.request.headers ?? []).some((h) => /^authorization$/i.test(h.name))), member_api_key: false },
      interactions: defs.length,
    };
    defs[0] = { conformance: meta, ...defs[0]! };
  }
  return defs;
}
