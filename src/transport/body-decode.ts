// What a whole answer body is to the judge: bytes, text when it is text, JSON when it parses. One reading for every
// transport that holds a whole body (live, the proxy's tap, a cassette judged offline).

import { isUtf8 } from 'node:buffer';
import type { ExchangeResponse } from './types.ts';

const utf8Lenient = new TextDecoder('utf-8');
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Sets `bytes`, `text`, `json` and `invalidUtf8` of a response from its whole body. */
export function fillBody(response: ExchangeResponse, bytes: Uint8Array, contentType: string): void {
  response.bytes = bytes;
  const text = decodeText(bytes, contentType);
  if (text === undefined) return;
  response.text = text;
  // JSON is UTF-8 (RFC 8259): a body that is not valid UTF-8 is not JSON, however it decodes leniently.
  const invalid = isTextual(contentType) ? invalidUtf8At(bytes) : undefined;
  if (invalid !== undefined) response.invalidUtf8 = `the body is not valid UTF-8 (first bad byte at offset ${invalid})`;
  else {
    const json = parseJson(text);
    if (json !== NOT_JSON) response.json = json;
  }
}

function isTextual(contentType: string): boolean {
  return (
    contentType.startsWith('text/') ||
    contentType.includes('json') ||
    contentType.includes('xml') ||
    contentType.includes('javascript') ||
    contentType.startsWith('application/x-www-form-urlencoded') ||
    contentType.startsWith('application/yaml')
  );
}

export function decodeText(bytes: Uint8Array, contentType: string): string | undefined {
  if (bytes.length === 0) return '';
  if (isTextual(contentType)) return utf8Lenient.decode(bytes);
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Offset of the first byte that is not valid UTF-8, if any (a fatal decode finds it exactly). */
function invalidUtf8At(bytes: Uint8Array): number | undefined {
  // Node's native check, without building a second string of every body; the decoder then finds the offset.
  if (isUtf8(bytes)) return undefined;
  // Narrow down the offset by halves: decode prefixes (a split multi-byte character at the cut is allowed).
  let lo = 0;
  let hi = bytes.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid;
    }
  }
  return lo;
}

const NOT_JSON: unique symbol = Symbol('not json');

function parseJson(text: string): unknown {
  // Skip the throw/catch for bodies that cannot be JSON.
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  const c = text[i];
  if (c === undefined || !(c === '{' || c === '[' || c === '"' || c === '-' || c === 't' || c === 'f' || c === 'n' || (c >= '0' && c <= '9'))) {
    return NOT_JSON;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}
