// Where the spec says "not shown" (Errors 1), the service's conventions apply — as warnings, never failures.

import type { ResponseCheck } from '../types.ts';

const STATUS_RULES = [
  { status: 400, id: 'ERR-STATUS-400', what: 'an invalid request' },
  { status: 401, id: 'ERR-STATUS-401', what: 'a missing or invalid API key' },
  { status: 403, id: 'ERR-STATUS-403', what: 'a caller without the required role' },
  { status: 404, id: 'ERR-STATUS-404', what: 'an unknown resource' },
] as const;

function errorStatusIs(status: number, id: string, what: string): ResponseCheck {
  return {
    kind: 'response',
    name: `error_status_${status}`,
    requirements: [id],
    severity: 'should',
    summary: `${what} is answered ${status} (the service's convention; the spec does not show status codes)`,
    // A refusal with a server error is ERR-4XX-NOT-5XX's one warning (status-class), not a second one here.
    skipWhen: (exchange) => ((exchange.response?.status ?? 0) >= 500 ? 'refused with a server error: status-class judges its class' : undefined),
    run: (exchange) => {
      const actual = exchange.response?.status;
      return actual === status ? [] : [{ pointer: '', message: `the service answers ${what} with ${status}`, expected: status, actual: actual ?? 'no response' }];
    },
  };
}

export const errorBodyShape: ResponseCheck = {
  kind: 'response',
  name: 'error_body_shape',
  requirements: ['ERR-BODY-SHAPE'],
  severity: 'should',
  summary: 'an error body is {"error":{"message","type","param","code"}} (the service\'s convention)',
  run: (exchange, ctx) => {
    const json = exchange.response?.json;
    if (json === undefined) return [{ pointer: '', message: 'the error body is not JSON', expected: '{"error": {...}}', actual: (exchange.response?.text ?? '').slice(0, 120) }];
    return ctx.schemas.validate('resources/error.schema.json', json).map((i) => ({ pointer: i.pointer, message: i.message, ...(i.expected !== undefined ? { expected: i.expected } : {}), ...(i.actual !== undefined ? { actual: i.actual } : {}) }));
  },
};

export const ERROR_CONVENTION_CHECKS = [...STATUS_RULES.map((r) => errorStatusIs(r.status, r.id, r.what)), errorBodyShape];
