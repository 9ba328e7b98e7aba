// Request pipelining: once a case's last answer is in, the next selected case's request may go while this one is
// judged. The target still sees one request after the other, in order, and the same requests. Whether it may go
// is a pure decision (mayGoAhead); sending it and handing it to its case is the Pipeline's.

import type { SuitePlan } from '../suite/types.ts';
import type { Ahead, Answer, Flow } from './case/context.ts';
import { sendOptions } from './case/send-options.ts';
import { independentRequest, dependencyOf } from './admission.ts';
import { awaitsBaseline, endpointBaseline, type Placed } from './causality.ts';
import type { SuiteState } from './suite-state.ts';
import type { WatchedOptions } from './options.ts';
import { buildRequest } from './request.ts';
import { isSuccess } from '../util/status.ts';

/**
 * Whether the next case's request may go while the case at `judging` is judged: only a case whose request, and
 * whether it runs at all, cannot depend on the verdict being computed. No templates (nothing captured feeds it), no
 * poll, follow or stream; not waiting for this case as its endpoint's baseline; not blocked or skipped. Never after
 * an answer that may stop the suite (a refusal before any request of the suite was accepted), nor after no answer.
 */
export function mayGoAhead(state: SuiteState, next: Placed, judging: { index: number; status: number | undefined }): boolean {
  const success = isSuccess(judging.status);
  if (!state.keys.accepted && !success) return false;
  // No answer (a timeout, a reset): the endpoint may hang, and a request sent ahead to it would only wait as long.
  if (judging.status === undefined) return false;
  if (!independentRequest(next.spec)) return false;
  if (awaitsBaseline(state, next, judging.index)) return false;
  return !endpointBaseline(state, next) && !dependencyOf(next.spec, state.profile, state);
}

/** What a pipeline works with: the suite's plan and state, the run's options, and the selected cases. */
export interface PipelineSetup {
  plan: SuitePlan;
  state: SuiteState;
  opts: WatchedOptions;
  selected: ReadonlySet<string>;
}

export class Pipeline {
  readonly #s: PipelineSetup;
  /** The next case's request, sent while this case is judged; consumed by that case's run. */
  #ahead: Ahead | undefined;
  #current = -1;

  constructor(setup: PipelineSetup) {
    this.#s = setup;
  }

  /** The flow of the case at `index`: the request sent ahead for it, if any, and whom to tell when it is answered. */
  take(index: number): { flow: Flow; answer: Answer } {
    const sent = this.#ahead?.index === index ? this.#ahead : undefined;
    this.#ahead = undefined;
    this.#current = index;
    const answer = sent?.answer ?? {};
    return { flow: { ...(sent ? { ahead: sent } : {}), answered: (status) => this.#answerOnce(answer, index, status) }, answer };
  }

  /** A request sent ahead whose case never ran (an interrupt): what it created is still seen, and deleted. */
  async drain(): Promise<void> {
    if (!this.#ahead) return;
    const c = this.#s.plan.spec.cases[this.#ahead.index]!;
    this.#s.state.ledger.observe({ method: c.request.method, path: c.request.path, organization: c.request.organization === 'other' ? 'other' : 'default' }, await this.#ahead.exchange);
  }

  /**
   * A case's answer, once: whether the suite was stopped when it came (read before a request goes ahead: a
   * problem that request meets is the next case's), and the lookahead. Called as soon as the body of a case's
   * only request is read (before it is parsed), else once its last answer is in. An answer that comes while the
   * case before it is still being judged (a request sent ahead, answered at once) is taken when its own case's
   * turn comes: what the lookahead reads (captures, baselines, refusals) is not settled before.
   */
  #answerOnce(answer: Answer, index: number, status: number | undefined): boolean {
    const { opts, plan } = this.#s;
    if (index !== this.#current || answer.stopped) return false;
    answer.stopped = { by: opts.watch?.stoppedBy(plan.spec.name) };
    return this.#lookahead(index, status);
  }

  #lookahead(index: number, status: number | undefined): boolean {
    const { opts, plan, state, selected } = this.#s;
    const { spec } = plan;
    if (opts.signal?.aborted || opts.watch?.stoppedBy(spec.name)) return false;
    let n = index + 1;
    while (n < spec.cases.length && !selected.has(spec.cases[n]!.id)) n++;
    const c = spec.cases[n];
    if (!c || !mayGoAhead(state, { spec: c, index: n }, { index, status })) return false;
    let built: ReturnType<typeof buildRequest>;
    try {
      built = buildRequest(c.request, opts.profile, `${spec.name}/${c.id}`);
    } catch {
      return false; // the case reports why when its turn comes
    }
    // Its own answer may send the case after it as soon as its body is read (SendOptions.onBody).
    const answer: Answer = {};
    const how = sendOptions(c, built, { timeouts: opts.profile.timeouts, polls: false });
    this.#ahead = { index: n, built, answer, exchange: opts.transport.send(built.outgoing, { ...how, onBody: (head) => this.#answerOnce(answer, n, head.status) }) };
    return true;
  }
}
