// The entries of a zip archive, as Playwright writes a HAR with `recordHar: { path: 'x.har.zip' }` (the HAR as
// `har.har`, each body beside it named by its SHA-1). Stored and deflated entries of a plain archive; what lies
// outside that (ZIP64, encryption, other compressions) is refused with one line. Sizes are read from the central
// directory: Playwright sets the data-descriptor flag, which leaves them zero in the local headers.

import { inflateRawSync } from 'node:zlib';

export class ZipError extends Error {}

/** The most one entry may hold once inflated: more than any HAR Node can parse into a string. */
export const ZIP_ENTRY_CAP = 512 * 1024 * 1024;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

/** Whether `bytes` start as a zip archive does (a local file header). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Each entry's name, and how to read its bytes (inflated when asked for, bounded by ZIP_ENTRY_CAP). */
export function zipEntries(bytes: Buffer): Map<string, () => Buffer> {
  const end = endOfCentralDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  const start = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || start === 0xffffffff) throw new ZipError('a ZIP64 archive, which is not read');
  const entries = new Map<string, () => Buffer>();
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw new ZipError(`entry ${i} of the central directory is broken`);
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const packed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const local = bytes.readUInt32LE(at + 42);
    at = next;
    if (name.endsWith('/')) continue;
    entries.set(name, () => entryBytes(bytes, { name, flags, method, packed, size, local }));
  }
  return entries;
}

function endOfCentralDirectory(bytes: Buffer): number {
  for (let at = bytes.length - EOCD_SIZE; at >= Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT); at--) {
    // The record whose central directory ends where it starts: a signature inside a comment is not it, and bytes
    // appended after the archive do not hide it.
    if (bytes.readUInt32LE(at) === EOCD && bytes.readUInt32LE(at + 16) + bytes.readUInt32LE(at + 12) === at) return at;
  }
  throw new ZipError('no end of central directory: not a whole zip archive');
}

interface Entry { name: string; flags: number; method: number; packed: number; size: number; local: number }

function entryBytes(bytes: Buffer, e: Entry): Buffer {
  if (e.flags & 1) throw new ZipError(`${e.name} is encrypted`);
  if (e.size > ZIP_ENTRY_CAP) throw new ZipError(`${e.name} holds ${e.size} bytes, more than the ${ZIP_ENTRY_CAP} read`);
  if (e.local + 30 > bytes.length || bytes.readUInt32LE(e.local) !== LOCAL) throw new ZipError(`${e.name}: its local header is broken`);
  const from = e.local + 30 + bytes.readUInt16LE(e.local + 26) + bytes.readUInt16LE(e.local + 28);
  if (from + e.packed > bytes.length) throw new ZipError(`${e.name} is cut short`);
  const data = bytes.subarray(from, from + e.packed);
  if (e.method === 0) return data;
  if (e.method !== 8) throw new ZipError(`${e.name} is compressed with method ${e.method}, which is not read (stored and deflate are)`);
  let out: Buffer;
  try { out = inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) }); } catch (err) { throw new ZipError(`${e.name} does not inflate: ${(err as Error).message}`); }
  if (out.length !== e.size) throw new ZipError(`${e.name} inflates to ${out.length} bytes, not the ${e.size} its directory says`);
  return out;
}
