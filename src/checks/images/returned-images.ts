// The returned images themselves: b64_json decodes (must: the field name says base64, and the
// image has a size), URLs can be fetched (should: the spec only says "string"), and the images are
// PNG (should: the output format is not stated).

import type { ResponseCheck, Finding } from '../types.ts';
import { notAnImageResult } from './common.ts';
import { decodeBase64, imageItems, itemBytes, sniffItem } from './image-bytes.ts';
import { requestedFormat } from './request.ts';

export const imageB64Decodes: ResponseCheck = {
  kind: 'response',
  name: 'image_b64_decodes',
  over: '/data/*',
  requirements: ['IMG-B64-DECODES'],
  severity: 'must',
  summary: 'every b64_json value is valid base64 of an image',
  // Only what was asked for: a b64_json beside a requested url is image_item_only_requested_format's (a should),
  // not a second failure of the same extra field.
  skipWhen: (ex, ctx) => notAnImageResult(ex)
    ?? (requestedFormat(ctx.request) === 'url' ? 'url was requested' : undefined)
    ?? (imageItems(ex.response!.json)!.some((i) => i.kind === 'b64_json') ? undefined : 'no data item carries b64_json'),
  run: (ex) => {
    const findings: Finding[] = [];
    for (const item of imageItems(ex.response!.json)!.filter((i) => i.kind === 'b64_json')) {
      const bytes = decodeBase64(item.value);
      if (!bytes) {
        findings.push({ pointer: item.pointer, message: 'b64_json is not valid base64 (RFC 4648 alphabet, padded, no line breaks)', expected: 'base64', actual: `${item.value.slice(0, 40)}… (${item.value.length} chars)` });
        continue;
      }
      const img = sniffItem(item, bytes, ex);
      // A format this reader does not know (AVIF, BMP…) is no proof that the base64 holds no image: IMG-OUTPUT-PNG
      // (a should) says what format is expected.
      if (!img.ok && !img.unknown) findings.push({ pointer: item.pointer, message: `b64_json decodes to ${bytes.length} bytes that are not an image: ${img.error}`, expected: 'an image', actual: bytes.subarray(0, 8).toString('hex') });
    }
    return findings;
  },
};

export const imageUrlFetchable: ResponseCheck = {
  kind: 'response',
  name: 'image_url_fetchable',
  over: '/data/*',
  requirements: ['IMG-URL-FETCHABLE'],
  severity: 'should',
  summary: 'every url is an absolute http(s) URL whose content, fetched without credentials, is an image',
  skipWhen: (ex) => {
    const not = notAnImageResult(ex);
    if (not) return not;
    if (!imageItems(ex.response!.json)!.some((i) => i.kind === 'url')) return 'no data item carries url';
    if (Object.keys(ex.attachments).length === 0) return 'the case does not follow the URLs (follow: {urls: /data/*/url})';
    return undefined;
  },
  run: (ex) => {
    const findings: Finding[] = [];
    for (const item of imageItems(ex.response!.json)!.filter((i) => i.kind === 'url')) {
      let url: URL | undefined;
      try {
        url = new URL(item.value);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        findings.push({ pointer: item.pointer, message: 'url is not an absolute http(s) URL', expected: 'http(s)://…', actual: item.value });
        continue;
      }
      const got = itemBytes(item, ex);
      if (!got.available) {
        findings.push({ pointer: item.pointer, message: got.reason, expected: '2xx with the image', actual: ex.attachments[item.value]?.status ?? 'not fetched' });
        continue;
      }
      const img = sniffItem(item, got.bytes, ex);
      if (!img.ok) findings.push({ pointer: item.pointer, message: `the URL's content is not an image: ${img.error}`, expected: 'an image', actual: `${ex.attachments[item.value]!.contentType || 'no content type'}, ${got.bytes.length} bytes` });
    }
    return findings;
  },
};

export const imageOutputPng: ResponseCheck = {
  kind: 'response',
  name: 'image_output_png',
  over: '/data/*',
  requirements: ['IMG-OUTPUT-PNG'],
  severity: 'should',
  summary: 'returned images (decoded b64_json or URL content) are PNG',
  skipWhen: (ex) => {
    const not = notAnImageResult(ex);
    if (not) return not;
    return imageItems(ex.response!.json)!.some((i) => itemBytes(i, ex).available) ? undefined : 'no image bytes available (URLs not followed or not fetchable, or b64_json not base64)';
  },
  run: (ex) => {
    const findings: Finding[] = [];
    for (const item of imageItems(ex.response!.json)!) {
      const got = itemBytes(item, ex);
      if (!got.available) continue;
      const img = sniffItem(item, got.bytes, ex);
      if (!img.ok || img.format !== 'png') findings.push({ pointer: item.pointer, message: `the ${got.source} is not a PNG`, expected: 'png', actual: img.ok ? img.format : img.error });
    }
    return findings;
  },
};
