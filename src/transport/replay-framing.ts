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
 * The recorded headers a replay sends as they are (raw: a name and its value, repeated headers kept): never the
 * connection's own nor its framing, which is the replay's to set; a redacted cookie is not made up. `length`: the
 * recorded content-length.
 */
export function recordedHeaders(def: CassetteDefinition): { headers: string[]; length: string | undefined } {
  const headers: string[] = [];
  let length: string | undefined;
  for (let i = 0; i + 1 < def.rawHeaders.length; i += 2) {
    const name = def.rawHeaders[i]!.toLowerCase();
    const value = def.rawHeaders[i + 1]!;
    if (name === 'transfer-encoding' || name === 'connection' || name === 'keep-alive') continue;
    if (name === 'set-cookie' && value === REDACTED) continue;
    if (name === 'content-length') { length = value; continue; }
    headers.push(name, value);
  }
  return { headers, length };
}

/**
 * The recorded headers as a replay sends them, with the framing that goes with `framing`: the recorded
 * content-length only where the answer is framed as recorded. A cut-off answer keeps it only when it is longer than
 * the bytes that came (a redaction may have set it to them): else the answer goes chunked, and the break before its
 * last chunk says it was cut.
 */
export function replayedHeaders(def: CassetteDefinition, framing: Framing, bodyLength: number): string[] {
  const { headers: out, length } = recordedHeaders(def);
  const cutShort = length !== undefined && Number(length) > bodyLength;
  if (length !== undefined && (framing === 'bodiless' || (framing === 'cut-off' && cutShort))) out.push('content-length', length);
  if (framing === 'whole') out.push('content-length', String(bodyLength));
  return out;
}
