// Before any suite: can the run reach the target, and does the target take the key? A run that cannot is
// stopped with one clear line (exit 3), instead of hundreds of "failures" that are all the same fact.

import type { TargetProfile } from '../profile/types.ts';
import type { Transport } from '../transport/types.ts';
import { buildRequest } from './request.ts';
import { problemOf } from './problems.ts';
import { serverMessage } from './evaluate.ts';
import type { RunProblem } from './types.ts';

export async function preflight(transport: Transport, profile: TargetProfile, signal?: AbortSignal): Promise<RunProblem | undefined> {
  const { outgoing } = buildRequest({ method: 'GET', path: '/v1/models' }, profile, 'preflight');
  const exchange = await transport.send(outgoing, { timeoutMs: profile.timeouts.requestMs, ...(signal ? { signal } : {}) });
  if (exchange.error?.kind === 'aborted') return undefined;
  const problem = problemOf(exchange);
  if (problem) return problem;
  if (exchange.error && !exchange.response) {
    return { kind: 'unreachable', message: `the target did not answer GET ${outgoing.url}: ${exchange.error.message}`, hint: 'check --base-url, and --timeout for a slow target' };
  }
  const status = exchange.response?.status;
  if (status === 401 || status === 403) {
    const said = serverMessage(exchange);
    return {
      kind: 'auth-refused',
      message: `the target refused the API key: GET /v1/models answered ${status}${said ? ` (${JSON.stringify(said)})` : ''}`,
      hint: profile.credentials.apiKey ? 'check --api-key / CONFORMANCE_API_KEY (and --organization)' : 'pass a key with --api-key or CONFORMANCE_API_KEY',
    };
  }
  return undefined;
}
