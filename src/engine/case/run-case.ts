// One case: prepare its request, send it (poll, follow), and judge the answer.

import type { CheckContext, PlannedRequestView } from '../../checks/types.ts';
import { render, TemplateError } from '../../suite/template.ts';
import type { Assertion, CaseSpec, CheckUse, PollSpec, RequestSpec } from '../../suite/types.ts';
import { assertionCheck } from '../../checks/assert/assertion.ts';
import type { AnswerHead, Exchange, OutgoingRequest } from '../../transport/types.ts';
import { nextTurn } from '../../transport/next-turn.ts';
import { buildRequest, RequestBuildError } from '../request.ts';
import { judge } from '../../judge/judge.ts';
import { builtinCitation } from '../../judge/citation.ts';
import { feedStreamFolds, startStreamFolds, type StreamFold } from '../../judge/stream-folds.ts';
import { isFailure, rootOf, skippedCase, type CaseIdentity, type Root } from '../../judge/results.ts';
import { endpointKey } from '../endpoint-key.ts';
import { deadlineFlag, deadlineProblem } from '../problems.ts';
import { pollDelay } from '../poll.ts';
import { ResourceLedger } from '../ledger.ts';
import { type CheckResult, type RunProblem } from '../types.ts';
import { type WatchedOptions } from '../options.ts';
import { independentRequest } from '../admission.ts';
import { sendOptions, renderRequest } from './send-options.ts';
import { answerCannotMeet, blockedPoll, pathOf, stillWorking, pollConditionMet, pollResult, sleep } from './poll.ts';
import { followUrls, followEach } from './follow.ts';
import { runSuite } from '../run-suite.ts';

export interface CaseRun {
  results: CheckResult[];
  /** The last exchange (absent when the request could not be built). */
  exchange?: Exchange;
  /** The failed gate (poll, transport, status) that makes this case's answer unusable to later cases. */
  root?: Root;
  /** The root, else the first failure of any result, else what the first blocked result is blocked by. */
  cause?: Root;
}

/** A case's request sent while the case before it was judged (runSuite's lookahead). */
export interface Ahead {
  index: number;
  built: { outgoing: OutgoingRequest; view: PlannedRequestView };
  exchange: Promise<Exchange>;
  /** Filled when its answer comes (runSuite's answerOnce). */
  answer: Answer;
}

/** Whether a case's own answers stopped the suite; set once, when the case is answered. */
export interface Answer {
  stopped?: { by: RunProblem | undefined };
}

