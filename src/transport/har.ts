// HAR 1.2 (browsers, Schemathesis, Polly.js write it) → a cassette in this harness's format, so recordings made
// elsewhere can be diffed (conformance diff --against) and served to tests (useCassettes). Secrets never reach
// the cassette: request headers are not stored at all, and every credential the HAR carried (Authorization,
// api-key style headers, cookies) is redacted wherever it occurs in the answers.

import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Redactor } from '../util/redact.ts';
import { CASSETTE_FORMAT, type CassetteDefinition, type CassetteMeta, type SentAs } from './cassette.ts';
import { storedBody, storedResponse } from './cassette-record.ts';
import { summariseBody } from './capture.ts';
import type { RequestBodySummary } from './types.ts';
import { isZip, ZipError, zipEntries } from './zip.ts';

interface HarHeader { name: string; value?: string }
interface HarParam { name: string; value?: string; fileName?: string; contentType?: string }
interface HarEntry {
  request: { method: string; url: string; headers?: HarHeader[]; bodySize?: number; postData?: { mimeType?: string; text?: string; params?: HarParam[]; _file?: string; _form?: AttachedForm } };
  response: { status: number; headers?: HarHeader[]; _error?: string; content?: { mimeType?: string; text?: string; encoding?: string; size?: number; _file?: string; _unreadable?: string } };
}
/** A form attached as bytes (not text), as read once: its summary, and how many bytes it was. */
interface AttachedForm { summary: RequestBodySummary; size: number }
interface Har { log: { entries: HarEntry[]; creator?: { name?: string; version?: string } } }

export class HarError extends Error {}

const SECRET_HEADER = /^(authorization|proxy-authorization|api-key|x-api-key|openai-api-key|cookie|set-cookie|service-organization|openai-organization)$/i;
/** Hop-by-hop and length headers: the stored body is what a replay serves, so its length is recomputed. */
const DROPPED = /^(connection|keep-alive|transfer-encoding|content-length|content-encoding)$/i;

/** A body Playwright kept apart from the HAR (`_file`), by its name: undefined when it is not there. */
export type Attachments = (name: string) => Buffer | undefined;

/**
 * A HAR file, or a zip archive holding one (Playwright's `recordHar: { path: 'x.har.zip' }`: `har.har` and the
 * bodies it attached).
 */
export function readHar(path: string): Har {
  let bytes: Buffer;
  try { bytes = readFileSync(path); } catch (e) { throw new HarError(`cannot read ${path}: ${(e as Error).message.split('\n')[0]}`); }
  if (!isZip(bytes)) return parseHar(asText(bytes, path), path, besideFile(path));
  let entries: Map<string, () => Buffer>;
  try {
    entries = zipEntries(bytes);
    // macOS's Finder adds __MACOSX/._har.har beside it: not a HAR.
    const hars = [...entries.keys()].filter((name) => /\.har$/i.test(name) && !name.startsWith('__MACOSX/') && !/(^|\/)\._/.test(name));
    if (hars.length !== 1) throw new ZipError(`it holds ${hars.length} .har files, not one (Playwright writes one, har.har)`);
    const text = asText(entries.get(hars[0]!)!(), path);
    // Its attachments lie beside it: at the root as Playwright writes it, in its folder when a folder was zipped.
    const folder = hars[0]!.slice(0, hars[0]!.lastIndexOf('/') + 1);
    return parseHar(text, path, (name) => entries.get(folder + name)?.());
  } catch (e) {
    if (e instanceof ZipError) throw new HarError(`${path}: a zip archive that is not read: ${e.message}`);
    throw e;
  }
}

/** The name a recording read from a HAR file goes by: its file name without `.har`, `.zip` or `.har.zip`. */
export function harName(path: string): string {
  return path.replace(/^.*[\\/]/, '').replace(/(\.har)?(\.zip)?$/i, '') || 'har';
}

