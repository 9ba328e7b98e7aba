// One request given to an undici dispatcher with a handler of our own: the answer's status and headers as soon as
// they are parsed, and its body as a RawBody (raw-body.ts). undici's request() wraps the same dispatch in an async
// resource, a promise and a Readable per answer, which the live transport then read back chunk by chunk: on the
// peer workload (3000 small answers in a row) that was ~50 µs of every request, between an answer and the next.

import type { Dispatcher } from 'undici';
import undiciUtil from 'undici/lib/core/util.js';
import { ArrivingBody, type RawBody } from './raw-body.ts';
import { originAndPath } from './undici-core.ts';

/** An answer: status, headers (lower-cased names; a repeated header an array) and the body still to read. */
export interface Answered {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: RawBody;
}

export interface Sending {
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/**
 * Sends `sending` to `url` through `dispatcher`: resolves with the answer once its headers are in, rejects with
 * undici's error (a refused connection, a reset) or, when `signal` aborts first, with its reason, at once. An abort
 * after the headers stops the body: its reader sees the error.
 */
export function dispatch(dispatcher: Dispatcher, url: string, sending: Sending, signal: AbortSignal): Promise<Answered> {
  const { origin, path } = originAndPath(url);
  return new Promise<Answered>((resolve, reject) => {
    const handler = new AnswerHandler(resolve, reject);
    if (signal.aborted) {
      handler.cancel(signal.reason);
      return;
    }
    signal.addEventListener('abort', () => handler.cancel(signal.reason), { once: true });
    dispatcher.dispatch({ origin, path, method: sending.method, headers: sending.headers, body: sending.body }, handler);
  });
}

/** undici's legacy handler interface, which its HTTP/1.1 client calls as it is (no wrapper in between). */
class AnswerHandler implements Dispatcher.DispatchHandler {
  readonly #resolve: (answered: Answered) => void;
  readonly #reject: (err: unknown) => void;
  #abort: ((err: Error) => void) | undefined;
  #reason: Error | undefined;
  #body: ArrivingBody | undefined;

  constructor(resolve: (answered: Answered) => void, reject: (err: unknown) => void) {
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /**
   * Stops the request. Before its answer's headers the caller hears at once, even while the request still waits for
   * a connection (undici aborts it when it gets one); after, the body's reader hears it as the body's error.
   */
  cancel(reason: unknown): void {
    if (this.#reason) return;
    this.#reason = reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
    if (this.#abort) this.#abort(this.#reason);
    if (!this.#body) this.#reject(this.#reason);
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.#reason) abort(this.#reason);
    else this.#abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], _resume: () => void, _statusText: string): boolean {
    // An interim answer (100 Continue, 103 Early Hints): the final one follows.
    if (statusCode < 200 || this.#reason) return true;
    this.#body = new ArrivingBody(() => this.cancel(new Error('the body was no longer read')));
    this.#resolve({ statusCode, headers: undiciUtil.parseHeaders(rawHeaders), body: this.#body });
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#body?.push(chunk);
    return true;
  }

  onComplete(): void {
    this.#body?.finish();
  }

  onError(err: Error): void {
    if (this.#body) this.#body.fail(err);
    else this.#reject(err);
  }
}
