// Reading a response body with every wait bounded: decompression, a size/continue callback,
// an optional idle (stall) timer, and an abort signal. Never throws for I/O problems: it
// resolves with how the read ended.

import type { Transform } from 'node:stream';
import { zlibModule } from '../util/lazy-modules.ts';
import type { RawBody } from './raw-body.ts';

export type ReadOutcome =
  | { kind: 'end' }
  /** onChunk returned false (e.g. size cap reached). */
  | { kind: 'stopped' }
  /** No raw bytes arrived for idleMs. */
  | { kind: 'idle' }
  | { kind: 'aborted' }
  | { kind: 'error'; error: unknown }
  | { kind: 'decode-error'; error: unknown }
  /** onChunk threw (a programmer error in a callback): rethrow it. */
  | { kind: 'throw'; error: unknown };

export interface BodyReadOptions {
  /** Value of the content-encoding header (lower-case), if any. */
  encoding: string | undefined;
  signal: AbortSignal;
  /** Stall timeout between raw chunks; 0 = none. */
  idleMs: number;
  /** Called with each decoded chunk; return false to stop reading (the body is destroyed). */
  onChunk: (chunk: Buffer) => boolean;
  /** When it returns true, arriving bytes no longer restart the idle timer (after `[DONE]`: wait at most idleMs for EOF). */
  idleFrozen?: () => boolean;
}

/** Encodings decoded; `deflate` is sniffed (zlib-wrapped or raw). */
export function isDecodable(encoding: string | undefined): boolean {
  return (
    encoding === 'gzip' ||
    encoding === 'x-gzip' ||
    encoding === 'br' ||
    encoding === 'deflate' ||
    // Typed, not cast: a cast here once hid that the module was never reached (zstd was then never decoded).
    (encoding === 'zstd' && typeof zlibModule().createZstdDecompress === 'function')
  );
}

function createDecoder(encoding: string, first: Buffer): Transform {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlibModule().createGunzip();
    case 'br':
      return zlibModule().createBrotliDecompress();
    case 'deflate': {
      // RFC 9110 says zlib-wrapped; some servers send raw deflate. A zlib header is CM=8 and a multiple of 31.
      const b0 = first[0] ?? 0;
      const b1 = first[1] ?? 0;
      const wrapped = first.length < 2 || ((b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0);
      return wrapped ? zlibModule().createInflate() : zlibModule().createInflateRaw();
    }
    case 'zstd':
      return zlibModule().createZstdDecompress();
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
}

/** Read `body` to its end (or until stopped/stalled/aborted/failed). The body is always consumed or destroyed. */
export function readBody(body: RawBody, opts: BodyReadOptions): Promise<ReadOutcome> {
  const { signal, idleMs, onChunk, idleFrozen } = opts;
  const encoding = isDecodable(opts.encoding) ? opts.encoding : undefined;
  return new Promise<ReadOutcome>((resolve) => {
    let settled = false;
    let rawEnded = false;
    let decoder: Transform | null = null;
    let timer: NodeJS.Timeout | null = null;

    const finish = (outcome: ReadOutcome): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (timer !== null) clearTimeout(timer);
      if (!rawEnded || outcome.kind !== 'end') body.destroy();
      if (decoder !== null) {
        decoder.on('error', noop);
        decoder.destroy();
      }
      resolve(outcome);
    };

    const deliver = (chunk: Buffer): void => {
      if (settled) return;
      let more: boolean;
      try {
        more = onChunk(chunk);
      } catch (error) {
        finish({ kind: 'throw', error });
        return;
      }
      if (!more) finish({ kind: 'stopped' });
    };

    const onRawData = (chunk: Buffer): void => {
      if (settled) return;
      if (timer !== null && !(idleFrozen?.() ?? false)) timer.refresh();
      if (encoding === undefined) {
        deliver(chunk);
        return;
      }
      if (decoder === null) {
        try {
          decoder = createDecoder(encoding, chunk);
        } catch (error) {
          finish({ kind: 'decode-error', error });
          return;
        }
        decoder.on('data', deliver);
        decoder.on('end', () => finish({ kind: 'end' }));
        decoder.on('error', (error: unknown) => finish({ kind: 'decode-error', error }));
      }
      decoder.write(chunk);
    };
    const onRawEnd = (): void => {
      if (settled) return;
      rawEnded = true;
      if (decoder !== null) decoder.end();
      else finish({ kind: 'end' });
    };
    const onRawError = (error: unknown): void => finish({ kind: 'error', error });
    const onAbort = (): void => finish({ kind: 'aborted' });

    if (signal.aborted) {
      finish({ kind: 'aborted' });
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    if (idleMs > 0) timer = setTimeout(() => finish({ kind: 'idle' }), idleMs);
    body.read({ data: onRawData, end: onRawEnd, error: onRawError });
  });
}

function noop(): void {}
