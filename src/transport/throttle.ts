// Rate limits and retries, kept apart from verdicts. A token bucket shared by every suite of the run
// (--rate-limit N/s), and retries of 429 — and of 503 with Retry-After — with bounded backoff (Retry-After
// honoured), unless the case is about that status or polls on its own. A request that is still refused after its
// retries is a problem of the run (kind rate-limited, exit 3), never an answer the checks judge.

import type { AnswerHead, Exchange, OutgoingRequest, SendOptions, Transport } from './types.ts';
import { retryAfterMs } from '../util/retry-after.ts';

export interface RetryStats {
  /** Requests sent again: after a 429 or 503, or (by the live transport) after a connection reset unanswered. */
  count: number;
  /** Time spent waiting: for retries, and for the rate limit. */
  waitedMs: number;
  /** By what they were sent again after: a status, or 'a connection reset'. */
  byStatus: Record<string, number>;
}

export interface ThrottleOptions {
  /** Requests per second over the whole run; undefined: no limit. */
  ratePerSecond?: number;
  /** Retries of one request (default 4). */
  maxRetries?: number;
  /** The longest one request waits in all before it counts as refused (default 60 s). */
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The run's interrupt (Ctrl-C, a CI cancel): it cuts a wait short, and a refused request is not sent again. A
   * request in flight still finishes, and the clean-up's requests still go; a wait of a minute is neither.
   */
  interrupt?: AbortSignal;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });

/**
 * Tokens refill continuously at `rate` per second, up to one: requests go 1/rate seconds apart. A bucket of `rate`
 * tokens let a one-second burst through on top of the refill, 2N requests in the first second, which a
 * fixed-window limiter of N per second refuses.
 */
export class TokenBucket {
  #tokens = 1;
  #at: number;
  constructor(private readonly rate: number, private readonly now: () => number) {
    this.#at = now();
  }

  /** Milliseconds to wait before the next request may go (0 when a token is there); takes the token. */
  take(): number {
    const t = this.now();
    this.#tokens = Math.min(1, this.#tokens + ((t - this.#at) / 1000) * this.rate);
    this.#at = t;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.rate) * 1000);
  }
}

/** Whether an answer is retried (when retries are on): a 429, or a 503 that says when to come back. */
function retryable(status: number | undefined, retryAfter: number | undefined): boolean {
  return status === 429 || (status === 503 && retryAfter !== undefined);
}

/** Not sent again: the run was interrupted while the request waited for its retry (the case is not judged). */
function interrupted(request: OutgoingRequest): Exchange {
  return {
    request: { method: request.method, url: request.url, headers: {}, body: { kind: 'none' } },
    attachments: {},
    timing: { startedAt: Date.now(), durationMs: 0 },
    error: { kind: 'aborted', message: 'interrupted while waiting to retry (Retry-After or backoff)' },
  } as Exchange;
}

export class ThrottledTransport implements Transport {
  readonly name: Transport['name'];
  readonly stats: RetryStats = { count: 0, waitedMs: 0, byStatus: {} };
  readonly #bucket: TokenBucket | undefined;
  readonly #now: () => number;
  readonly #sleep: NonNullable<ThrottleOptions['sleep']>;

  constructor(private readonly inner: Transport, private readonly opts: ThrottleOptions = {}) {
    this.name = inner.name;
    this.#now = opts.now ?? Date.now;
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#bucket = opts.ratePerSecond ? new TokenBucket(opts.ratePerSecond, this.#now) : undefined;
  }

