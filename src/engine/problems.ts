// Problems of the run, told apart from verdicts on the target. A refused connection, a name that does not
// resolve, a TLS handshake that fails, an unmatched replay request: none of these says anything about whether
// the target follows the spec, so a suite that meets one stops, and what it could not judge is not judged.

import type { Exchange, OutgoingRequest, SendOptions, Transport } from '../transport/types.ts';
import type { CheckResult, RunProblem } from './types.ts';

const UNREACHABLE = /\((ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)\)/;
const TLS = /\((CERT_[A-Z_]+|ERR_TLS_[A-Z_]+|ERR_SSL_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|EPROTO)\)/;

/** The run problem an exchange reveals, if any: never a property of the target's answers. */
export function problemOf(exchange: Exchange, suite?: string): RunProblem | undefined {
  const e = exchange.error;
  if (!e || exchange.response) return undefined;
  const at = suite ? { suite } : {};
  if (e.kind === 'unmatched') {
    return { kind: 'unmatched', ...at, message: `replay: ${e.message}`, hint: 'the cassettes do not hold this request: record them again (--record), or run with the settings they were recorded with' };
  }
  if (e.kind === 'rate-limited') {
    return { kind: 'rate-limited', ...at, message: e.message, hint: 'the target refused for its rate limit: lower --rate-limit or --jobs, or raise the limit of the key' };
  }
  if (e.kind !== 'network') return undefined;
  if (TLS.test(e.message)) return { kind: 'tls', ...at, message: `TLS handshake failed: ${e.message}`, hint: 'check the certificate of the target, or use the http:// URL it really serves' };
  if (UNREACHABLE.test(e.message)) return { kind: 'unreachable', ...at, message: `target unreachable: ${e.message}`, hint: 'check --base-url and that the server is running' };
  return undefined;
}

/**
 * Whether the target still answers at all (a plain GET /v1/models, any status, within --timeout). Asked when a
 * request got no answer in time and nothing else was answered while it waited; the request goes around the
 * run's transport (never recorded), taking a token of --rate-limit like any other.
 */
export type StillAnswers = () => Promise<boolean>;

/**
 * Wraps the run's transport: the first exchange of a suite that reveals a run problem records it, and later
 * requests of that suite are not sent at all (a dead target must not cost a timeout per case).
 * A target that stops answering altogether (it hangs after the preflight: a deadlock, a proxy that swallows
 * requests) stops every suite: one problem of the run, not a timeout failure per case, hundreds of times.
 */
export class ProblemWatch implements Transport {
  readonly name: Transport['name'];
  readonly problems: RunProblem[] = [];
  #suite: string | undefined;
  readonly #stopped = new Map<string, RunProblem>();
  /** The problem that stopped the whole run (the target stopped answering). */
  #stoppedAll: RunProblem | undefined;
  /** Answers seen so far, run-wide: a timeout with none since its request was sent may be a dead target. */
  #answers = 0;
  #probe: Promise<boolean> | undefined;
  /** When a probe last found the target answering. */
  #aliveAt: number | undefined;

  /**
   * `fullTimeoutMs`: --timeout. Only a request that waited that long asks whether the target still answers: a fuzz
   * request cut at its shorter cap says nothing (a single-worker server still busy with it is slow, not dead).
   */
  constructor(private readonly inner: Transport, private readonly onProblem: (p: RunProblem) => void = () => {}, private readonly stillAnswers?: StillAnswers, private readonly fullTimeoutMs = 0) {
    this.name = inner.name;
  }

  /** The problem that stopped this suite, if one did. */
  stoppedBy(suite: string): RunProblem | undefined {
    return this.#stopped.get(suite) ?? this.#stoppedAll;
  }

