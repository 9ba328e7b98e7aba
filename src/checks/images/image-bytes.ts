// The returned images as bytes: b64_json decoded, url content from the case's `follow`
// (exchange.attachments). Then the format and dimensions read from the bytes. The spec states the
// size of the output but not its format (IMG-OUTPUT-PNG is a convention), so PNG is decoded fully
// and JPEG, GIF and WebP are recognised by their headers.

import { readPngInfo } from '../../fixtures/png.ts';
import type { Exchange } from '../../transport/types.ts';
import { isRecord } from '../../util/json-type.ts';

export type SniffedFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export type Sniffed =
  | { ok: true; format: SniffedFormat; width: number; height: number }
  | { ok: false; error: string; /** Bytes of no format this reader knows (AVIF, BMP, TIFF…): not proof of a broken image. */ unknown?: true };

export interface ImageItem {
  pointer: string;
  kind: 'url' | 'b64_json';
  value: string;
}

export type ItemBytes =
  | { available: true; bytes: Buffer; source: string }
  | { available: false; reason: string };

/** data[] items of an Image result with the field each carries (url first, as the default format). */
export function imageItems(body: unknown): ImageItem[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
  const items: ImageItem[] = [];
  body.data.forEach((item, i) => {
    if (!isRecord(item)) return;
    if (typeof item.b64_json === 'string') items.push({ pointer: `/data/${i}/b64_json`, kind: 'b64_json', value: item.b64_json });
    if (typeof item.url === 'string') items.push({ pointer: `/data/${i}/url`, kind: 'url', value: item.url });
  });
  return items;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 (RFC 4648 section 4, padded, no line breaks); undefined when the text is not base64. */
export function decodeBase64(text: string): Buffer | undefined {
  if (text.length === 0 || !BASE64.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

export function itemBytes(item: ImageItem, exchange: Exchange): ItemBytes {
  if (item.kind === 'b64_json') {
    const bytes = decodeBase64(item.value);
    return bytes ? { available: true, bytes, source: 'decoded b64_json' } : { available: false, reason: 'b64_json is not valid base64 (see image_b64_decodes)' };
  }
  const got = exchange.attachments[item.value];
  if (!got) return { available: false, reason: 'the URL was not fetched (the case has no follow: {urls: /data/*/url})' };
  if (got.error || got.status < 200 || got.status >= 300 || !got.bytes) {
    return { available: false, reason: `fetching the URL failed (${got.error ?? `status ${got.status}`}; see image_url_fetchable)` };
  }
  return { available: true, bytes: Buffer.from(got.bytes), source: 'content of the URL' };
}

const sniffCache = new WeakMap<Exchange, Map<string, Sniffed>>();

/** Sniff an item's bytes once per exchange (PNG decoding of a 1024x1024 image is not free). */
export function sniffItem(item: ImageItem, bytes: Buffer, exchange: Exchange): Sniffed {
  let cache = sniffCache.get(exchange);
  if (!cache) sniffCache.set(exchange, (cache = new Map()));
  const hit = cache.get(item.pointer);
  if (hit) return hit;
  const sniffed = sniffImage(bytes);
  cache.set(item.pointer, sniffed);
  return sniffed;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImage(bytes: Buffer): Sniffed {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    try {
      const info = readPngInfo(bytes);
      return { ok: true, format: 'png', width: info.width, height: info.height };
    } catch (e) {
      return { ok: false, error: `a PNG signature but not a valid PNG: ${(e as Error).message}` };
    }
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return sniffJpeg(bytes);
  if (bytes.length >= 10 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) {
    return { ok: true, format: 'gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 30 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return sniffWebp(bytes);
  const other = otherImageFormat(bytes);
  if (other) return { ok: false, unknown: true, error: `a ${other} image, whose size this harness does not read` };
  return { ok: false, error: `not a recognised image (PNG, JPEG, GIF or WebP); first bytes ${bytes.subarray(0, 8).toString('hex') || '(empty)'}` };
}

/** Image formats known by their signature only: the output format is not stated, so they are images too. */
function otherImageFormat(b: Buffer): string | undefined {
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp' && /^(avif|avis|heic|heix|mif1)$/.test(b.toString('latin1', 8, 12))) return 'AVIF/HEIF';
  if (b.length >= 4 && (b.toString('latin1', 0, 4) === 'II*\u0000' || b.toString('latin1', 0, 4) === 'MM\u0000*')) return 'TIFF';
  if (b.length >= 26 && b.toString('latin1', 0, 2) === 'BM') return 'BMP';
  return undefined;
}

function sniffJpeg(b: Buffer): Sniffed {
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return { ok: false, error: `a JPEG whose marker at byte ${o} is broken` };
    const marker = b[o + 1]!;
    if (marker === 0xff) { o++; continue; }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { o += 2; continue; }
    const length = b.readUInt16BE(o + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (o + 9 > b.length) break;
      return { ok: true, format: 'jpeg', width: b.readUInt16BE(o + 7), height: b.readUInt16BE(o + 5) };
    }
    o += 2 + length;
  }
  return { ok: false, error: 'a JPEG without a frame header (no dimensions)' };
}

function sniffWebp(b: Buffer): Sniffed {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { ok: true, format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { ok: true, format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { ok: true, format: 'webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return { ok: false, error: `a WebP with an unknown chunk ${JSON.stringify(chunk)}` };
}