/** A HAR's bytes as text; one Node cannot hold as a string is one line, not a crash. */
function asText(bytes: Buffer, path: string): string {
  try { return bytes.toString('utf8'); } catch { throw new HarError(`${path}: ${bytes.length} bytes, too large to read as text`); }
}

/** The files beside a HAR file, by plain name. */
function besideFile(file: string): Attachments {
  const dir = dirname(file);
  return (name) => { try { return readFileSync(join(dir, name)); } catch { return undefined; } };
}

export function parseHar(text: string, file: string, attachments: Attachments = besideFile(file)): Har {
  let value: unknown;
  // HAR 1.2: "tools [must] support and ignore a BOM".
  try { value = JSON.parse(text.replace(/^\uFEFF/, '')); } catch (e) { throw new HarError(`${file}: not JSON (${(e as Error).message.split('\n')[0]})`); }
  const entries = (value as Har | undefined)?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError(`${file}: not a HAR file (no log.entries array)`);
  entries.forEach((e, i) => {
    if (typeof e?.request?.method !== 'string' || typeof e?.request?.url !== 'string' || typeof e?.response?.status !== 'number') throw new HarError(`${file}: log.entries[${i}] has no request method/url or response status`);
    if (!URL.canParse(e.request.url)) throw new HarError(`${file}: log.entries[${i}].request.url is not an absolute URL (${JSON.stringify(e.request.url.slice(0, 80))})`);
    attachedBody(e, attachments);
  });
  return value as Har;
}

/**
 * Playwright's `content: 'attach'` keeps each body in a file beside the HAR (or in its archive), named in `_file`:
 * read into the entry (base64, as embedded bodies are). A name that is not a plain file name, or a file not there,
 * is left unread.
 */
function attachedBody(e: HarEntry, attachments: Attachments): void {
  const c = e.response.content;
  const answer = c !== undefined && c.text === undefined ? attachment(c._file, attachments) : undefined;
  // One too large to hold as text stays unread: the entry is then reported as not captured, saying so.
  if (answer !== undefined) {
    try {
      c!.text = answer.toString('base64');
      c!.encoding = 'base64';
    } catch {
      c!._unreadable = `${answer.length} bytes, too large to read`;
    }
  }
  // A request body too (its postData.text left empty). HAR has no encoding for a request body: text is taken as
  // text, and a form with a file's bytes (an upload) is kept as bytes, read as the form it is.
  const post = e.request.postData;
  if (post !== undefined) delete post._form;
  const sent = post !== undefined && !post.text ? attachment(post._file, attachments) : undefined;
  if (sent === undefined) return;
  if (isUtf8(sent)) {
    try { post!.text = sent.toString('utf8'); } catch { /* not captured */ }
  } else if (/^multipart\/form-data/i.test(post!.mimeType ?? '')) {
    // Only a form that reads as one: other bytes would be judged as a form with no fields, a request never sent.
    const summary = summariseBody(post!.mimeType, sent);
    if (summary.kind === 'multipart') post!._form = { summary, size: sent.length };
  }
}