  async send(request: OutgoingRequest, options: SendOptions): Promise<Exchange> {
    const maxRetries = options.retry === false ? 0 : (this.opts.maxRetries ?? 4);
    // A poll waits for a 503 on its own terms (a model loading), never for a rate limit's 429.
    const retries = (status: number | undefined, after: number | undefined) => retryable(status, after) && (options.retry !== 'rate-limit' || status === 429);
    const maxWaitMs = this.opts.maxWaitMs ?? 60_000;
    let waited = 0;
    // An answer about to be retried is not the caller's answer: it hears of the one it gets.
    const onBody = options.onBody;
    const inner: SendOptions = { ...options };
    if (onBody !== undefined && maxRetries > 0) {
      inner.onBody = (head: AnswerHead) => !retries(head.status, retryAfterMs(head.headers['retry-after'], this.#now())) && onBody(head);
    }
    // A request the inner transport sends again after a connection reset waits for the rate limit as any does.
    if (this.#bucket) inner.beforeResend = () => this.acquire(options.signal);
    for (let attempt = 0; ; attempt++) {
      // Without a wait the request goes out now, in this same turn (no await): a caller that sends and then
      // computes (the engine judging the case before while the next request is in flight) overlaps the two.
      const wait = this.#token();
      if (wait > 0) await this.#wait(wait, options.signal);
      const exchange = await this.inner.send(request, inner);
      if (exchange.resent !== undefined) this.#count('a connection reset');
      const status = exchange.response?.status;
      const after = retryAfterMs(exchange.response?.headers['retry-after'], this.#now());
      if (!retries(status, after) || maxRetries === 0 || options.signal?.aborted) return exchange;
      // Retry-After is honoured, never shortened (retrying early earns more refusals), and never shorter than our
      // own capped backoff either: "Retry-After: 0" five times in 60 ms would spend every retry at once.
      const delay = Math.max(after ?? 0, Math.min(500 * 2 ** attempt, 20_000));
      if (attempt >= maxRetries || waited + delay > maxWaitMs) {
        // A target still unavailable (503) after its retries gave its answer: judged like any other. A rate
        // limit (429) still refusing: the run could not get an answer to judge, which says nothing of the rule.
        if (status === 503) return exchange;
        const { response: _r, stream: _s, ...rest } = exchange;
        const asked = after !== undefined && waited + delay > maxWaitMs ? `; it asked to wait ${Math.round(after / 100) / 10} s more (Retry-After), beyond the ${maxWaitMs / 1000} s retries may wait` : '';
        return { ...rest, error: { kind: 'rate-limited', message: `${request.method} ${new URL(request.url).pathname} still answered ${status} after ${attempt} retr${attempt === 1 ? 'y' : 'ies'} (${Math.round(waited / 100) / 10} s waited)${asked}` } };
      }
      this.#count(String(status));
      waited += delay;
      await this.#wait(delay, options.signal);
      if (this.opts.interrupt?.aborted) return interrupted(request);
    }
  }

  #count(after: string): void {
    this.stats.count++;
    this.stats.byStatus[after] = (this.stats.byStatus[after] ?? 0) + 1;
  }

  /**
   * Waits for a token of the rate limit, for a request this transport does not send itself: the liveness probe's,
   * or one the inner transport sends again after a connection reset.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    const wait = this.#token();
    if (wait > 0) await this.#wait(wait, signal);
  }

  /**
   * Takes a token of the rate limit: how long to wait before the request goes. After an interrupt the requests that
   * still go are the clean-up's (deleting what the run created): they do not wait for it. A retry is not sent again.
   */
  #token(): number {
    return this.opts.interrupt?.aborted ? 0 : (this.#bucket?.take() ?? 0);
  }

  async #wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0) return;
    this.stats.waitedMs += ms;
    const signals = [signal, this.opts.interrupt].filter((s): s is AbortSignal => s !== undefined);
    await this.#sleep(ms, signals.length > 1 ? AbortSignal.any(signals) : signals[0]);
  }

  beginSuite(suite: string): Promise<void> {
    return this.inner.beginSuite?.(suite) ?? Promise.resolve();
  }

  endSuite(suite: string, meta: Record<string, unknown>): Promise<void> {
    return this.inner.endSuite?.(suite, meta) ?? Promise.resolve();
  }

  close(outcome?: { complete: boolean }): Promise<void> {
    return this.inner.close(outcome);
  }
}
