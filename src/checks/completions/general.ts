// Rules of the whole API that the text suites exercise (areas general and errors of the catalogue).

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';

const TIMESTAMP_KEYS = new Set(['created', 'created_at', 'updated_at']);
/** 2000-01-01 .. 2100-01-01: a plausible Unix time in seconds (milliseconds would be far above). */
const PLAUSIBLE = { min: 946_684_800, max: 4_102_444_800 };

function walkTimestamps(value: unknown, pointer: string, out: Finding[], depth: number): void {
  if (depth > 12 || out.length >= 20) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => walkTimestamps(v, `${pointer}/${i}`, out, depth + 1));
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const p = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (TIMESTAMP_KEYS.has(key)) {
      if (typeof v !== 'number' || !Number.isInteger(v)) out.push({ pointer: p, message: `${key} is not an integer Unix time`, expected: 'an integer (seconds)', actual: v });
      else if (v < PLAUSIBLE.min || v > PLAUSIBLE.max) out.push({ pointer: p, message: `${key} is not a plausible Unix time in seconds`, expected: `${PLAUSIBLE.min}..${PLAUSIBLE.max}`, actual: v });
    } else {
      walkTimestamps(v, p, out, depth + 1);
    }
  }
}

/** "Timestamps named created, created_at and updated_at are integers (Unix time)." (Resources and their fields) */
export const timestampsAreIntegers: ResponseCheck = {
  kind: 'response',
  name: 'timestamps_are_integers',
  requirements: ['RES-TIMESTAMPS-INT'],
  severity: 'must',
  summary: 'every created, created_at and updated_at field is an integer Unix time',
  skipWhen: (ex) => (isRecord(ex.response?.json) || Array.isArray(ex.response?.json) ? undefined : 'no JSON body'),
  run: (ex) => {
    const out: Finding[] = [];
    walkTimestamps(ex.response!.json, '', out, 0);
    return out;
  },
};

/** Errors 1: error codes are not shown; the service's codes are short snake_case strings (a convention). */
export const errorCodeSnakeCase: ResponseCheck = {
  kind: 'response',
  name: 'error_code_snake_case',
  requirements: ['ERR-CODES'],
  severity: 'should',
  summary: 'error.code, when non-null, is a short snake_case string (the service\'s convention)',
  skipWhen: (ex) => {
    const json = ex.response?.json;
    return isRecord(json) && isRecord(json.error) ? undefined : 'no {"error": {...}} body (error_body_shape reports that)';
  },
  run: (ex) => {
    const code = ((ex.response!.json as Record<string, unknown>).error as Record<string, unknown>).code;
    if (code === null || code === undefined) return [];
    return typeof code === 'string' && /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(code) && code.length <= 64 ? [] : [{ pointer: '/error/code', message: 'error.code is not a short snake_case string', expected: 'e.g. invalid_api_key', actual: code }];
  },
};

/** Request tables give types, but how wrongly typed values are treated is not shown: rejection is a convention. */
export const wrongTypeRejected: ResponseCheck = {
  kind: 'response',
  name: 'wrong_type_rejected',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['GEN-REQUEST-TYPES'],
  severity: 'should',
  summary: 'a request field of the wrong type is rejected with a 4xx (the spec does not say how it is treated)',
  run: (ex) => {
    const status = ex.response?.status;
    return status !== undefined && status >= 400 && status < 500 ? [] : [{ pointer: '', message: 'a wrongly typed field was not rejected', expected: '4xx', actual: status ?? 'no response' }];
  },
};
