// Helpers shared by the files and fine-tunes checks: reading bodies, earlier exchanges, request paths.

import type { Exchange, MultipartFileSummary } from '../../transport/types.ts';
import type { CheckContext, Finding } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { isSuccess } from '../../util/status.ts';

/** The JSON object body of a response, or undefined. */
export function bodyOf(exchange: Exchange): Record<string, unknown> | undefined {
  const json = exchange.response?.json;
  return isRecord(json) ? json : undefined;
}

/** Skip reason when the response is not a 2xx JSON object (status/schema results report that). */
export function unlessOkJson(exchange: Exchange): string | undefined {
  const status = exchange.response?.status;
  if (status === undefined) return 'no response';
  if (status < 200 || status >= 300) return `the request was not accepted (status ${status}); the status result reports that`;
  return bodyOf(exchange) ? undefined : 'the body is not a JSON object';
}

/** Skip reason when the response is not 2xx (for non-JSON bodies such as file content). */
export function unlessOk(exchange: Exchange): string | undefined {
  const status = exchange.response?.status;
  if (status === undefined) return 'no response';
  return isSuccess(status) ? undefined : `the request was not accepted (status ${status})`;
}

/** The earlier exchange named by `with: {<param>: <case id>}`. Throws when the suite forgot the parameter. */
export function historyParam(ctx: CheckContext, param: string): { caseId: string; exchange: Exchange | undefined } {
  const caseId = ctx.params[param];
  if (typeof caseId !== 'string' || caseId === '') throw new Error(`needs \`with: { ${param}: <case id> }\``);
  return { caseId, exchange: ctx.history.get(caseId) };
}

/** Skip reason when the earlier case named by `param` did not produce a 2xx JSON object. */
export function unlessHistoryOk(ctx: CheckContext, param: string): string | undefined {
  const { caseId, exchange } = historyParam(ctx, param);
  if (!exchange) return `case "${caseId}" did not run`;
  const why = unlessOkJson(exchange);
  return why ? `case "${caseId}": ${why}` : undefined;
}

/** The JSON body an earlier request sent (the create request of a job, for example). */
export function sentJson(exchange: Exchange | undefined): Record<string, unknown> | undefined {
  const body = exchange?.request.body;
  return body?.kind === 'json' && isRecord(body.value) ? body.value : undefined;
}

/** The file part of a multipart upload, as sent (size and sha256 of the exact bytes). */
export function uploadedFile(exchange: Exchange | undefined, field = 'file'): MultipartFileSummary | undefined {
  const body = exchange?.request.body;
  return body?.kind === 'multipart' ? body.files.find((f) => f.field === field) : undefined;
}

/** A required string parameter of the check (`with:`), e.g. the id a list must contain. */
export function stringParam(ctx: CheckContext, name: string): string {
  const v = ctx.params[name];
  if (typeof v !== 'string' || v === '') throw new Error(`needs \`with: { ${name}: <string> }\` (got ${JSON.stringify(v)})`);
  return v;
}

export function finding(pointer: string, message: string, expected?: unknown, actual?: unknown): Finding {
  return { pointer, message, ...(expected !== undefined ? { expected } : {}), ...(actual !== undefined ? { actual } : {}) };
}
