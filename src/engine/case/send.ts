// Sending a case's request, and again while its poll's condition does not hold: bounded by the poll's deadline,
// never by a request count that would end a slow live job's poll long before it (a count only when the case
// gives one). Running out of time while the target is still on its way is a problem of the run, never a verdict.

import type { AnswerHead, Exchange } from '../../transport/types.ts';
import type { CheckResult } from '../../judge/results.ts';
import { feedStreamFolds, startStreamFolds, type StreamFold } from '../../judge/stream-folds.ts';
import { deadlineFlag, deadlineProblem } from '../problems.ts';
import { pollDelay } from './backoff.ts';
import type { CaseContext, Flow, PreparedCase } from './context.ts';
import { answerCannotMeet, pathOf, pollConditionMet, pollResult, sleep, stillWorking, type PollCase } from './poll.ts';
import { sendOptions } from './send-options.ts';

/** What sending a case gave: its last exchange, the stream folds fed by it, and the poll's verdict. */
export interface Sent {
  exchange: Exchange;
  folds: StreamFold[];
  pollVerdict?: CheckResult;
  /** The answer can never meet the poll's condition (an unreadable or invalid resource): the poll is blocked by it. */
  hopeless: boolean;
  /** A poll that stopped without a verdict (an interrupt, a run problem). */
  cutShort: boolean;
}

/** What to do after one answer of a poll: stop with a verdict (or without one), or wait and ask again. */
type PollStep = { stop: true; verdict?: CheckResult; hopeless?: boolean } | { stop: false; waitMs: number };

export async function sendWithPoll(ctx: CaseContext, prepared: PreparedCase, flow: Flow): Promise<Sent> {
  const { poll } = prepared;
  const pc: PollCase | undefined = poll ? { id: prepared.id, poll, severityOf: ctx.opts.severityOf } : undefined;
  const deadlineMs = pollDeadlineMs(ctx, prepared);
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 0; ; attempt++) {
    const { exchange, folds } = await sendOnce(ctx, prepared, attempt === 0 ? flow : {});
    if (!pc) return { exchange, folds, hopeless: false, cutShort: false };
    const step = afterAnswer(ctx, pc, { exchange, attempt, deadline, deadlineMs, prepared });
    if (step.stop) return { exchange, folds, ...(step.verdict ? { pollVerdict: step.verdict } : {}), hopeless: step.hopeless ?? false, cutShort: step.verdict === undefined };
    if (step.waitMs > 0) await sleep(step.waitMs, ctx.opts.signal);
  }
}

function pollDeadlineMs(ctx: CaseContext, prepared: PreparedCase): number {
  const { poll } = prepared;
  const t = ctx.opts.profile.timeouts;
  return poll?.deadline_ms ?? (poll?.deadline === 'model-load' ? t.modelLoadMs : t.pollDeadlineMs);
}

/** One request of the case (the one sent ahead, on the first attempt), its stream folds fed as events arrive. */
async function sendOnce(ctx: CaseContext, prepared: PreparedCase, flow: Flow): Promise<{ exchange: Exchange; folds: StreamFold[] }> {
  const { opts, suite } = ctx;
  const { id, request, built, poll, ctxFor } = prepared;
  const c = id.case;
  const folds = built.outgoing.stream ? startStreamFolds({ case: c, registry: opts.registry, ctxFor, ...(id.assertions ? { assertions: id.assertions } : {}) }) : [];
  // A case of one request (no poll, no follow) is answered as soon as its body is read: the next case's request
  // may go before this one's body is even parsed.
  const answered = flow.answered;
  const onBody = answered && !poll && !c.follow && !built.outgoing.stream ? (head: AnswerHead) => answered(head.status) : undefined;
  const exchange = flow.ahead ? await flow.ahead.exchange : await opts.transport.send(built.outgoing, {
    ...sendOptions(c, built, { timeouts: opts.profile.timeouts, polls: poll !== undefined }),
    onEvent: (event, index) => feedStreamFolds(folds, { event, index }, ctxFor),
    ...(onBody ? { onBody } : {}),
  });
  const answer = await withFallbackMethods(ctx, prepared, exchange);
  suite.ledger.observe({ method: answer.request.method, path: request.path, organization: request.organization === 'other' ? 'other' : 'default' }, answer);
  if (c.request.lasts === 'job' && (exchange.error?.kind === 'timeout' || exchange.error?.kind === 'stall')) {
    // Still open at the poll deadline: the job is still running, which is no verdict on the target.
    opts.watch?.report(deadlineProblem(id.suite, `${c.id}: the stream of ${pathOf(built.outgoing.url)} was still open at ${deadlineFlag(undefined)} (${opts.profile.timeouts.pollDeadlineMs} ms): the job had not finished`, undefined));
  }
  return { exchange: answer, folds };
}

