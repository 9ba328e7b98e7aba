// The built-in expectations of a case: status, schema, headers. They cite the case's requirements.

import type { Exchange } from '../transport/types.ts';
import type { HeaderExpectation, StatusExpectation } from '../suite/types.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { Finding } from './types.ts';
import { escapeToken } from '../util/pointer.ts';

/**
 * A refusal is a 4xx, or a 5xx that carries an error body (`{"error": ...}` or a problem document): the spec
 * states no status codes (Errors 1), so a server that refuses invalid input with 500 still refuses it. Which
 * class a refusal should have is ERR-4XX-NOT-5XX, a should. A 5xx without an error body is a crash, not a refusal.
 */
export function isRefusal(status: number, json: unknown): boolean {
  if (status >= 400 && status < 500) return true;
  return status >= 500 && status < 600 && hasErrorBody(json);
}

function hasErrorBody(json: unknown): boolean {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return false;
  const o = json as Record<string, unknown>;
  return (o['error'] !== undefined && o['error'] !== null) || typeof o['detail'] === 'string' || typeof o['title'] === 'string';
}

export function statusMatches(status: number, expected: StatusExpectation): boolean {
  if (typeof expected === 'number') return status === expected;
  if (Array.isArray(expected)) return expected.includes(status);
  return Math.floor(status / 100) === Number(expected[0]);
}

export function describeStatus(expected: StatusExpectation): string {
  return Array.isArray(expected) ? expected.join(' or ') : String(expected);
}

export function checkStatus(exchange: Exchange, expected: StatusExpectation): Finding[] {
  const status = exchange.response?.status;
  if (status === undefined) return [{ pointer: '', message: 'no response status', expected: describeStatus(expected), actual: 'no response' }];
  if (statusMatches(status, expected)) return [];
  if (expected === '4xx' && isRefusal(status, exchange.response?.json)) return [];
  const why = typeof expected === 'string' && expected === '4xx' && status >= 500
    ? 'a server error without an error body is no refusal: the request was not judged, it crashed the server'
    : typeof expected === 'string' && expected === '4xx' && status < 300
      ? 'the request breaks a rule of the spec, yet it was accepted'
      : `expected ${describeStatus(expected)}, got ${status}`;
  return [{ pointer: '', message: why, expected: describeStatus(expected), actual: status }];
}

/**
 * The rule each resource schema stands for. A body that breaks its schema breaks that rule, not every rule its case
 * cites: "temperature 1.5 is accepted" is judged on the status alone, and a missing `created` is RES-CHAT's failure.
 * A schema not listed (a user's own) is charged to its case's requirements.
 */
export const SCHEMA_RULES: Readonly<Record<string, readonly string[]>> = {
  'resources/completion.schema.json': ['RES-COMPLETION'],
  'resources/chat-completion.schema.json': ['RES-CHAT'],
  'resources/edit.schema.json': ['RES-EDIT'],
  'resources/image-result.schema.json': ['RES-IMAGE'],
  'resources/embedding-result.schema.json': ['RES-EMBEDDING'],
  'resources/transcription-json.schema.json': ['RES-TRANSCRIPTION-JSON'],
  'resources/transcription-verbose-json.schema.json': ['AUDIO-FORMAT-VERBOSE-JSON'],
  'resources/file.schema.json': ['RES-FILE'],
  'resources/file-list.schema.json': ['RES-FILE-LIST'],
  'resources/file-deleted.schema.json': ['RES-FILE-DELETED'],
  'resources/fine-tune-with-events.schema.json': ['RES-FT-JOB'],
  'resources/fine-tune-list.schema.json': ['RES-FT-JOB-LIST'],
  'resources/fine-tune-event-list.schema.json': ['RES-FT-EVENT-LIST'],
  'resources/model.schema.json': ['RES-MODEL'],
  'resources/model-list.schema.json': ['RES-MODEL-LIST'],
  'resources/model-deleted.schema.json': ['RES-MODEL-DELETED'],
  'resources/engine.schema.json': ['RES-ENGINE'],
  'resources/engine-list.schema.json': ['RES-ENGINE-LIST'],
  'resources/moderation.schema.json': ['RES-MODERATION'],
  'resources/completion-chunk.schema.json': ['STREAM-CHUNK-SHAPE'],
  'resources/chat-completion-chunk.schema.json': ['STREAM-CHUNK-SHAPE'],
};

/**
 * The rule each response header expectation stands for. The spec states no response content type for a JSON
 * resource (a correct body served as text/json is no violation): that is a convention. Headers not listed (a
 * user's own expectations) are charged to their case's requirements.
 */
export const HEADER_RULES: Readonly<Record<string, readonly string[]>> = {
  'content-type': ['RES-JSON-CONTENT-TYPE'],
};

export function checkSchema(exchange: Exchange, ref: string, schemas: SchemaRegistry): Finding[] {
  const response = exchange.response;
  if (!response) return [{ pointer: '', message: 'no response body to validate', expected: ref, actual: 'no response' }];
  if (response.json === undefined) {
    if (response.invalidUtf8) return [{ pointer: '', message: `the body is not JSON: ${response.invalidUtf8}`, expected: `UTF-8 JSON matching ${ref}`, actual: (response.text ?? '').slice(0, 120) }];
    return [{ pointer: '', message: 'the body is not JSON', expected: `JSON matching ${ref}`, actual: (response.text ?? '').slice(0, 120) }];
  }
  return schemas.validate(ref, response.json).map((issue) => ({
    // A missing property is reported where it is missing, so checks reading that property are seen to depend on it.
    pointer: issue.keyword === 'required' && typeof issue.expected === 'string' ? childOf(issue.pointer, issue.expected.replace(/^property /, '')) : issue.pointer,
    message: issue.message,
    ...(issue.expected !== undefined ? { expected: issue.expected } : {}),
    ...(issue.actual !== undefined ? { actual: issue.actual } : {}),
  }));
}

function childOf(pointer: string, key: string): string {
  return `${pointer === '/' ? '' : pointer}/${escapeToken(key)}`;
}

export function checkHeader(exchange: Exchange, name: string, expectation: HeaderExpectation): Finding[] {
  const value = exchange.response?.headers[name.toLowerCase()];
  const pointer = `#headers/${name.toLowerCase()}`;
  const findings: Finding[] = [];
  if (expectation.present !== undefined && (value !== undefined) !== expectation.present) {
    findings.push({ pointer, message: expectation.present ? `header ${name} is missing` : `header ${name} must be absent`, expected: expectation.present ? 'present' : 'absent', actual: value ?? 'absent' });
  }
  if (expectation.equals !== undefined && value !== expectation.equals) {
    findings.push({ pointer, message: `header ${name} differs`, expected: expectation.equals, actual: value ?? 'absent' });
  }
  if (expectation.matches !== undefined && (value === undefined || !new RegExp(expectation.matches, 'i').test(value))) {
    findings.push({ pointer, message: `header ${name} does not match /${expectation.matches}/i`, expected: `/${expectation.matches}/i`, actual: value ?? 'absent' });
  }
  return findings;
}
