// POST /v1/images/generations | edits | variations, and GET /images/<name>.png (public downloads).
// Images are real PNGs of exactly the requested size: a flat colour picked deterministically from
// the prompt (or the input image), encoded once per (size, colour) and cached.
import { PNG } from 'pngjs';
import { readPngInfo } from '../fixtures/png.ts';
import type { Ctx } from './context.ts';
import { invalidRequest, notFound } from './http-errors.ts';
import { sendBytes } from './http-io.ts';
import { LIMITS } from './limits.ts';
import { parseMultipart } from './multipart.ts';
import type { FormData, UploadedFile } from './multipart.ts';
import { hashParts, unixSeconds } from './random.ts';
import { Fields, parseJsonObject } from './validate.ts';

type ImageSize = (typeof LIMITS.imageSizes)[number];
type ResponseFormat = (typeof LIMITS.imageResponseFormats)[number];

const PALETTE_SIZE = 64;
const encodedCache = new Map<string, Buffer>();

/** Colour `i` of a fixed palette of evenly spaced hues (bounded, so the encode cache stays small). */
function paletteColour(i: number): string {
  const hue = (i % PALETTE_SIZE) / PALETTE_SIZE;
  const channel = (offset: number) => Math.round(127 + 100 * Math.cos(2 * Math.PI * (hue + offset)));
  return [channel(0), channel(1 / 3), channel(2 / 3)].map((c) => c.toString(16).padStart(2, '0')).join('');
}

export function encodeFlatPng(width: number, height: number, hex: string): Buffer {
  const key = `${width}x${height}-${hex}`;
  const cached = encodedCache.get(key);
  if (cached) return cached;
  const png = new PNG({ width, height });
  png.data.fill(Buffer.from([parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16), 255]));
  const encoded = PNG.sync.write(png, { colorType: 2, deflateLevel: 6 });
  encodedCache.set(key, encoded);
  return encoded;
}

interface ImageOptions {
  n: number;
  size: ImageSize;
  responseFormat: ResponseFormat;
}

function readImageOptions(ctx: Ctx, fields: Fields, kind: 'generation' | 'edit' | 'variation' = 'generation'): ImageOptions {
  const requestedN = fields.integer('n', { min: LIMITS.imageN.min, max: ctx.fault('image-n-11-accepted') ? undefined : LIMITS.imageN.max }) ?? 1;
  const n = kind === 'variation' && ctx.fault('image-variation-n-ignored') ? 1 : requestedN;
  const size = fields.oneOf('size', LIMITS.imageSizes, '1024x1024');
  const requestedFormat = fields.oneOf('response_format', LIMITS.imageResponseFormats, 'url');
  const responseFormat = kind !== 'generation' && ctx.fault('image-edit-format-ignored') ? 'url' : requestedFormat;
  fields.string('user', { allowEmpty: true });
  return { n, size, responseFormat };
}

function readPrompt(ctx: Ctx, fields: Fields, kind: 'generation' | 'edit' = 'generation'): string {
  const maxLength = ctx.fault('image-prompt-1001-accepted') ? undefined : LIMITS.imagePromptChars;
  if (kind === 'edit' && ctx.fault('image-edit-prompt-optional')) return fields.string('prompt', { maxLength }) ?? '';
  return fields.string('prompt', { required: true, maxLength });
}

function respond(ctx: Ctx, opts: ImageOptions, seedText: string): unknown {
  const side = ctx.fault('image-size-ignored') ? 512 : Number(opts.size.split('x')[0]);
  const data = Array.from({ length: opts.n }, (_, i) => {
    const hex = paletteColour(hashParts(ctx.app.options.seed, seedText, i));
    const url = `${ctx.app.url}/images/${ctx.fault('image-url-404') ? 'expired/' : ''}${side}x${side}-${hex}-${ctx.app.ids.next('', 16)}.png`;
    if (ctx.fault('image-item-both-fields')) return { url, b64_json: encodeFlatPng(side, side, hex).toString('base64') };
    if (opts.responseFormat === 'b64_json' && !ctx.fault('b64-json-returns-url')) {
      if (ctx.fault('image-b64-not-png')) return { b64_json: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), encodeFlatPng(side, side, hex)]).toString('base64') };
      const b64Side = ctx.fault('image-b64-size-ignored') ? 256 : side;
      return { b64_json: encodeFlatPng(b64Side, b64Side, hex).toString('base64') };
    }
    return { url };
  });
  return { created: unixSeconds(), data };
}

