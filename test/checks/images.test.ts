// Images checks: each rule with an exchange that passes and one that fails.
import { describe, expect, it } from 'vitest';
import { makePng } from '../../src/fixtures/png.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { IMAGES_CHECKS } from '../../src/checks/images/index.ts';
import { decodeBase64, sniffImage } from '../../src/checks/images/image-bytes.ts';
import { findingsOf, type Check, type CheckContext, type PlannedRequestView, type ResponseCheck } from '../../src/checks/types.ts';
import type { Attachment, Exchange } from '../../src/transport/types.ts';

const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'http://127.0.0.1:1' });

function exchangeOf(json: unknown, opts: { status?: number; attachments?: Record<string, Attachment> } = {}): Exchange {
  const text = JSON.stringify(json);
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/images/generations', headers: {}, body: { kind: 'none' } },
    response: { status: opts.status ?? 200, headers: { 'content-type': 'application/json' }, text, json, truncated: false },
    attachments: opts.attachments ?? {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}

function gen(json: Record<string, unknown>): PlannedRequestView {
  return { method: 'POST', path: '/v1/images/generations', query: {}, json: { prompt: 'p', ...json }, stream: false };
}
function form(path: string, fields: Record<string, string>): PlannedRequestView {
  return { method: 'POST', path, query: {}, multipartFields: fields, stream: false };
}

function run(name: string, exchange: Exchange, request: PlannedRequestView): { skip?: string; findings: number; messages: string[] } {
  const check = IMAGES_CHECKS.find((c: Check) => c.name === name) as ResponseCheck | undefined;
  if (!check) throw new Error(`no check ${name}`);
  const ctx: CheckContext = { request, profile, vars: {}, schemas, params: {}, history: new Map() };
  const skip = check.skipWhen?.(exchange, ctx);
  if (skip) return { skip, findings: 0, messages: [] };
  const findings = findingsOf(check.run(exchange, ctx));
  return { findings: findings.length, messages: findings.map((f) => f.message) };
}

const png = (side: number, h = side) => makePng({ width: side, height: h, alpha: 'opaque' });
const b64 = (buf: Buffer) => buf.toString('base64');
const url = 'http://img.example/a.png';
const fetched = (bytes: Buffer, status = 200): Record<string, Attachment> => ({ [url]: { status, contentType: 'image/png', bytes } });

interface Case {
  check: string;
  title: string;
  request: PlannedRequestView;
  exchange: Exchange;
  /** 'pass' | 'fail' | 'skip' */
  outcome: 'pass' | 'fail' | 'skip';
}

const p256 = png(256);
const cases: Case[] = [
  // image_item_matches_format
  { check: 'image_item_matches_format', title: 'default url, url items', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'pass' },
  { check: 'image_item_matches_format', title: 'default url, b64 items', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ b64_json: 'AAAA' }] }), outcome: 'fail' },
  { check: 'image_item_matches_format', title: 'b64_json requested, b64 items', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: 'AAAA' }] }), outcome: 'pass' },
  { check: 'image_item_matches_format', title: 'b64_json requested, url items', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'fail' },
  // An item with both still carries the requested field: only the should check objects.
  { check: 'image_item_matches_format', title: 'both fields', request: gen({ response_format: 'url' }), exchange: exchangeOf({ created: 1, data: [{ url, b64_json: 'AAAA' }] }), outcome: 'pass' },
  { check: 'image_item_only_requested_format', title: 'both fields', request: gen({ response_format: 'url' }), exchange: exchangeOf({ created: 1, data: [{ url, b64_json: 'AAAA' }] }), outcome: 'fail' },
  { check: 'image_item_only_requested_format', title: 'b64_json requested, both fields', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: 'AAAA', url }] }), outcome: 'fail' },
  { check: 'image_item_only_requested_format', title: 'url items only', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'pass' },
  { check: 'image_item_matches_format', title: 'multipart b64_json', request: form('/v1/images/variations', { response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: 'AAAA' }] }), outcome: 'pass' },
  { check: 'image_item_matches_format', title: 'error response', request: gen({}), exchange: exchangeOf({ error: {} }, { status: 400 }), outcome: 'skip' },
  // count
  { check: 'image_generation_count_is_n', title: 'default n 1', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'pass' },
  { check: 'image_generation_count_is_n', title: 'default n 1, two items', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }, { url }] }), outcome: 'fail' },
  { check: 'image_generation_count_is_n', title: 'n 3', request: gen({ n: 3 }), exchange: exchangeOf({ created: 1, data: [{ url }, { url }, { url }] }), outcome: 'pass' },
  { check: 'image_edit_count_is_n', title: 'multipart n "2", one item', request: form('/v1/images/edits', { n: '2' }), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'fail' },
  { check: 'image_edit_count_is_n', title: 'multipart default n, one item', request: form('/v1/images/edits', {}), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'pass' },
  { check: 'image_variation_count_is_n', title: 'multipart n "2", three items', request: form('/v1/images/variations', { n: '2' }), exchange: exchangeOf({ created: 1, data: [{ url }, { url }, { url }] }), outcome: 'fail' },
  { check: 'image_variation_count_is_n', title: 'multipart n "2", two items', request: form('/v1/images/variations', { n: '2' }), exchange: exchangeOf({ created: 1, data: [{ url }, { url }] }), outcome: 'pass' },
  // size
  { check: 'image_generation_size_matches', title: 'b64 256 for 256x256', request: gen({ size: '256x256', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(p256) }] }), outcome: 'pass' },
  { check: 'image_generation_size_matches', title: 'b64 512 for 256x256', request: gen({ size: '256x256', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(png(512)) }] }), outcome: 'fail' },
  { check: 'image_generation_size_matches', title: 'url 256 for 256x256 (followed)', request: gen({ size: '256x256' }), exchange: exchangeOf({ created: 1, data: [{ url }] }, { attachments: fetched(p256) }), outcome: 'pass' },
  { check: 'image_generation_size_matches', title: 'url 256 for the default 1024x1024', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }, { attachments: fetched(p256) }), outcome: 'fail' },
  { check: 'image_generation_size_matches', title: 'url not followed', request: gen({ size: '256x256' }), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'skip' },
  { check: 'image_edit_size_matches', title: 'non-image bytes', request: form('/v1/images/edits', { size: '256x256', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(Buffer.from('hello world!')) }] }), outcome: 'fail' },
  { check: 'image_edit_size_matches', title: 'a BMP (the output format is not stated): no finding (its size is not exercised)', request: form('/v1/images/edits', { size: '256x256', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])) }] }), outcome: 'pass' },
  { check: 'image_b64_decodes', title: 'a BMP is an image too', request: form('/v1/images/edits', { size: '256x256', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])) }] }), outcome: 'pass' },
  { check: 'image_edit_size_matches', title: 'multipart default 1024x1024', request: form('/v1/images/edits', { response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(png(1024)) }] }), outcome: 'pass' },
  { check: 'image_variation_size_matches', title: 'multipart 512x512 but 256', request: form('/v1/images/variations', { size: '512x512', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(p256) }] }), outcome: 'fail' },
  { check: 'image_variation_size_matches', title: 'multipart 512x512', request: form('/v1/images/variations', { size: '512x512', response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(png(512)) }] }), outcome: 'pass' },
  // b64 decodes
  { check: 'image_b64_decodes', title: 'valid PNG', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(p256) }] }), outcome: 'pass' },
  { check: 'image_b64_decodes', title: 'not base64', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: 'not base64!' }] }), outcome: 'fail' },
  { check: 'image_b64_decodes', title: 'truncated PNG', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(p256.subarray(0, 60)) }] }), outcome: 'fail' },
  { check: 'image_b64_decodes', title: 'url items only', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'skip' },
  { check: 'image_b64_decodes', title: 'url requested, an extra b64_json (the should check reports it)', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url, b64_json: 'string' }] }), outcome: 'skip' },
  // url fetchable
  { check: 'image_url_fetchable', title: 'fetched PNG', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }, { attachments: fetched(p256) }), outcome: 'pass' },
  { check: 'image_url_fetchable', title: '404', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }, { attachments: fetched(Buffer.from('nope'), 404) }), outcome: 'fail' },
  { check: 'image_url_fetchable', title: 'relative url', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url: '/a.png' }] }, { attachments: { '/a.png': { status: 0, contentType: '', error: 'not a fetchable URL' } } }), outcome: 'fail' },
  { check: 'image_url_fetchable', title: 'not followed', request: gen({}), exchange: exchangeOf({ created: 1, data: [{ url }] }), outcome: 'skip' },
  // png
  { check: 'image_output_png', title: 'PNG', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(p256) }] }), outcome: 'pass' },
  { check: 'image_output_png', title: 'GIF', request: gen({ response_format: 'b64_json' }), exchange: exchangeOf({ created: 1, data: [{ b64_json: b64(Buffer.from('GIF89a\x00\x01\x00\x01', 'latin1')) }] }), outcome: 'fail' },
];

