// How a recorded answer is served again to an HTTP client (the proxy's replay, useCassettes): its framing, and
// the headers that go with it.

import type { CassetteDefinition } from './cassette.ts';
import { REDACTED } from '../util/redact.ts';

/**
 * How a replayed answer is framed: `bodiless` (HEAD, 204, 304: the recorded headers, framing ones included, and no
 * body), `cut-off` (the recorded headers, then the bytes that came, then a broken connection), `chunks` (as
 * recorded) or `whole` (a content-length of the body served).
 */
export type Framing = 'bodiless' | 'cut-off' | 'chunks' | 'whole';

export function framingOf(def: CassetteDefinition): Framing {
  if (def.method.toUpperCase() === 'HEAD' || def.status === 204 || def.status === 304) return 'bodiless';
  if (def.error !== undefined && def.error.kind !== 'too-large') return 'cut-off';
  return def.chunks ? 'chunks' : 'whole';
}

/**
 * The recorded headers as a replay sends them: never the connection's own; a redacted cookie is not made up; the
 * recorded content-length only where the answer is framed as recorded (bodiless, cut off).
 */
export function replayedHeaders(def: CassetteDefinition, framing: Framing, bodyLength: number): Record<string, string> {
  const recordedLength = framing === 'bodiless' || framing === 'cut-off';
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < def.rawHeaders.length; i += 2) {
    const name = def.rawHeaders[i]!.toLowerCase();
    const value = def.rawHeaders[i + 1]!;
    if (name === 'transfer-encoding' || name === 'connection' || name === 'keep-alive') continue;
    if (name === 'set-cookie' && value === REDACTED) continue;
    if (name === 'content-length' && !recordedLength) continue;
    headers[name] = value;
  }
  if (framing === 'whole') headers['content-length'] = String(bodyLength);
  return headers;
}
