// Before any suite: can the run reach the target, and does the target take the key? A run that cannot is
// stopped with one clear line (exit 3), instead of hundreds of "failures" that are all the same fact.

import type { TargetProfile } from '../profile/types.ts';
import type { Transport } from '../transport/types.ts';
import { PROBE } from './resources.ts';
import { buildRequest } from './request.ts';
import { problemOf } from './problems.ts';
import { serverMessage } from '../judge/excerpt.ts';
import type { RunProblem } from './types.ts';
import { isSuccess } from '../util/status.ts';

/**
 * `listRequired`: the run judges the model list (a suite of the models area is selected). Only then does a 404 or a
 * body that is no list say the API is not at the base URL: a target the user runs only their own suites against
 * (a chat-only server) may have no model list at all.
 */
export async function preflight(transport: Transport, profile: TargetProfile, how: { signal?: AbortSignal; listRequired: boolean }): Promise<RunProblem | undefined> {
  const { signal, listRequired } = how;
  const { outgoing } = buildRequest(PROBE, profile, 'preflight');
  const exchange = await transport.send(outgoing, { timeoutMs: profile.timeouts.requestMs, ...(signal ? { signal } : {}) });
  if (exchange.error?.kind === 'aborted') return undefined;
  const problem = problemOf(exchange);
  if (problem) return problem;
  if (exchange.error && !exchange.response) {
    return { kind: 'unreachable', message: `the target did not answer GET ${outgoing.url}: ${exchange.error.message}`, hint: 'check --base-url, and --timeout for a slow target' };
  }
  const status = exchange.response?.status;
  // A base URL that redirects (http → https, a moved host) or a target that is not serving at all answers every
  // case the same way: one fact of the set-up, not hundreds of failures. Redirects are never followed (the key
  // would go to wherever the Location points).
  if (status !== undefined && status >= 300 && status < 400) {
    const location = exchange.response?.headers['location'];
    return {
      kind: 'unreachable',
      message: `GET ${outgoing.url} answered ${status}${location ? ` with Location: ${location}` : ''}: the base URL redirects, and the harness does not follow redirects (the key would go along)`,
      hint: location ? 'give the URL it redirects to as --base-url' : 'check --base-url',
    };
  }
  if (status !== undefined && status >= 500) {
    const said = serverMessage(exchange);
    return {
      kind: 'unreachable',
      message: `the target is not serving: GET ${outgoing.url} answered ${status}${said ? ` (${JSON.stringify(said)})` : ''}`,
      hint: 'check that the server is up and healthy, then run again',
    };
  }
  if (status === 401 || status === 403) {
    const said = serverMessage(exchange);
    return {
      kind: 'auth-refused',
      message: `the target refused the API key: GET /v1/models answered ${status}${said ? ` (${JSON.stringify(said)})` : ''}`,
      hint: profile.credentials.apiKey ? 'check --api-key / CONFORMANCE_API_KEY (and --organization)' : 'pass a key with --api-key or CONFORMANCE_API_KEY',
    };
  }
  // A base URL with a wrong path (…/api where the API is at …/v1) answers 404, or some page that is no model list:
  // then every case would "fail" on the same fact. The API is not at that URL.
  if (listRequired && (status === 404 || status === 405 || (isSuccess(status) && !isModelList(exchange.response?.json)))) {
    return {
      kind: 'unreachable',
      message: `no model list at ${outgoing.url}: GET answered ${status}${isSuccess(status) ? ` with ${describeBody(exchange.response?.headers['content-type'], exchange.response?.json)}` : ''}`,
      hint: 'check --base-url: it is the API\'s root (https://host or https://host/v1), where GET /v1/models lists the models',
    };
  }
  return undefined;
}

/** A JSON object with a data array: the shape of a list (its values are judged by the suites). */
function isModelList(json: unknown): boolean {
  return json !== null && typeof json === 'object' && !Array.isArray(json) && Array.isArray((json as Record<string, unknown>)['data']);
}

function describeBody(contentType: string | undefined, json: unknown): string {
  if (json === undefined) return `a body that is not JSON (${contentType ?? 'no content type'})`;
  return 'JSON that is no list (no data array)';
}

/**
 * Whether the target still answers anything: GET /v1/models, any status, within --timeout. Sent through its own
 * transport (not the run's: never recorded, never throttled). An interrupt is not a dead target.
 */
export function stillAnswers(transport: Transport, profile: TargetProfile, how: { signal?: AbortSignal; beforeSend?: () => Promise<void> } = {}): () => Promise<boolean> {
  const { signal, beforeSend } = how;
  return async () => {
    // --rate-limit covers it too (the run's token bucket).
    await beforeSend?.();
    const { outgoing } = buildRequest(PROBE, profile, 'liveness');
    const exchange = await transport.send(outgoing, { timeoutMs: profile.timeouts.requestMs, retry: false, ...(signal ? { signal } : {}) });
    return exchange.response !== undefined || exchange.error?.kind === 'aborted' || signal?.aborted === true;
  };
}
