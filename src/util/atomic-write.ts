// Write a file atomically: a unique temp file in the same directory, fsync, then rename over the
// target. On any failure the temp file is removed and the previous target is left untouched.

import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    const handle = await open(tmp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
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

/** How much of a streamed file is gathered before one write: few system calls, a bounded buffer. */
const STREAM_BATCH_CHARS = 256 * 1024;

/**
 * Writes a file atomically from parts (a report of thousands of results, rendered piece by piece): at most one
 * batch of it is in memory, never the whole text and its UTF-8 copy. Same guarantees as writeFileAtomic: a
 * unique temp file, fsync, rename; on any failure (also one thrown while rendering) the temp file is removed
 * and the previous file is left as it was.
 */
export function writeFileAtomicFromParts(path: string, parts: Iterable<string>): void {
  writeThroughTempSync(path, (fd) => {
    let batch = '';
    for (const part of parts) {
      batch += part;
      if (batch.length >= STREAM_BATCH_CHARS) { writeAll(fd, batch); batch = ''; }
    }
    if (batch) writeAll(fd, batch);
  });
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
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the original error matters more
    }
    throw err;
  }
}

/** A write may take fewer bytes than given: go on until all of them are written. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
