// How long a case's request may take, and whether a rate limit is retried.

import { GENERATION_MS_PER_ITEM, GENERATION_MS_PER_TOKEN } from '../../profile/profile.ts';
import { holdsTemplate, render, renderPath } from '../../suite/template.ts';
import type { CaseSpec, RequestSpec } from '../../suite/types.ts';
import type { OutgoingRequest, SendOptions } from '../../transport/types.ts';
import type { PlannedRequestView } from '../../checks/types.ts';
import type { Timeouts } from '../../profile/types.ts';
import { answersTheSameTwice } from '../resources.ts';

/**
 * How a case's request is sent: within the run's timeouts, and as a poll's request (`polls`) or not. `sent`: the
 * request as built, and its path as the suite gives it (relative to the base URL, rendered).
 */
export function sendOptions(c: CaseSpec, sent: { outgoing: OutgoingRequest; view: Pick<PlannedRequestView, 'path'> }, how: { timeouts: Timeouts; polls: boolean }): SendOptions {
  const { outgoing } = sent;
  const { timeouts: t, polls } = how;
  // Pace is the target's business: a stream that lasts as long as a job waits as long as a poll would, silences
  // included; a long generation gets time for every token it asks for (a non-streamed one sends its headers last).
  const generation = generationAllowanceMs(c.request);
  // Sent twice only if the second would be answered as the first: the method as sent (a fallback method) and the
  // rendered path below the base URL (whose own path may hold anything, a `v1` too).
  const resendOnReset = answersTheSameTwice(outgoing.method, sent.view.path);
  if (c.request.lasts === 'job') return { timeoutMs: t.pollDeadlineMs, headersTimeoutMs: t.requestMs, idleTimeoutMs: t.pollDeadlineMs, retry: polls ? 'rate-limit' : true, resendOnReset };
  return {
    resendOnReset,
    timeoutMs: (outgoing.stream ? t.streamTotalMs : t.requestMs) + generation,
    headersTimeoutMs: t.requestMs + (outgoing.stream ? 0 : generation),
    // A stream asked for and a body answered: bounded as a body is.
    ...(outgoing.stream ? { wholeTimeoutMs: t.requestMs + generation } : {}),
    idleTimeoutMs: t.streamIdleMs,
    // A rate limit answered with 429 is retried by the transport, unless the case is about that status; a poll
    // waits for a 503 (a model loading) itself, never for a 429, which is no state it waits for.
    retry: /\b(429|503)\b/.test(JSON.stringify(c.expect?.status ?? '')) ? false : polls ? 'rate-limit' : true,
    // No interrupt signal here: a request in flight finishes (bounded by its timeout), so what it creates is
    // seen by the ledger and deleted at cleanup instead of leaking.
  };
}

/** A request's templates rendered, its path parameters percent-encoded (template.ts, renderPath). */
export function renderRequest(spec: RequestSpec, scope: Record<string, unknown>): RequestSpec {
  const rendered = render(spec, scope) as RequestSpec;
  return holdsTemplate(spec.path) ? { ...rendered, path: renderPath(spec.path, scope) } : rendered;
}

/**
 * Extra time for what a request asks to generate: max_tokens × n (× best_of candidates) at GENERATION_MS_PER_TOKEN;
 * without max_tokens (an image, a chat answer of unbounded length) GENERATION_MS_PER_ITEM for each of the n asked for.
 */
export function generationAllowanceMs(request: Pick<RequestSpec, 'json' | 'multipart'>): number {
  const json = request.json !== null && typeof request.json === 'object' && !Array.isArray(request.json) ? request.json as Record<string, unknown> : {};
  const fields = request.multipart?.fields ?? {};
  const count = (v: unknown) => { const n = Number(v); return Number.isFinite(n) && n > 0 ? Math.min(n, 1_000_000) : 1; };
  const n = Math.max(count(json.n ?? fields.n), count(json.best_of));
  const tokens = typeof json.max_tokens === 'number' && Number.isFinite(json.max_tokens) && json.max_tokens > 0 ? Math.min(json.max_tokens, 1_000_000) : 0;
  if (tokens > 0) return tokens * n * GENERATION_MS_PER_TOKEN;
  // A chat answer of unbounded length, or an image (a prompt without a model): time per item asked for.
  const unbounded = json.messages !== undefined || (json.model === undefined && fields.model === undefined && (json.prompt !== undefined || fields.prompt !== undefined));
  return unbounded ? n * GENERATION_MS_PER_ITEM : 0;
}