export async function runCase(
  caseId: CaseIdentity, c: CaseSpec, scope: Record<string, unknown>, history: Map<string, Exchange>, remembered: ReadonlySet<string>,
  ledger: ResourceLedger, opts: WatchedOptions, rootOfCase: (caseId: string) => Root | undefined,
  flow: { ahead?: Ahead; answered?: (status: number | undefined) => boolean; served?: Set<string> } = {},
): Promise<CaseRun> {
  let request: RequestSpec;
  let built: { outgoing: OutgoingRequest; view: PlannedRequestView };
  let id = caseId;
  // What cannot be rendered from this run's values (a template error the loader could not see, such as
  // middle() of a text the target answered too short) leaves the case unexercised: skipped, saying why.
  let step = 'build the request';
  try {
    // A request sent ahead is this case's plan as it stands (independentRequest: no templates in it).
    request = flow.ahead ? c.request : renderRequest(c.request, scope);
    built = flow.ahead?.built ?? buildRequest(request, opts.profile, `${id.suite}/${c.id}`);
    if (c.expect?.assert?.length) {
      step = 'render the assertions';
      const cite = builtinCitation(c, opts.severityOf).requirements;
      const assertions = (render(c.expect.assert, scope) as Assertion[]).map((a, j) => assertionCheck(a, j, id.assertSources?.[j] ?? id.source, cite));
      id = { ...id, assertions };
    }
  } catch (e) {
    if (e instanceof TemplateError || e instanceof RequestBuildError) return { results: [skippedCase(id, `cannot ${step}: ${e.message}`)] };
    throw e;
  }
  const params = (use: CheckUse) => (use.with ? (render(use.with, scope) as Record<string, unknown>) : {});
  const ctxFor = (use: CheckUse): CheckContext => ({ request: built.view, profile: opts.profile, vars: scope, schemas: opts.schemas, params: params(use), history });

  const poll = c.poll ? (render(c.poll, scope) as PollSpec) : undefined;
  const deadlineMs = poll?.deadline_ms ?? (poll?.deadline === 'model-load' ? opts.profile.timeouts.modelLoadMs : opts.profile.timeouts.pollDeadlineMs);
  const deadline = Date.now() + deadlineMs;
  // The deadline bounds a poll; the backoff (up to 5 s apart) keeps it from hammering the target. A request count
  // would end a slow live job's poll long before its deadline.
  const maxRequests = poll?.max_requests ?? Infinity;
  // Offline, the recording fixes how many attempts there were: waiting between them changes nothing.
  const replaying = opts.transport.name === 'replay';
  let pollVerdict: CheckResult | undefined;
  let hopeless = false;
  let exchange: Exchange;
  let folds: StreamFold[];
  // A case of one request (no poll, no follow) is answered as soon as its body is read: the next case's request
  // may go before this one's body is even parsed.
  const answered = flow.answered;
  const onBody = answered && !poll && !c.follow && !built.outgoing.stream ? (head: AnswerHead) => answered(head.status) : undefined;
  for (let attempt = 0; ; attempt++) {
    folds = built.outgoing.stream ? startStreamFolds(c, opts.registry, ctxFor, id.assertions) : [];
    const current = folds;
    exchange = flow.ahead && attempt === 0 ? await flow.ahead.exchange : await opts.transport.send(built.outgoing, {
      ...sendOptions(c, built.outgoing, opts, poll !== undefined),
      onEvent: (event, index) => feedStreamFolds(current, event, index, ctxFor),
      ...(onBody ? { onBody } : {}),
    });
    ledger.observe(request.method, request.path, request.organization === 'other' ? 'other' : 'default', exchange);
    if (c.request.lasts === 'job' && (exchange.error?.kind === 'timeout' || exchange.error?.kind === 'stall')) {
      // Still open at the poll deadline: the job is still running, which is no verdict on the target.
      opts.watch?.report(deadlineProblem(id.suite, `${c.id}: the stream of ${pathOf(built.outgoing.url)} was still open at ${deadlineFlag(undefined)} (${opts.profile.timeouts.pollDeadlineMs} ms): the job had not finished`, undefined));
    }
    if (!poll) break;
    const met = pollConditionMet(poll, exchange);
    if (met === true) {
      pollVerdict = pollResult(id, poll, 'pass', `condition met after ${attempt + 1} request(s)`, undefined, opts);
      break;
    }
    if (opts.signal?.aborted) break; // interrupted before the condition held: skipped below, not blamed on the target
    if (exchange.error?.kind === 'unmatched' || exchange.error?.kind === 'not-sent') break;
    // A resource that cannot be read, or reads as no valid resource, will not reach the condition by waiting:
    // stop, and let the broken answer be the case's failure (the poll is blocked by it).
    if ('pointer' in poll.until && answerCannotMeet(exchange, c.expect?.schema, opts.schemas)) { hopeless = true; break; }
    opts.listener?.({ type: 'waiting', suite: id.suite, case: c.id, detail: `${c.id}, ${built.outgoing.method} ${pathOf(built.outgoing.url)}: ${met}` });
    const wait = replaying ? 0 : pollDelay(poll.interval_ms ?? 1000, attempt, exchange.response?.headers['retry-after']);
    if (attempt + 1 >= maxRequests) {
      pollVerdict = pollResult(id, poll, 'fail', `condition not met within ${maxRequests} requests: ${met}`, exchange, opts);
      break;
    }
    if (Date.now() + wait > deadline) {
      // The target still answers with a resource on its way to the condition (a job still running), or says it is
      // not ready yet (a 5xx, no answer in time: a model still loading): it is slow, which the spec allows. Running
      // out of time is the run's problem, never a verdict. A refusal (a 4xx) until the end is the target's answer.
      if (poll.while ? pollConditionMet({ until: poll.while }, exchange) === true : stillWorking(exchange)) opts.watch?.report(deadlineProblem(id.suite, `${c.id}: ${built.outgoing.method} ${pathOf(built.outgoing.url)} not finished within ${deadlineFlag(poll)} (${deadlineMs} ms, ${attempt + 1} request(s)): ${met}`, poll));
      pollVerdict = pollResult(id, poll, 'fail', `condition not met within ${deadlineMs} ms (${attempt + 1} request(s)): ${met}`, exchange, opts);
      break;
    }
    if (wait > 0) await sleep(wait, opts.signal);
  }
  const pollCutShort = poll !== undefined && pollVerdict === undefined;
  if (opts.signal?.aborted && (pollCutShort || exchange.error !== undefined)) {
    return { results: [skippedCase(id, `interrupted before the case could be judged${exchange.error ? `: ${exchange.error.message}` : ''}`)], exchange };
  }
  if (c.follow && 'urls' in c.follow) await followUrls(c.follow.urls, exchange, opts);
  if (c.follow && 'each' in c.follow && exchange.response) exchange.followed = await followEach(c.follow, exchange, built.outgoing, scope, opts);
  // Every request of this case has been answered (unless it was, from its body, already): the next case's may go
  // while this one is judged, once the event loop has turned so undici writes it (next-turn.ts).
  if (flow.answered?.(exchange.response?.status)) await nextTurn();
  const endpoint = endpointKey(built.outgoing.method, built.outgoing.url);
  const endpointServed = flow.served ? flow.served.has(endpoint) : undefined;
  const status = exchange.response?.status;
  if (status !== undefined && status >= 200 && status < 300) flow.served?.add(endpoint);
  const judged = judge(exchange, id, { registry: opts.registry, ctxFor, folds, schemas: opts.schemas, ...(opts.severityOf ? { severityOf: opts.severityOf } : {}), evidence: { ...(pollVerdict ? { poll: pollVerdict } : {}), rootOfCase, ...(opts.reportPasses ? { keepPassEvidence: true } : {}), ...(endpointServed !== undefined ? { endpointServed } : {}) } });
  const { results } = judged;
  // A poll whose answer could never meet its condition goes first; when it failed on its own, it is the root.
  const unreachable = hopeless && poll ? blockedPoll(id, poll, results, exchange, opts) : undefined;
  if (unreachable) results.unshift(unreachable.result);
  if (remembered.has(c.id)) history.set(c.id, forHistory(exchange));
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
export function forHistory(exchange: Exchange): Exchange {
  const r = exchange.response;
  if (!r) return exchange;
  const { bytes, text, ...rest } = r;
  const slim = r.json !== undefined ? rest : text !== undefined ? { ...rest, text } : { ...rest, ...(bytes ? { bytes } : {}) };
  return { ...exchange, response: slim };
}
