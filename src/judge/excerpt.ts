// What a result shows of an answer: an excerpt of its body, and the server's own message about it.

import type { Exchange } from '../transport/types.ts';
import type { ResponseExcerpt } from './results.ts';

const EXCERPT_CHARS = 600;
const MESSAGE_CHARS = 300;

/**
 * The server's own words about a refusal: `error.message` (the service's convention), `message`, or the
 * `detail`/`title` of an RFC 9457 problem. Kept whole (up to a bound) even when the excerpt is cut.
 */
export function serverMessage(exchange: Exchange): string | undefined {
  const json = exchange.response?.json;
  if (json === null || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  const err = o['error'];
  const candidates = [err && typeof err === 'object' ? (err as Record<string, unknown>)['message'] : err, o['message'], o['detail'], o['title']];
  const found = candidates.find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return found === undefined ? undefined : copyOf(found.length > MESSAGE_CHARS ? found.slice(0, MESSAGE_CHARS) + '…' : found);
}

export function responseExcerpt(exchange: Exchange): ResponseExcerpt {
  const r = exchange.response;
  const excerpt: ResponseExcerpt = {};
  if (r) {
    excerpt.status = r.status;
    if (r.headers['content-type']) excerpt.contentType = r.headers['content-type'];
    const text = exchange.stream
      ? exchange.stream.sample.slice(0, 6).map((e) => `data: ${e.data}`).join('\n') + (exchange.stream.eventCount > 6 ? `\n… ${exchange.stream.eventCount} events, ended: ${exchange.stream.end}` : '')
      : r.text;
    if (text) excerpt.excerpt = copyOf(text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) + '…' : text);
    const said = serverMessage(exchange);
    if (said) excerpt.message = said;
  }
  if (exchange.error) excerpt.error = exchange.error.message;
  else if (exchange.stream?.detail) excerpt.error = exchange.stream.detail;
  return excerpt;
}

/** A flat copy: a slice of a huge body must not keep the whole body alive for as long as the result lives. */
function copyOf(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}
