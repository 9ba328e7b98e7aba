// Matching a request with a recording: method, path and body, with volatile parts normalised, and the request
// headers of an allow-list; and, for a miss, the nearest recording and how it differs.

import type { Redactor } from '../util/redact.ts';
import { editDistance } from '../util/nearest.ts';
import { escapeToken } from '../util/pointer.ts';
import { shippedVolatility } from '../util/volatility.ts';
import type { CassetteDefinition, MultipartCassetteSummary } from './cassette.ts';
import { pathOf, storedBody } from './cassette-record.ts';
import { pickHeaders } from './match-headers.ts';
import type { RequestBodySummary } from './types.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** A request key whose value changes on each sending: request_volatile_keys of schemas/volatility.yaml. */
const isVolatileKey = (key: string): boolean => shippedVolatility().requestVolatileKeys.has(key.toLowerCase());

/** Volatile values replaced by placeholders; object keys sorted, so key order never matters. */
export function normalise(value: unknown, key?: string): unknown {
  if (key !== undefined && isVolatileKey(key) && (typeof value === 'string' || typeof value === 'number')) return '<volatile>';
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
  const pairs = [...params].map(([k, v]) => [k, isVolatileKey(k) ? '<volatile>' : ISO_TIME.test(v) ? '<timestamp>' : v] as const);
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
