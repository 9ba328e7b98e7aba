// Reading fine-tune jobs, their create requests and their events out of exchanges.

import type { Exchange } from '../../transport/types.ts';
import type { CheckContext } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { bodyOf, historyParam, sentJson } from '../files/support.ts';

export type Job = Record<string, unknown>;

export const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
export const DEFAULT_BASE_MODEL = 'curie';

export interface EventView {
  index: number;
  message: string;
  level: unknown;
  created_at: unknown;
}

export function eventsOf(value: unknown): EventView[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((e, index) => (isRecord(e) ? { index, message: typeof e.message === 'string' ? e.message : '', level: e.level, created_at: e.created_at } : { index, message: '', level: undefined, created_at: undefined }));
}

/**
 * The create request of a job: `with: { create: <case id> }` names the case that created it; without
 * the parameter the exchange itself is the create request.
 */
export function createRequestOf(ctx: CheckContext): Record<string, unknown> | undefined {
  if (ctx.params.create === undefined) return isRecord(ctx.request.json) ? ctx.request.json : undefined;
  return sentJson(historyParam(ctx, 'create').exchange);
}

/** Skip reason when `with: { create }` names a case that did not send a JSON body. */
export function unlessCreateKnown(ctx: CheckContext): string | undefined {
  if (ctx.params.create === undefined) return isRecord(ctx.request.json) ? undefined : 'the request has no JSON body (name the create case with `with: { create: <case id> }`)';
  const { caseId, exchange } = historyParam(ctx, 'create');
  if (!exchange) return `case "${caseId}" did not run`;
  return sentJson(exchange) ? undefined : `case "${caseId}" sent no JSON body`;
}

/** The job a history case returned (`with: { <param>: <case id> }`). */
export function historyJob(ctx: CheckContext, param: string): Job | undefined {
  const { exchange } = historyParam(ctx, param);
  return exchange ? jobIn(exchange) : undefined;
}

export function jobIn(exchange: Exchange): Job | undefined {
  const status = exchange.response?.status ?? 0;
  if (status < 200 || status >= 300) return undefined;
  return bodyOf(exchange);
}

/** The base model a name belongs to: `curie` for `curie` and for `curie:ft-acme-2023-…`. */
export function baseOf(model: string): string {
  const colon = model.indexOf(':');
  return colon < 0 ? model : model.slice(0, colon);
}

/** The suffix requested at creation (null/absent/empty = none). */
export function requestedSuffix(create: Record<string, unknown> | undefined): string | undefined {
  const s = create?.suffix;
  return typeof s === 'string' && s !== '' ? s : undefined;
}
