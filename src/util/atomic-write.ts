// Write a file atomically: a unique temp file in the same directory, fsync, then rename over the
// target. On any failure the temp file is removed and the previous target is left untouched.

import { randomBytes } from 'node:crypto';
import { close, closeSync, fsync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A unique temp file beside `path` (same folder, so a rename into place is atomic). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * `durable: false` skips the fsync: the rename is still atomic for every process (a kill -9 leaves the old file or
 * the new one, whole), but a power cut may lose the last write. For a file written again and again (a cassette the
 * proxy keeps up to date), whose last write is durable.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: { durable?: boolean } = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    const handle = await open(tmp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      if (opts.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  writeThroughTempSync(path, (fd) => writeFileSync(fd, data));
}

/** The buffer a streamed file is encoded into between writes: few system calls, a bounded buffer. */
const STREAM_BATCH_BYTES = 256 * 1024;
/** The most UTF-8 bytes one UTF-16 code unit becomes (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Writes a file atomically from parts (a report of thousands of results, rendered piece by piece): at most one
 * batch of it is in memory, never the whole text and its UTF-8 copy. Same guarantees as writeFileAtomic: a
 * unique temp file, fsync, rename; on any failure (also one thrown while rendering) the temp file is removed
 * and the previous file is left as it was.
 * Each part is encoded straight into one reused buffer: joining parts into a string first, then encoding it,
 * flattened and copied every byte twice more (a third of the time spent writing the peer workload's reports).
 * The parts are rendered and written now; the fsync and the rename, waits on the disk, go on in the background
 * (the returned promise), so several reports written in turn wait for the disk together, not one by one.
 */
export function writeFileAtomicFromParts(path: string, parts: Iterable<string>): Promise<void> {
  let tmp: string;
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    tmp = tempPathFor(path);
    fd = openSync(tmp, 'wx', 0o644);
  } catch (err) {
    return Promise.reject(err);
  }
  try {
    writeParts(fd, parts);
  } catch (err) {
    closeQuietly(fd);
    removeQuietly(tmp);
    return Promise.reject(err);
  }
  return new Promise<void>((resolve, reject) => {
    const fail = (err: unknown): void => { removeQuietly(tmp); reject(err); };
    fsync(fd, (syncErr) => close(fd, (closeErr) => {
      if (syncErr || closeErr) return fail(syncErr ?? closeErr);
      rename(tmp, path).then(resolve, fail);
    }));
  });
}

function writeParts(fd: number, parts: Iterable<string>): void {
  const batch = Buffer.allocUnsafe(STREAM_BATCH_BYTES);
  let used = 0;
  const flush = (): void => {
    for (let offset = 0; offset < used;) offset += writeSync(fd, batch, offset, used - offset);
    used = 0;
  };
  for (const part of parts) {
    if (part.length * MAX_UTF8_PER_UNIT > batch.length - used) {
      flush();
      if (part.length * MAX_UTF8_PER_UNIT > batch.length) { writeAll(fd, part); continue; }
    }
    used += batch.write(part, used, 'utf8');
  }
  flush();
}

function closeQuietly(fd: number): void {
  try { closeSync(fd); } catch { /* the write's error matters more */ }
}

function removeQuietly(path: string): void {
  try { rmSync(path, { force: true }); } catch { /* the original error matters more */ }
}

/** The temp file, fsync and rename around `write`; the temp file is removed when anything fails. */
function writeThroughTempSync(path: string, write: (fd: number) => void): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    removeQuietly(tmp);
    throw err;
  }
}

/** A write may take fewer bytes than given: go on until all of them are written. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
