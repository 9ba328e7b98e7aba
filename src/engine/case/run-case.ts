// One case, stage by stage: prepare → send (poll) → follow → judge. Each stage is its own module; this one
// only puts them in order.

import type { Exchange } from '../../transport/types.ts';
import { nextTurn } from '../../transport/next-turn.ts';
import { judge } from '../../judge/judge.ts';
import { isFailure, rootOf, skippedCase, type Root } from '../../judge/results.ts';
import { endpointKey } from '../endpoint-key.ts';
import type { CaseContext, CaseRun, Flow, PreparedCase } from './context.ts';
import { prepareCase } from './prepare.ts';
import { sendWithPoll, type Sent } from './send.ts';
import { blockedPoll } from './poll.ts';
import { followEach, followUrls } from './follow.ts';
import { isSuccess } from '../../util/status.ts';

export async function runCase(ctx: CaseContext, flow: Flow = {}): Promise<CaseRun> {
  const prepared = prepareCase(ctx, flow.ahead);
  if ('skipped' in prepared) return { results: [prepared.skipped] };
  const sent = await sendWithPoll(ctx, prepared, flow);
  const { exchange } = sent;
  if (ctx.opts.signal?.aborted && (sent.cutShort || exchange.error !== undefined)) {
    return { results: [skippedCase(prepared.id, `interrupted before the case could be judged${exchange.error ? `: ${exchange.error.message}` : ''}`)], exchange };
  }
  await follow(ctx, prepared, exchange);
  // Every request of this case has been answered (unless it was, from its body, already): the next case's may go
  // while this one is judged, once the event loop has turned so undici writes it (next-turn.ts).
  if (flow.answered?.(exchange.response?.status)) await nextTurn();
  const endpointServed = noteServed(ctx, prepared, exchange);
  return judgeCase(ctx, prepared, { ...sent, endpointServed });
}

/** What the answer points at (URLs in its body), and one request per item it lists: added to the exchange. */
async function follow(ctx: CaseContext, prepared: PreparedCase, exchange: Exchange): Promise<void> {
  const spec = ctx.id.case.follow;
  if (spec && 'urls' in spec) await followUrls(spec.urls, exchange, ctx.opts);
  if (spec && 'each' in spec && exchange.response) exchange.followed = await followEach({ follow: spec, original: prepared.built.outgoing, scope: ctx.suite.scope, opts: ctx.opts }, exchange);
}

/** Whether the case's endpoint had answered with success before this answer; a success now marks it served. */
function noteServed(ctx: CaseContext, prepared: PreparedCase, exchange: Exchange): boolean {
  const { outgoing } = prepared.built;
  const endpoint = endpointKey(outgoing.method, outgoing.url);
  const served = ctx.suite.served.has(endpoint);
  const status = exchange.response?.status;
  if (isSuccess(status)) ctx.suite.served.add(endpoint);
  return served;
}

/** The judge's verdict on the case's last answer, with the poll that could never be met first, and its causes. */
function judgeCase(ctx: CaseContext, prepared: PreparedCase, sent: Sent & { endpointServed: boolean }): CaseRun {
  const { opts, suite } = ctx;
  const { id, poll, ctxFor } = prepared;
  const { exchange, folds, pollVerdict, endpointServed } = sent;
  const evidence = { ...(pollVerdict ? { poll: pollVerdict } : {}), rootOfCase: (caseId: string) => suite.rootOfCase(caseId), ...(opts.reportPasses ? { keepPassEvidence: true } : {}), endpointServed };
  const judged = judge(exchange, id, { registry: opts.registry, ctxFor, folds, schemas: opts.schemas, ...(opts.severityOf ? { severityOf: opts.severityOf } : {}), evidence });
  const { results } = judged;
  // A poll whose answer could never meet its condition goes first; when it failed on its own, it is the root.
  const unreachable = sent.hopeless && poll ? blockedPoll({ id, poll, severityOf: opts.severityOf }, results, exchange) : undefined;
  if (unreachable) results.unshift(unreachable.result);
  if (suite.remembered.has(id.case.id)) suite.history.set(id.case.id, forHistory(exchange));
  // The answer is unusable to later cases when a gate failed, or when the poll never reached its condition
  // (then the root is what the poll was blocked by: the answer is not the state the case was waiting for).
  const root: Root | undefined = unreachable && isFailure(unreachable.result.status) ? rootOf(unreachable.result) : judged.root ?? unreachable?.root;
  const cause = root ?? judged.cause;
  return { results, exchange, ...(root ? { root } : {}), ...(cause ? { cause } : {}) };
}

/**
 * Later checks read earlier exchanges, but a suite of thousands of cases must not keep every body
 * three times over: keep the parsed JSON when there is one, else the text, else the bytes.
 */
function forHistory(exchange: Exchange): Exchange {
  const r = exchange.response;
  if (!r) return exchange;
  const { bytes, text, ...rest } = r;
  const slim = r.json !== undefined ? rest : text !== undefined ? { ...rest, text } : { ...rest, ...(bytes ? { bytes } : {}) };
  return { ...exchange, response: slim };
}