describe('images checks', () => {
  it.each(cases)('$check — $title → $outcome', (c) => {
    const got = run(c.check, c.exchange, c.request);
    const outcome = got.skip ? 'skip' : got.findings > 0 ? 'fail' : 'pass';
    expect(outcome, got.skip ?? got.messages.join('; ')).toBe(c.outcome);
  });

  it('every registered images check has a passing and a failing case', () => {
    for (const check of IMAGES_CHECKS) {
      expect(cases.some((c) => c.check === check.name && c.outcome === 'pass'), check.name).toBe(true);
      expect(cases.some((c) => c.check === check.name && c.outcome === 'fail'), check.name).toBe(true);
    }
  });
});

describe('image bytes', () => {
  it('decodes only strict base64', () => {
    expect(decodeBase64('AAAA')).toEqual(Buffer.from([0, 0, 0]));
    expect(decodeBase64('AAA=')).toBeDefined();
    expect(decodeBase64('AAA')).toBeUndefined();
    expect(decodeBase64('AA\nAA')).toBeUndefined();
    expect(decodeBase64('')).toBeUndefined();
  });

  it('reads PNG, GIF, JPEG and WebP dimensions', () => {
    expect(sniffImage(makePng({ width: 3, height: 2 }))).toMatchObject({ ok: true, format: 'png', width: 3, height: 2 });
    expect(sniffImage(Buffer.from('GIF89a\x05\x00\x07\x00', 'latin1'))).toMatchObject({ ok: true, format: 'gif', width: 5, height: 7 });
    // SOI, APP0 (length 4), SOF0 with height 0x0102 and width 0x0304.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x02, 0x03, 0x04, 0x03]);
    expect(sniffImage(jpeg)).toMatchObject({ ok: true, format: 'jpeg', width: 0x0304, height: 0x0102 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(99, 24, 3);
    webp.writeUIntLE(49, 27, 3);
    expect(sniffImage(webp)).toMatchObject({ ok: true, format: 'webp', width: 100, height: 50 });
    expect(sniffImage(Buffer.from('plain text'))).toMatchObject({ ok: false });
  });
});
