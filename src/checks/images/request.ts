// What the image request asked for (JSON body for generations, multipart fields for edits and
// variations), with the spec's defaults: n 1, size 1024x1024, response_format url (spec: Images).

import type { PlannedRequestView } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';

export const IMAGE_DEFAULTS = { n: 1, size: '1024x1024', response_format: 'url' } as const;
export const IMAGE_FORMATS = ['url', 'b64_json'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** A request field from the JSON body or the multipart form (multipart values are strings). */
export function requestField(request: PlannedRequestView, name: string): unknown {
  if (isRecord(request.json)) return request.json[name];
  return request.multipartFields?.[name];
}

/** The requested n (default 1); undefined when the request's n is not a positive integer. */
export function requestedN(request: PlannedRequestView): number | undefined {
  const raw = requestField(request, 'n');
  if (raw === undefined) return IMAGE_DEFAULTS.n;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** The requested size as [width, height] (default 1024x1024); undefined when it is not WxH. */
export function requestedSize(request: PlannedRequestView): { label: string; width: number; height: number } | undefined {
  const raw = requestField(request, 'size') ?? IMAGE_DEFAULTS.size;
  if (typeof raw !== 'string') return undefined;
  const m = /^(\d+)x(\d+)$/.exec(raw);
  return m ? { label: raw, width: Number(m[1]), height: Number(m[2]) } : undefined;
}

/** The requested response_format (default url); undefined when it is not one the spec lists. */
export function requestedFormat(request: PlannedRequestView): ImageFormat | undefined {
  const raw = requestField(request, 'response_format') ?? IMAGE_DEFAULTS.response_format;
  return (IMAGE_FORMATS as readonly unknown[]).includes(raw) ? (raw as ImageFormat) : undefined;
}
