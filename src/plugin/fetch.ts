// Bounded GETs for the plugin checker: a timeout on every request, a size cap per fetch, and redirects
// followed by hand (undici does not follow them) — only to http(s), at most MAX_REDIRECTS times.

import type { Exchange, HttpMethod, OutgoingRequest, RequestBodySummary, Transport } from '../transport/types.ts';

export const MAX_REDIRECTS = 3;
/** Cap for the manifest, the OpenAPI description and the logo. */
export const DOCUMENT_CAP_BYTES = 1024 * 1024;

/** Cap for operation responses: large enough that a cut body provably exceeds the character limit (≤ 4 bytes a character). */
export function operationCapBytes(limitChars: number): number {
  return 4 * (limitChars + 1) + 1024;
}

export interface FetchOptions {
  method?: HttpMethod;
  headers?: Record<string, string>;
  body?: { bytes: Uint8Array; summary: RequestBodySummary };
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  maxRedirects?: number;
}

export interface Fetched {
  /** The last exchange (after redirects). */
  exchange: Exchange;
  /** Every URL requested, in order (the first is the one asked for). */
  chain: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchBounded(transport: Transport, url: string, opts: FetchOptions): Promise<Fetched> {
  const chain: string[] = [];
  let method: HttpMethod = opts.method ?? 'GET';
  let body = opts.body;
  let current = url;
  const max = opts.maxRedirects ?? MAX_REDIRECTS;
  for (let hop = 0; ; hop++) {
    chain.push(current);
    const req: OutgoingRequest = {
      method,
      url: current,
      headers: { ...(opts.headers ?? {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: body.bytes } : {}),
      bodySummary: body?.summary ?? { kind: 'none' },
      stream: false,
    };
    const exchange = await transport.send(req, { timeoutMs: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
    cap(exchange, opts.maxBytes);
    const r = exchange.response;
    if (!r || !REDIRECTS.has(r.status)) return { exchange, chain };
    const location = r.headers['location'];
    if (!location) return { exchange, chain };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      exchange.error = { kind: 'network', message: `redirect to an invalid URL: ${location}` };
      return { exchange, chain };
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      exchange.error = { kind: 'network', message: `redirect to ${next.protocol} refused (only http and https are followed): ${next.href}` };
      return { exchange, chain };
    }
    if (hop >= max) {
      exchange.error = { kind: 'network', message: `more than ${max} redirects (${[...chain, next.href].join(' → ')}); stopped` };
      return { exchange, chain };
    }
    if (r.status === 303 || ((r.status === 301 || r.status === 302) && method !== 'GET' && method !== 'HEAD')) {
      method = 'GET';
      body = undefined;
    }
    current = next.href;
  }
}

/** Enforce the per-fetch size cap on top of the transport's own (which may be larger). */
function cap(exchange: Exchange, maxBytes: number): void {
  const r = exchange.response;
  if (!r?.bytes || r.bytes.byteLength <= maxBytes) return;
  r.bytes = r.bytes.subarray(0, maxBytes);
  r.truncated = true;
  delete r.json;
  if (r.text !== undefined) r.text = new TextDecoder().decode(r.bytes);
  exchange.error = { kind: 'too-large', message: `response body exceeds ${maxBytes} bytes; read stopped at ${maxBytes}` };
}
