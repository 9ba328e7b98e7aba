// Resources / Image result: "Each data item carries the field that matches the requested response_format."
// response_format defaults to url (Images). That the item carries only that field is a stricter reading of
// `{url: string} or {b64_json: string}`: an item with both still carries the requested one (a should).

import type { ResponseCheck, Finding } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { notAnImageResult } from './common.ts';
import { requestedFormat } from './request.ts';

export const imageItemMatchesFormat: ResponseCheck = {
  kind: 'response',
  name: 'image_item_matches_format',
  over: '/data/*',
  requirements: ['RES-IMAGE-ITEM-MATCHES-FORMAT'],
  severity: 'must',
  summary: 'each data item carries the field of the requested response_format (default url)',
  skipWhen: (ex, ctx) =>
    notAnImageResult(ex) ?? (requestedFormat(ctx.request) ? undefined : 'the request names a response_format the spec does not list'),
  run: (ex, ctx) => {
    const format = requestedFormat(ctx.request)!;
    const other = format === 'url' ? 'b64_json' : 'url';
    const data = (ex.response!.json as { data: unknown[] }).data;
    const findings: Finding[] = [];
    data.forEach((item, i) => {
      if (!isRecord(item)) {
        findings.push({ pointer: `/data/${i}`, message: 'a data item is not an object', expected: `{${format}: string}`, actual: item });
        return;
      }
      if (typeof item[format] !== 'string') {
        findings.push({ pointer: `/data/${i}/${format}`, message: `response_format ${format} was requested, but the item has no ${format} string`, expected: 'a string', actual: item[format] ?? 'absent' });
      }
    });
    return findings;
  },
};

export const imageItemOnlyRequestedFormat: ResponseCheck = {
  kind: 'response',
  name: 'image_item_only_requested_format',
  over: '/data/*',
  requirements: ['RES-IMAGE-ITEM-ONE-FORMAT'],
  severity: 'should',
  summary: 'a data item carries the field of the requested response_format and not the other one',
  after: ['image_item_matches_format'],
  skipWhen: imageItemMatchesFormat.skipWhen!,
  run: (ex, ctx) => {
    const format = requestedFormat(ctx.request)!;
    const other = format === 'url' ? 'b64_json' : 'url';
    const data = (ex.response!.json as { data: unknown[] }).data;
    return data.flatMap((item, i): Finding[] => (isRecord(item) && item[other] !== undefined
      ? [{ pointer: `/data/${i}/${other}`, message: `response_format ${format} was requested, but the item also carries ${other}`, expected: 'absent', actual: typeof item[other] === 'string' ? `${(item[other] as string).slice(0, 40)}…` : item[other] }]
      : []));
  },
};
