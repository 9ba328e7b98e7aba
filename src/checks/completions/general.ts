// Rules of the whole API that the text suites exercise (areas general and errors of the catalogue).

import { notExercised, type CheckVerdict, type Finding, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { escapeToken } from '../../util/pointer.ts';

const TIMESTAMP_KEYS = new Set(['created', 'created_at', 'updated_at']);
/** 10^11 seconds is the year 5138; a current time in milliseconds is above 10^12. */
const MILLISECONDS_FROM = 100_000_000_000;
/** 2000-01-01 .. 2100-01-01: a plausible date in seconds. */
const PLAUSIBLE = { min: 946_684_800, max: 4_102_444_800 };

const isContainer = (v: unknown): boolean => v !== null && typeof v === 'object';

type TimestampRule = (key: string, value: unknown, pointer: string) => Finding | undefined;

function walkTimestamps(value: unknown, pointer: string, rule: TimestampRule, out: Finding[], depth: number, seen: { count: number }): void {
  if (depth > 12 || out.length >= 20) return;
  // Only objects and arrays are walked into: an embedding's 1536 numbers cost no pointer each.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (isContainer(value[i])) walkTimestamps(value[i], `${pointer}/${i}`, rule, out, depth + 1, seen);
    return;
  }
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (TIMESTAMP_KEYS.has(key)) {
      seen.count++;
      const f = rule(key, v, `${pointer}/${escapeToken(key)}`);
      if (f) out.push(f);
    } else if (isContainer(v)) {
      walkTimestamps(v, `${pointer}/${escapeToken(key)}`, rule, out, depth + 1, seen);
    }
  }
}

function timestampCheck(rule: TimestampRule): (ex: Parameters<ResponseCheck['run']>[0]) => CheckVerdict {
  return (ex) => {
    const out: Finding[] = [];
    const seen = { count: 0 };
    walkTimestamps(ex.response!.json, '', rule, out, 0, seen);
    return seen.count === 0 ? notExercised('the answer has no created, created_at or updated_at field') : out;
  };
}

/**
 * "Timestamps named created, created_at and updated_at are integers (Unix time)." (Resources and their fields)
 * Any integer count of seconds conforms, 0 included; milliseconds do not count seconds (see the register).
 */
export const timestampsAreIntegers: ResponseCheck = {
  kind: 'response',
  name: 'timestamps_are_integers',
  requirements: ['RES-TIMESTAMPS-INT'],
  severity: 'must',
  summary: 'every created, created_at and updated_at field is an integer Unix time in seconds',
  skipWhen: (ex) => (isRecord(ex.response?.json) || Array.isArray(ex.response?.json) ? undefined : 'no JSON body'),
  run: timestampCheck((key, v, pointer) => {
    // null is left to the resources' schemas, which require the timestamps the spec lists: an extra field so
    // named (a 2022 Engine's created: null; Engine has no created in the spec) is outside the rule's text.
    if (v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) return { pointer, message: `${key} is not an integer Unix time`, expected: 'an integer (seconds)', actual: v };
    if (Math.abs(v) >= MILLISECONDS_FROM) return { pointer, message: `${key} counts milliseconds, not the seconds of Unix time`, expected: `seconds (below ${MILLISECONDS_FROM})`, actual: v };
    return undefined;
  }),
};

/** A convention beyond the spec's text: the integer is a plausible date (a warning, e.g. for created: 0). */
export const timestampsPlausible: ResponseCheck = {
  kind: 'response',
  name: 'timestamps_plausible',
  requirements: ['RES-TIMESTAMPS-PLAUSIBLE'],
  severity: 'should',
  summary: 'every created, created_at and updated_at field is a plausible date (2000 to 2100)',
  skipWhen: (ex) => (isRecord(ex.response?.json) || Array.isArray(ex.response?.json) ? undefined : 'no JSON body'),
  after: ['timestamps_are_integers'],
  run: timestampCheck((key, v, pointer) =>
    v === null ? { pointer, message: `${key} is null`, expected: 'an integer date', actual: v }
      : typeof v === 'number' && Number.isInteger(v) && (v < PLAUSIBLE.min || v > PLAUSIBLE.max)
        ? { pointer, message: `${key} is not a plausible date in seconds`, expected: `${PLAUSIBLE.min}..${PLAUSIBLE.max}`, actual: v }
        : undefined),
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
