// RFC 7578 multipart/form-data encoding, deterministic for a given boundary (stable recordings).

import { createHash } from 'node:crypto';

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Uint8Array };

const encoder = new TextEncoder();
const CRLF = encoder.encode('\r\n');

/** A boundary derived from a seed (e.g. the case id), so the same request encodes to the same bytes. */
export function boundaryFor(seed: string): string {
  return `----conformance-${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
}

/** Quote a name/filename as the HTML form-data encoder does: `"` → %22, CR → %0D, LF → %0A. */
function quote(s: string): string {
  return `"${s.replace(/["\r\n]/g, (c) => (c === '"' ? '%22' : c === '\r' ? '%0D' : '%0A'))}"`;
}

export function encodeMultipart(parts: readonly MultipartPart[], boundary: string): { body: Uint8Array; contentType: string } {
  if (!/^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/.test(boundary)) {
    throw new Error(`invalid multipart boundary ${JSON.stringify(boundary)}`);
  }
  const delimiter = Buffer.from(`--${boundary}`);
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quote(part.name)}`;
    let content: Uint8Array;
    if ('data' in part) {
      head += `; filename=${quote(part.filename)}\r\nContent-Type: ${part.contentType.replace(/[\r\n]/g, '')}`;
      content = part.data;
    } else {
      content = encoder.encode(part.value);
    }
    head += '\r\n\r\n';
    if (Buffer.from(content.buffer, content.byteOffset, content.byteLength).includes(delimiter)) {
      throw new Error(`multipart boundary ${boundary} occurs in the content of part ${JSON.stringify(part.name)}`);
    }
    chunks.push(encoder.encode(head), content, CRLF);
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