/** The bytes of an attachment named by a plain file name; undefined when the name is not one, or it is not there. */
function attachment(name: unknown, attachments: Attachments): Buffer | undefined {
  if (typeof name !== 'string' || !/^[\w.-]+$/.test(name) || name.startsWith('.')) return undefined;
  try { return attachments(name); } catch { return undefined; }
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

/** The request body as a cassette keeps it: JSON, text, or a multipart summary (from its text, or its params). */
function requestBody(e: HarEntry): { body?: unknown; multipart?: CassetteDefinition['multipart'] } {
  const post = e.request.postData;
  const text = post?.text;
  const mime = post?.mimeType ?? '';
  if (/^multipart\/form-data/i.test(mime)) {
    const summary = post?._form?.summary ?? (text ? summariseBody(mime, Buffer.from(text, 'utf8')) : undefined);
    const parsed = summary ? storedBody(summary).multipart : undefined;
    if (parsed) return { multipart: { fromHar: true, ...parsed } };
    // Firefox and the HAR spec's own form: fields by name; a file part's bytes are not in the HAR.
    const fields = Object.fromEntries((post?.params ?? []).filter((p) => p.fileName === undefined).map((p) => [p.name, p.value ?? '']));
    return { multipart: { fromHar: true, fields, files: [] } };
  }
  if (text === undefined || text === '') return {};
  if (/json/i.test(mime)) {
    try { return { body: JSON.parse(text) }; } catch { return { body: text }; }
  }
  return { body: text };
}

/**
 * Why an entry cannot be judged or replayed, when its HAR does not hold what was sent or answered: a body left out
 * (a browser's setting, Playwright's `omit` or `attach`), cut at a size limit, a file part whose bytes are missing,
 * or an exchange the client broke off.
 */
function notCaptured(e: HarEntry): string | undefined {
  // Chrome's mark of an exchange the page broke off (a user's "stop generating"): what came is no whole answer.
  if (e.response._error) return `the client broke it off (${e.response._error})`;
  // Status 0: no answer came (a request the browser blocked or cancelled): nothing of the service to judge.
  if (e.response.status === 0) return 'no answer was received (status 0)';
  const c = e.response.content;
  if (c === undefined && !bodiless(e)) return 'its answer has no content in the HAR';
  const size = typeof c?.size === 'number' && c.size > 0 ? c.size : 0;
  if (c?._unreadable !== undefined) return `its answer's body (${c._file}) is ${c._unreadable}`;
  if (c?.text === undefined && c?._file !== undefined) return `its answer's body is in a separate file (${c._file}), which is neither beside the HAR nor in its archive`;
  if (c?.text === undefined && size > 0) return `its answer's body (${size} bytes) was not captured`;
  // No text and a size not known to be 0 (-1: Playwright's mark of a body it never read): judged, it would be empty.
  if (c !== undefined && c.text === undefined && c.size !== 0 && !bodiless(e)) return 'its answer\'s body was not captured (its size is unknown)';
  const captured = c?.text === undefined ? 0 : responseBytes(e).length;
  if (c?.text !== undefined && captured < size) return `its answer's body was cut (${captured} of ${size} bytes captured)`;
  const post = e.request.postData;
  const sent = requestBodyBytes(e);
  const held = post?._form !== undefined || !!post?.text;
  if (post?.params?.some((p) => p.fileName !== undefined) && !held) return 'its request\'s file parts are not in the HAR';
  if (!held && !post?.params?.length && sent > 0) return `its request body (${sent} bytes) was not captured`;
  const kept = post?._form?.size ?? (post?.text ? Buffer.byteLength(post.text) : 0);
  if (!held || kept >= sent) return undefined;
  // Chrome keeps a form's text parts and leaves a binary file's bytes out: judged, the file would seem empty.
  if (/^multipart\//i.test(post.mimeType ?? '')) return `its request's form was not captured whole (${kept} of ${sent} bytes): a file part's bytes are missing`;
  return `its request body was cut (${kept} of ${sent} bytes captured)`;
}

/** How long the request body was, as the HAR says: its bodySize, or the content-length the request was sent with. */
function requestBodyBytes(e: HarEntry): number {
  const size = typeof e.request.bodySize === 'number' && e.request.bodySize > 0 ? e.request.bodySize : 0;
  const header = (e.request.headers ?? []).find((h) => /^content-length$/i.test(h.name))?.value;
  const declared = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header.trim()) : 0;
  return Math.max(size, declared);
}

/** An answer that has no body whatever it says: to HEAD, or 1xx, 204, 304 (RFC 9110 §6.4.1). */
function bodiless(e: HarEntry): boolean {
  const status = e.response.status;
  return e.request.method.toUpperCase() === 'HEAD' || (status >= 100 && status < 200) || status === 204 || status === 304;
}

function responseBytes(e: HarEntry): Buffer {
  const c = e.response.content;
  if (c?.text === undefined) return Buffer.alloc(0);
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64') : Buffer.from(c.text, 'utf8');
}

/**
 * Where the entries' paths start, for a prefix that kept none of them: up to their `/v1/` (a service under a base
 * path, `/openai/v1/`), else their first segment; the commonest first, with how many.
 */
function pathStarts(har: Har): string {
  const counts = new Map<string, number>();
  for (const e of har.log.entries) {
    let path: string;
    try { path = new URL(e.request.url).pathname; } catch { continue; }
    const v1 = path.indexOf('/v1/');
    const start = v1 >= 0 ? path.slice(0, v1 + 4) : `/${path.split('/')[1] ?? ''}`;
    counts.set(start, (counts.get(start) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([start, n]) => `${start} (${n})`).join(', ');
}

/** Why a HAR file gave nothing under `prefix`: where its paths start instead (a wrong prefix, or a base path). */
export function nothingUnder(har: Har, file: string, prefix: string): string {
  return `${file}: no entry has a path under ${prefix}; its entries' paths start with ${pathStarts(har) || 'nothing'} (a service under a base path: --prefix BASE/v1/)`;
}

/**
 * One cassette (a suite) from the entries of a HAR file; `only` keeps the entries whose path starts with it. An
 * entry whose HAR lacks part of the exchange (notCaptured) is left out, with why, in `left`. A prefix with a base
 * path before its `/v1/` (`/openai/v1/`) is the service's base: the cassette's base_url names it, and the paths
 * are kept whole, as the proxy records a service under a base path (replays match them after that base).
 */
export function harToCassette(har: Har, suite: string, only = '/v1/', left: string[] = []): CassetteDefinition[] {
  const base = only.includes('/v1/') ? only.slice(0, only.indexOf('/v1/')) : '';
  const secrets = secretsOf(har);
  const redactor = new Redactor({ secretHeaders: [], secretValues: secrets });
  const entries = har.log.entries.filter((e, i) => {
    const url = new URL(e.request.url);
    if (!url.pathname.startsWith(only)) return false;
    const why = notCaptured(e);
    if (why !== undefined) left.push(`log.entries[${i}] ${e.request.method} ${url.pathname}: ${why}`);
    return why === undefined;
  });
  const sentAs = rolesOf(entries);
  const defs = entries.map((e): CassetteDefinition => {
    const url = new URL(e.request.url);
    const rawHeaders: string[] = [];
    for (const h of e.response.headers ?? []) {
      if (DROPPED.test(h.name) || h.name.startsWith(':')) continue;
      rawHeaders.push(h.name.toLowerCase(), SECRET_HEADER.test(h.name) ? 'REDACTED' : redactor.text(h.value ?? ''));
    }
    if (!rawHeaders.includes('content-type') && e.response.content?.mimeType) rawHeaders.push('content-type', e.response.content.mimeType);
    // A body is redacted however the HAR stores it: browsers export JSON answers base64-encoded too, and the key
    // an answer echoes ("Incorrect API key provided: sk-…") is in those bytes.
    const bytes = responseBytes(e);
    const stored = isUtf8(bytes) ? Buffer.from(redactor.text(bytes.toString('utf8')), 'utf8') : redactBytes(bytes, secrets);
    const { body, multipart } = requestBody(e);
    return {
      scope: url.origin,
      method: e.request.method.toUpperCase(),
      path: redactor.text(url.pathname + url.search),
      ...(body !== undefined ? { body: redactor.value(body) } : {}),
      ...(multipart !== undefined ? { multipart: redactor.value(multipart) } : {}),
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
      target: origin, base_url: `${origin}${base}`, seed: 0,
      credentials: { api_key: har.log.entries.some((e) => (e.request.headers ?? []).some((h) => /^authorization$/i.test(h.name))), member_api_key: false },
      interactions: defs.length,
    };
    defs[0] = { conformance: meta, ...defs[0]! };
  }
  return defs;
}