  /** Record a problem the engine found itself (e.g. every request of a suite refused with 401). */
  report(problem: RunProblem): void {
    if (problem.suite) {
      if (this.#stopped.has(problem.suite)) return;
      this.#stopped.set(problem.suite, problem);
    }
    this.problems.push(problem);
    this.onProblem(problem);
  }

  async send(request: OutgoingRequest, options: SendOptions): Promise<Exchange> {
    return this.#send({ suite: this.#suite, inner: this.inner }, request, options);
  }

  /**
   * The watch as one suite sees it: with --jobs several suites run at once, so each sends through its own view
   * (its problems stop only itself), sharing the run's list of problems.
   */
  view(suite: string): Transport {
    const inner = this.inner.forSuite?.(suite) ?? this.inner;
    return {
      name: this.name,
      send: (request, options) => this.#send({ suite, inner }, request, options),
      beginSuite: (s) => inner.beginSuite?.(s) ?? Promise.resolve(),
      endSuite: (s, meta) => inner.endSuite?.(s, meta) ?? Promise.resolve(),
      close: (outcome) => this.inner.close(outcome),
    };
  }

  /** A request of a suite (or of none), sent through that suite's transport. */
  async #send(via: { suite: string | undefined; inner: Transport }, request: OutgoingRequest, options: SendOptions): Promise<Exchange> {
    const { suite, inner } = via;
    const stopped = (suite ? this.#stopped.get(suite) : undefined) ?? this.#stoppedAll;
    // A deadline stops the suite's judging, not the target: its clean-up (cancel the job, delete the files) still goes.
    if (stopped && stopped.kind !== 'deadline') {
      return { request: { method: request.method, url: request.url, headers: {}, body: request.bodySummary }, error: { kind: 'not-sent', message: `not sent: ${stopped.message}` }, attachments: {}, timing: { startedAt: Date.now(), durationMs: 0 } };
    }
    const answersBefore = this.#answers;
    const exchange = await inner.send(request, options);
    // A URL an answer pointed at is no part of the target's base URL: whatever becomes of it is judged on the answer.
    if (options.pointedTo) return exchange;
    if (exchange.response) this.#answers++;
    const problem = problemOf(exchange, suite);
    if (problem) this.report(problem);
    // Returned only once the target is known to answer still: the case then stops with the run, unjudged.
    else if (exchange.error?.kind === 'timeout' && this.#answers === answersBefore && (options.headersTimeoutMs ?? options.timeoutMs) >= this.fullTimeoutMs) await this.#checkStillAnswers(exchange);
    return exchange;
  }

  /** One probe at a time, shared by the suites whose requests time out together. */
  async #checkStillAnswers(exchange: Exchange): Promise<void> {
    if (!this.stillAnswers || this.#stoppedAll) return;
    // An endpoint that hangs while the rest answers would cost a probe per case: once the target answered a
    // probe, the next is asked only a --timeout later.
    if (this.#aliveAt !== undefined && Date.now() - this.#aliveAt < Math.max(this.fullTimeoutMs, 1000)) return;
    this.#probe ??= this.stillAnswers().finally(() => { this.#probe = undefined; });
    if (await this.#probe) {
      this.#answers++;
      this.#aliveAt = Date.now();
      return;
    }
    if (this.#stoppedAll) return;
    const problem: RunProblem = {
      kind: 'unresponsive',
      message: `the target stopped answering: ${exchange.request.method} ${exchange.request.url} got no response (${exchange.error!.message}), and then GET /v1/models neither`,
      hint: 'check that the server is still running; if it is only slow, raise --timeout',
    };
    this.#stoppedAll = problem;
    this.problems.push(problem);
    this.onProblem(problem);
  }

  async beginSuite(suite: string): Promise<void> {
    this.#suite = suite;
    await this.inner.beginSuite?.(suite);
  }

  async endSuite(suite: string, meta: Record<string, unknown>): Promise<void> {
    await this.inner.endSuite?.(suite, meta);
    if (this.#suite === suite) this.#suite = undefined;
  }

  close(outcome?: { complete: boolean }): Promise<void> {
    return this.inner.close(outcome);
  }
}

/**
 * What a suite could not judge because of a run problem is not judged: its failures and errors from the
 * case the problem appeared in onwards become skips that say why. Passes before it stand.
 */
/** The flag that sets the deadline a poll (or a stream that lasts as long as a job) ran out of. */
export function deadlineFlag(poll: { deadline_ms?: number; deadline?: 'poll' | 'model-load' } | undefined): string {
  if (poll?.deadline_ms !== undefined) return 'the case\'s deadline_ms';
  return poll?.deadline === 'model-load' ? '--model-load-deadline' : '--poll-deadline';
}

/**
 * A deadline that ran out while the target was still working (a job still running, a model still loading, a job's
 * event stream still open): the target is slow, which the spec allows, so the suite stops without a verdict.
 */
export function deadlineProblem(suite: string, message: string, poll: { deadline_ms?: number; deadline?: 'poll' | 'model-load' } | undefined): RunProblem {
  const flag = deadlineFlag(poll);
  const hint = flag === '--model-load-deadline'
    ? 'the model was still loading: raise --model-load-deadline (or timeouts.model_load_ms)'
    : flag === '--poll-deadline'
      ? 'the target was still working: raise --poll-deadline (or timeouts.poll_deadline_ms); a live fine-tune takes 10 to 20 minutes, e.g. --poll-deadline 1500000'
      : 'the target was still working when the suite\'s own deadline_ms ran out: raise it in the suite';
  return { kind: 'deadline', suite, message, hint };
}

export function unjudged(results: CheckResult[], problem: RunProblem, fromCase: string | undefined): CheckResult[] {
  let reached = fromCase === undefined;
  return results.map((r) => {
    if (!reached && r.case === fromCase) reached = true;
    if (!reached || (r.status !== 'fail' && r.status !== 'error' && r.status !== 'warn' && r.status !== 'blocked')) return r;
    const { findings: _f, reproduce: _r, blockedBy: _b, ...rest } = r;
    return { ...rest, status: 'skip', message: `not judged: ${problem.message}` };
  });
}
