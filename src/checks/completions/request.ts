// Reading the planned request and the response the way the completion/chat/edit rules need them.
// Pure helpers: no I/O, shared by the text-area checks (completions, chat, edits, models, engines, auth).

import type { CheckContext, Finding } from '../types.ts';
import type { Exchange, SseEvent } from '../../transport/types.ts';
import { isRecord } from '../../util/json-type.ts';
import { eventJson } from '../stream/event-json.ts';

/** The request's JSON body as a record ({} when there is none). */
export function requestJson(ctx: CheckContext): Record<string, unknown> {
  return isRecord(ctx.request.json) ? ctx.request.json : {};
}

/** A request field, treating null as "not given" (the spec's defaults apply). */
export function given(json: Record<string, unknown>, name: string): unknown {
  const v = json[name];
  return v === null ? undefined : v;
}

/** An integer request field with its spec default; undefined when it is present but not an integer. */
export function intField(json: Record<string, unknown>, name: string, fallback: number): number | undefined {
  const v = given(json, name);
  if (v === undefined) return fallback;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/**
 * How many prompts a completion request carries (Create completion: prompt is a string, an array of strings,
 * an array of tokens, or an array of token arrays; omitted = the end-of-document token, one prompt).
 */
export function promptCount(prompt: unknown): number | undefined {
  if (prompt === undefined || prompt === null || typeof prompt === 'string') return 1;
  if (!Array.isArray(prompt) || prompt.length === 0) return undefined;
  if (prompt.every((p) => typeof p === 'string')) return prompt.length;
  if (prompt.every((p) => typeof p === 'number')) return 1;
  if (prompt.every((p) => Array.isArray(p))) return prompt.length;
  return undefined;
}

/** The prompts as text, when the request gave them as text (string or array of strings). */
export function textPrompts(prompt: unknown): string[] | undefined {
  if (typeof prompt === 'string') return [prompt];
  if (Array.isArray(prompt) && prompt.length > 0 && prompt.every((p) => typeof p === 'string')) return prompt as string[];
  return undefined;
}

/** Stop sequences of the request (string or array; null/absent = none). Empty strings stop nothing. */
export function stopSequences(json: Record<string, unknown>): string[] {
  const stop = given(json, 'stop');
  if (typeof stop === 'string') return stop === '' ? [] : [stop];
  if (Array.isArray(stop)) return stop.filter((s): s is string => typeof s === 'string' && s !== '');
  return [];
}

/** The response body when the request succeeded with a JSON object, else a reason to skip. */
export function okBody(exchange: Exchange): Record<string, unknown> | undefined {
  const r = exchange.response;
  if (!r || r.status < 200 || r.status >= 300) return undefined;
  return isRecord(r.json) ? r.json : undefined;
}

export function skipUnlessOk(exchange: Exchange): string | undefined {
  const r = exchange.response;
  if (!r) return 'no response';
  if (r.status < 200 || r.status >= 300) return `the request was not served (status ${r.status}); the status check reports that`;
  if (!isRecord(r.json)) return 'the body is not a JSON object; the schema check reports that';
  return undefined;
}

/** choices[] of a body, or a finding saying it is missing. */
export function choicesOf(body: Record<string, unknown>): { choices: Record<string, unknown>[] } | { finding: Finding } {
  const choices = body.choices;
  if (!Array.isArray(choices)) return { finding: { pointer: '/choices', message: 'choices is missing or not an array', expected: 'an array', actual: choices ?? 'absent' } };
  return { choices: choices.map((c) => (isRecord(c) ? c : {})) };
}

/** usage.<name> as a number, or undefined. */
export function usageCount(body: Record<string, unknown>, name: string): number | undefined {
  const usage = body.usage;
  if (!isRecord(usage)) return undefined;
  const v = usage[name];
  return typeof v === 'number' ? v : undefined;
}

/** Indices 0..k-1 each exactly once: the findings when not. */
export function indexFindings(indices: unknown[], k: number, pointerOf: (i: number) => string, what: string): Finding[] {
  const findings: Finding[] = [];
  const seen = new Map<number, number>();
  indices.forEach((index, i) => {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= k) {
      findings.push({ pointer: pointerOf(i), message: `${what} index ${JSON.stringify(index)} is outside 0..${k - 1}`, expected: `an integer in 0..${k - 1}`, actual: index ?? 'absent' });
      return;
    }
    if (seen.has(index)) findings.push({ pointer: pointerOf(i), message: `${what} index ${index} occurs twice (also at position ${seen.get(index)})`, expected: 'each index once', actual: index });
    else seen.set(index, i);
  });
  const missing = Array.from({ length: k }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length) findings.push({ pointer: '/choices', message: `no ${what} with index ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`, expected: `indices 0..${k - 1}`, actual: [...seen.keys()].sort((a, b) => a - b) });
  return findings;
}

// ---- streams ------------------------------------------------------------------------------------

export const isDone = (e: SseEvent): boolean => e.data.trim() === '[DONE]';

/** choices[] of one streamed chunk, or undefined when the event is [DONE] or not a chunk with choices. */
export function chunkChoices(event: SseEvent): Record<string, unknown>[] | undefined {
  if (isDone(event)) return undefined;
  let v: unknown;
  try { v = eventJson(event); } catch { return undefined; }
  if (!isRecord(v) || !Array.isArray(v.choices)) return undefined;
  return v.choices.map((c) => (isRecord(c) ? c : {}));
}

/**
 * Skip reason for checks that read streamed chunks: the chunk shape is "not shown" (Events 5), so these
 * rules are evaluated only when the chunks carry choices[] (the service's convention; sse_chunk_schema
 * reports chunks that do not).
 */
export function skipUnlessChunkStream(exchange: Exchange): string | undefined {
  if (!exchange.stream) return 'the response was not read as an event stream (status or content type); the stream rule checks report that';
  const first = exchange.stream.sample.find((e) => !isDone(e));
  if (first && chunkChoices(first) === undefined) return 'the chunks carry no choices[] array (chunk shapes are not shown by the spec, Events 5; sse_chunk_schema reports it), so the choices cannot be assembled';
  return undefined;
}