/**
 * An answer that says the method or route is not served there (404, 405, 501): another method may be. Any other
 * refusal (400 for a job that cannot be cancelled any more, 401, 403, 429) is the answer to judge.
 */
const METHOD_REFUSED: ReadonlySet<number> = new Set([404, 405, 501]);
const methodRefused = (status: number | undefined): boolean => status !== undefined && METHOD_REFUSED.has(status);

/** A case whose method the spec does not show: after a refusal of the method, each fallback method in turn, until one is served. */
async function withFallbackMethods(ctx: CaseContext, prepared: PreparedCase, first: Exchange): Promise<Exchange> {
  const methods = prepared.request.fallback_methods ?? [];
  let exchange = first;
  for (const method of methods) {
    if (!methodRefused(exchange.response?.status) || ctx.opts.signal?.aborted) break;
    const outgoing = { ...prepared.built.outgoing, method };
    exchange = await ctx.opts.transport.send(outgoing, sendOptions(prepared.id.case, { outgoing, view: prepared.built.view }, { timeouts: ctx.opts.profile.timeouts, polls: false }));
  }
  return exchange;
}

interface Attempt { exchange: Exchange; attempt: number; deadline: number; deadlineMs: number; prepared: PreparedCase }

function afterAnswer(ctx: CaseContext, pc: PollCase, at: Attempt): PollStep {
  const { opts } = ctx;
  const { exchange, attempt, prepared } = at;
  const { poll, id } = pc;
  const c = id.case;
  const met = pollConditionMet(poll, exchange);
  if (met === true) return { stop: true, verdict: pollResult(pc, 'pass', { message: `condition met after ${attempt + 1} request(s)` }) };
  if (opts.signal?.aborted) return { stop: true }; // interrupted before the condition held: skipped, not blamed on the target
  if (exchange.error?.kind === 'unmatched' || exchange.error?.kind === 'not-sent') return { stop: true };
  // A resource that cannot be read, or reads as no valid resource, will not reach the condition by waiting:
  // stop, and let the broken answer be the case's failure (the poll is blocked by it).
  if ('pointer' in poll.until && answerCannotMeet(exchange, c.expect?.schema, opts.schemas)) return { stop: true, hopeless: true };
  const { outgoing } = prepared.built;
  opts.listener?.({ type: 'waiting', suite: id.suite, case: c.id, detail: `${c.id}, ${outgoing.method} ${pathOf(outgoing.url)}: ${met}` });
  // Offline, the recording fixes how many attempts there were: waiting between them changes nothing.
  const wait = opts.transport.name === 'replay' ? 0 : pollDelay(poll.interval_ms ?? 1000, attempt, { retryAfter: exchange.response?.headers['retry-after'] });
  const maxRequests = poll.max_requests ?? Infinity;
  if (attempt + 1 >= maxRequests) return { stop: true, verdict: pollResult(pc, 'fail', { message: `condition not met within ${maxRequests} requests: ${met}`, exchange }) };
  if (Date.now() + wait > at.deadline) {
    // The target still answers with a resource on its way to the condition (a job still running), or says it is
    // not ready yet (a 5xx, no answer in time: a model still loading): it is slow, which the spec allows. Running
    // out of time is the run's problem, never a verdict. A refusal (a 4xx) until the end is the target's answer.
    if (poll.while ? pollConditionMet({ until: poll.while }, exchange) === true : stillWorking(exchange)) opts.watch?.report(deadlineProblem(id.suite, `${c.id}: ${outgoing.method} ${pathOf(outgoing.url)} not finished within ${deadlineFlag(poll)} (${at.deadlineMs} ms, ${attempt + 1} request(s)): ${met}`, poll));
    return { stop: true, verdict: pollResult(pc, 'fail', { message: `condition not met within ${at.deadlineMs} ms (${attempt + 1} request(s)): ${met}`, exchange }) };
  }
  return { stop: false, waitMs: wait };
}
