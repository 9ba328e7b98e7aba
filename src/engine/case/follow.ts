// Following what an answer points at: URLs in the body, and one request per listed item.

import { type Scope } from '../../suite/template.ts';
import type { FollowEachSpec } from '../../suite/types.ts';
import type { Exchange, FollowedAnswer, FollowedItems, OutgoingRequest } from '../../transport/types.ts';
import { resolveWildcard } from '../../util/pointer.ts';
import { buildRequest } from '../request.ts';
import type { EngineOptions } from '../options.ts';
import { renderRequest } from './send-options.ts';

/** Follow URLs in the body (e.g. image URLs) without credentials: a signed URL must not receive the API key. */
export async function followUrls(pointer: string, exchange: Exchange, opts: EngineOptions): Promise<void> {
  for (const { value } of resolveWildcard(exchange.response?.json, pointer)) {
    if (typeof value !== 'string' || exchange.attachments[value]) continue;
    let url: URL;
    try {
      url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not http(s): ${url.protocol}`);
    } catch (e) {
      exchange.attachments[value] = { status: 0, contentType: '', error: `not a fetchable URL: ${(e as Error).message}` };
      continue;
    }
    const got = await opts.transport.send(
      { method: 'GET', url: url.toString(), headers: { 'user-agent': 'model-api-conformance' }, bodySummary: { kind: 'none' }, stream: false },
      { timeoutMs: opts.profile.timeouts.requestMs, pointedTo: true, ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    exchange.attachments[value] = {
      status: got.response?.status ?? 0,
      contentType: got.response?.headers['content-type'] ?? '',
      ...(got.response?.bytes ? { bytes: got.response.bytes } : {}),
      ...(got.error ? { error: got.error.message } : {}),
    };
  }
}

/**
 * Send `follow.request` once per item the pointer selects in the answer (with `{{item}}` bound), within the
 * budget, sequentially; the answers go on the exchange for the case's checks. A request that cannot be built
 * is recorded as an answer with an error, not thrown: one odd item must not hide the others.
 */
/** What following needs to know: the case's `follow: each`, its own request, the suite's scope and the run's options. */
export interface FollowEach { follow: FollowEachSpec; original: OutgoingRequest; scope: Scope; opts: EngineOptions }

export async function followEach(how: FollowEach, exchange: Exchange): Promise<FollowedItems> {
  const { follow, scope, opts } = how;
  const items = resolveWildcard(exchange.response?.json, follow.each);
  const budget = Math.min(follow.limit ?? Number.POSITIVE_INFINITY, opts.profile.followBudget);
  const answers: FollowedAnswer[] = [];
  for (const { pointer, value } of items.slice(0, budget)) {
    if (opts.signal?.aborted) break;
    let outgoing: OutgoingRequest;
    try {
      outgoing = buildRequest(renderRequest(follow.request, { ...scope, item: value }), opts.profile, 'follow').outgoing;
    } catch (e) {
      answers.push({ at: pointer, item: value, status: 0, error: (e as Error).message });
      continue;
    }
    const got = await opts.transport.send(outgoing, { timeoutMs: opts.profile.timeouts.requestMs, ...(opts.signal ? { signal: opts.signal } : {}) });
    answers.push({
      at: pointer, item: value, status: got.response?.status ?? 0,
      ...(got.response?.json !== undefined ? { json: got.response.json } : {}),
      ...(got.error ? { error: got.error.message } : {}),
    });
  }
  await markGone(how, answers);
  return { selected: items.length, answers };
}

/**
 * A listed item that answers 404 may have been deleted after the list was read, by another suite of a --jobs
 * run (a fine-tuned model) or by anyone sharing the organization. The case's request is sent once more: items
 * that are no longer in that fresh answer are marked gone, and checks leave them out. An item still listed
 * and not retrievable remains a failure.
 */
export async function markGone(how: FollowEach, answers: FollowedAnswer[]): Promise<void> {
  const { follow, original, opts } = how;
  const missing = answers.filter((a) => a.status === 404);
  if (missing.length === 0 || opts.signal?.aborted) return;
  const again = await opts.transport.send(original, { timeoutMs: opts.profile.timeouts.requestMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  const status = again.response?.status ?? 0;
  if (status < 200 || status >= 300) return;
  const listed = new Set(resolveWildcard(again.response?.json, follow.each).map(({ value }) => JSON.stringify(value)));
  for (const a of missing) if (!listed.has(JSON.stringify(a.item))) a.gone = true;
}