export function createImage(ctx: Ctx): unknown {
  const fields = new Fields(parseJsonObject(ctx.body));
  const prompt = readPrompt(ctx, fields);
  return respond(ctx, readImageOptions(ctx, fields), prompt);
}

interface CheckedPng {
  width: number;
  height: number;
  hasAlpha: boolean;
  hasTransparentPixel: boolean;
}

function checkPng(ctx: Ctx, file: UploadedFile | undefined, param: 'image' | 'mask'): CheckedPng {
  if (!file) throw invalidRequest(`'${param}' is a required property`, param);
  const sizeUnchecked = ctx.fault(param === 'mask' ? 'image-mask-size-unchecked' : 'image-edit-size-unchecked');
  if (file.data.length >= LIMITS.imageFileBytes && !sizeUnchecked) {
    throw invalidRequest(`Invalid input ${param} - ${param} must be less than 4 MB (got ${file.data.length} bytes).`, param);
  }
  let info;
  try {
    info = readPngInfo(file.data);
  } catch {
    // The fault checks the size only: a non-PNG passes as a square image without transparency information.
    if (param === 'image' && ctx.fault('image-edit-accepts-jpeg')) return { width: 256, height: 256, hasAlpha: true, hasTransparentPixel: true };
    throw invalidRequest(`Invalid input ${param} - format must be a valid PNG.`, param);
  }
  if (info.width !== info.height && !ctx.fault('image-edit-accepts-non-square')) {
    throw invalidRequest(`Invalid input ${param} - ${param} must be square (got ${info.width}x${info.height}).`, param);
  }
  return info;
}

function readForm(ctx: Ctx): FormData {
  return parseMultipart(ctx.body, ctx.req.headers['content-type']);
}

/** "must have transparency": transparent pixels, or (the reading transparency-alpha-channel) an alpha channel at all. */
function hasTransparency(ctx: Ctx, image: CheckedPng): boolean {
  return ctx.reading('transparency-alpha-channel') ? image.hasAlpha : image.hasTransparentPixel;
}

export function createImageEdit(ctx: Ctx): unknown {
  const form = readForm(ctx);
  const fields = new Fields(form.fields, true);
  const image = checkPng(ctx, form.files.image, 'image');
  const prompt = readPrompt(ctx, fields, 'edit');
  if (form.files.mask) {
    const mask = checkPng(ctx, form.files.mask, 'mask');
    if ((mask.width !== image.width || mask.height !== image.height) && !ctx.fault('image-mask-dimension-mismatch-accepted')) {
      throw invalidRequest(`Invalid input mask - mask and image must have the same dimensions (image ${image.width}x${image.height}, mask ${mask.width}x${mask.height}).`, 'mask');
    }
  } else if (!hasTransparency(ctx, image) && !ctx.fault('image-edit-opaque-without-mask')) {
    // Without a mask the transparent area of the image is the mask, so there must be one.
    throw invalidRequest('Invalid input image - image must have transparency (an alpha channel with transparent pixels) when no mask is given.', 'image');
  }
  return respond(ctx, readImageOptions(ctx, fields, 'edit'), `${prompt}|${hashParts(form.files.image!.data.subarray(0, 4096).toString('latin1'))}`);
}

export function createImageVariation(ctx: Ctx): unknown {
  const form = readForm(ctx);
  const fields = new Fields(form.fields, true);
  checkPng(ctx, form.files.image, 'image');
  return respond(ctx, readImageOptions(ctx, fields, 'variation'), `variation|${hashParts(form.files.image!.data.subarray(0, 4096).toString('latin1'))}`);
}

const IMAGE_NAME = /^(\d+)x(\d+)-([0-9a-f]{6})-[A-Za-z0-9]+\.png$/;
const SERVABLE_SIDES = new Set([256, 512, 1024]);

/** GET /images/:name — the URL form of generated images; the name encodes size and colour. */
export function downloadImage(ctx: Ctx): undefined {
  const m = IMAGE_NAME.exec(ctx.params.name ?? '');
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  if (!m || width !== height || !SERVABLE_SIDES.has(width)) throw notFound(`No such image: ${ctx.params.name}`);
  sendBytes(ctx.res, 200, 'image/png', encodeFlatPng(width, height, m[3]!), { 'Cache-Control': 'public, max-age=3600' });
  return undefined;
}
