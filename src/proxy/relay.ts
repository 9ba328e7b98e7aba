// One exchange through the proxy: the client's request read whole (it is summarised and matched), sent upstream,
// and the answer relayed chunk by chunk as it arrives, with backpressure, while a tap keeps what the judge and the
// recording need (within a bound). Upstream failures reach the client as what they are: no answer at all is a 502
// or 504 in the API's error shape; a body cut off is a connection cut off.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { request, type Agent } from '../transport/undici-core.ts';
import type { TransportError } from '../transport/types.ts';

/**
 * Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1), and the proxy's own. `expect` too: the
 * proxy met a `100-continue` itself (node answered it before the body was read whole), and undici refuses to send it.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect', 'x-conformance-cassette']);

export const CASSETTE_HEADER = 'x-conformance-cassette';

export class RequestTooLarge extends Error {}

/** The request body, whole; past `max` bytes the client is answered 413 instead. */
export function readRequestBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        reject(new RequestTooLarge(`request body over ${max} bytes (--max-request-bytes)`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/** The client's headers as they go upstream: one value per name, the connection's own left out. */
export function forwardedHeaders(raw: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    if (HOP_BY_HOP.has(name)) continue;
    const v = raw[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** The upstream answer's headers as the client gets them (node frames the body itself). */
export function relayedHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in raw) {
    const v = raw[name];
    if (v !== undefined && !HOP_BY_HOP.has(name)) out[name] = v;
  }
  return out;
}

/** Answer the client in the API's error shape, for what the proxy itself has to say (no upstream answer). */
export function answerError(res: ServerResponse, status: number, error: { message: string; code: string }): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message: `conformance proxy: ${error.message}`, type: 'proxy_error', param: null, code: error.code } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-conformance-proxy': error.code });
  res.end(body);
}

/** What became of an upstream request that gave no answer. */
export function upstreamFailure(err: unknown, headersMs: number): { status: number; error: TransportError; code: string } {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { status: 504, code: 'upstream_timeout', error: { kind: 'timeout', message: `no response headers within ${headersMs} ms (--timeout)` } };
  const why = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  return { status: 502, code: 'upstream_unreachable', error: { kind: 'network', message: `upstream unreachable: ${[code || cause, why].filter(Boolean).join(' ')}` } };
}

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  signal: AbortSignal;
}

export function sendUpstream(agent: Agent, sent: Sent): Promise<Dispatcher.ResponseData> {
  return request(sent.url, {
    dispatcher: agent, method: sent.method as Dispatcher.HttpMethod, headers: sent.headers,
    body: sent.body.length > 0 || !['GET', 'HEAD'].includes(sent.method) ? sent.body : null, signal: sent.signal,
  });
}

/** Each chunk of the answer, in order, with how long after the previous one it came. */
export interface Tap {
  chunk(bytes: Buffer, delayMs: number): void;
}

/**
 * Pipes the upstream body to the client, one chunk at a time: a client that reads slowly pauses the upstream
 * (memory stays flat however long the stream). Resolves with how the body ended.
 */
export function pipeBody(body: Dispatcher.ResponseData['body'], res: ServerResponse, tap: Tap | undefined): Promise<{ error?: string }> {
  return new Promise((resolve) => {
    let last = performance.now();
    let settled = false;
    const settle = (outcome: { error?: string }): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    body.on('data', (chunk: Buffer) => {
      if (tap !== undefined) {
        const now = performance.now();
        tap.chunk(chunk, now - last);
        last = now;
      }
      if (!res.write(chunk)) {
        body.pause();
        res.once('drain', () => body.resume());
      }
    });
    body.on('end', () => {
      res.end();
      settle({});
    });
    body.on('error', (err: Error) => {
      // A body cut off upstream is cut off for the client too: a complete-looking answer would be a lie.
      res.destroy();
      settle({ error: `upstream body broke off: ${(err as { code?: string }).code ?? ''} ${err.message}`.trim() });
    });
    res.on('close', () => {
      if (!res.writableFinished) {
        body.destroy();
        settle({ error: 'client went away before the answer ended' });
      }
    });
  });
}
