// The live transport: real HTTP over one keep-alive undici Agent. Never throws for network or
// server problems (they become `Exchange.error` / `StreamSummary.end`); only programmer errors
// (bad options, a throwing onEvent callback) throw.

import { Agent } from './undici-core.ts';
import { dispatch, type Answered } from './answer-handler.ts';
import type { Redactor } from '../util/redact.ts';
import { readBody, type ReadOutcome } from './http-body.ts';
import { decodeText, fillBody } from './body-decode.ts';
import { flattenHeaders } from './headers.ts';
import { SseParser } from './sse.ts';
import { nextTurn } from './next-turn.ts';
import { whenAborted } from './abort-fanout.ts';
import type {
  Exchange,
  ExchangeRequest,
  ExchangeResponse,
  OutgoingRequest,
  SendOptions,
  SseEvent,
  StreamSummary,
  Transport,
  TransportError,
} from './types.ts';

export interface LiveTransportOptions {
  /** Largest (decoded) response body read, in bytes; streams count their bytes too. */
  maxResponseBytes: number;
  redactor: Redactor;
  /** Most connections per origin (default: unlimited). */
  connections?: number;
  /** Keep the raw (still encoded) bytes of each response body for `takeRawBody` (used by the recorder). */
  keepRawBody?: boolean;
  /**
   * How this run's connections resolve names and which certificates they trust (the embedded target's remote
   * plugins: remoteConnect()); default: the system's resolver and Node's roots.
   */
  connect?: { lookup?: (...args: never[]) => void; ca?: string[] };
}

const HEADERS_TIMEOUT_REASON = 'headers-timeout';
/** What a body over the size cap keeps for reports. */
const TRUNCATED_PREFIX_BYTES = 4096;
/**
 * The most of one event stream that is read (and that a recording keeps): a completion or chat stream of this API
 * is bounded by max_tokens and the context length, a few MiB at the very most.
 */
export const STREAM_CAP = 16 * 1024 * 1024;
const DEFAULT_IDLE_MS = 10_000;
const SAMPLE_HEAD = 20;
const SAMPLE_TAIL = 5;
const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * Methods whose request gets the same answer when sent twice (safe, RFC 9110 §9.2.1), unless the caller says
 * otherwise: an idempotent DELETE leaves the same state, but its second answer is "not found".
 */
const SAFE: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How undici and the socket say a connection was closed under a request. */
const CLOSED_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Abort reasons, compared by identity. */
const TIMEOUT_REASON = new Error('total timeout');
const CALLER_ABORT_REASON = new Error('aborted by caller');

export type { Answered } from './answer-handler.ts';

/** How a request was answered, beyond the answer: sent twice, after a connection reset. */
interface AnswerMarks {
  resent?: Exchange['resent'];
}

export class LiveTransport implements Transport {
  readonly name = 'live' as const;
  readonly #agent: Agent;
  readonly #maxBytes: number;
  readonly #redactor: Redactor;
  readonly #raw: WeakMap<Exchange, Buffer[]> | null;
  /** Exchanges whose raw body went past what a recording keeps. */
  readonly #rawOverCap = new WeakSet<Exchange>();
  readonly #connect: LiveTransportOptions['connect'];

  constructor(opts: LiveTransportOptions) {
    if (!(opts.maxResponseBytes > 0)) throw new RangeError('maxResponseBytes must be > 0');
    this.#maxBytes = opts.maxResponseBytes;
    this.#redactor = opts.redactor;
    this.#raw = opts.keepRawBody === true ? new WeakMap() : null;
    this.#connect = opts.connect;
    this.#agent = new Agent({
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      pipelining: 1,
      ...(opts.connections !== undefined ? { connections: opts.connections } : {}),
      ...(opts.connect ? { connect: { ...opts.connect } as object } : {}),
    });
  }

  send(req: OutgoingRequest, options: SendOptions): Promise<Exchange> {
    const resend = options.resendOnReset ?? SAFE.has(req.method);
    return this.#exchange(req, options, async (headers, signal, marks) => {
      const ask = (dispatcher: Agent) => dispatch(dispatcher, req.url, { method: req.method, headers, body: req.body ?? null }, signal);
      try {
        return await ask(this.#agent);
      } catch (err) {
        if (!resend || signal.aborted || !closedBeforeAnswer(err)) throw err;
        // The connection was closed before the answer's headers came whole: one kept alive that the target had just
        // let go, or an upload it answered before reading and then dropped (the reset can discard that answer).
        // Sent once more, on a connection of its own, as browsers and Go's client do; a target that breaks every
        // answer off breaks this one too, and is judged on it.
        marks.resent = 'connection reset';
        await options.beforeResend?.();
        const fresh = new Agent({ pipelining: 1, ...(this.#connect ? { connect: { ...this.#connect } as object } : {}) });
        try {
          const answered = await ask(fresh);
          // Closed once the answer is read: close() waits for the request in flight.
          void fresh.close();
          return answered;
        } catch (again) {
          void fresh.destroy();
          // The second attempt's code stays on the error: a timeout is still read as one.
          throw Object.assign(new Error(`${describe(err)}; sent again on a new connection: ${describe(again)}`), { code: errorCode(again) });
        }
      }
    }, { onTheWire: true });
  }

  /**
   * The Exchange of an answer already at hand (a recording replayed): read, decoded, folded and bounded by the very
   * code that reads an answer from the network.
   */
  answerWith(req: OutgoingRequest, options: SendOptions, answered: Answered): Promise<Exchange> {
    return this.#exchange(req, options, () => Promise.resolve(answered), { onTheWire: false });
  }

  /**
   * `answer` sends the request (or has its answer at hand) and marks how; `onTheWire`: it sends it, and undici
   * writes it on the connection one turn of the event loop later (next-turn.ts).
   */
  async #exchange(req: OutgoingRequest, options: SendOptions, answer: (headers: Record<string, string>, signal: AbortSignal, marks: AnswerMarks) => Promise<Answered>, how: { onTheWire: boolean }): Promise<Exchange> {
    const timeoutMs = options.timeoutMs;
    if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be > 0 (got ${timeoutMs})`);
    const startedAt = Date.now();
    const t0 = performance.now();

    const headers = headersAsSent(req);

    // One controller for the total timeout and the caller's signal.
    const controller = new AbortController();
    const signal = controller.signal;
    let timer = Number.isFinite(timeoutMs) ? setTimeout(() => controller.abort(TIMEOUT_REASON), timeoutMs) : null;
    let bound = timeoutMs;
    // A target that accepts a request and never answers must not hold a stream for its whole budget.
    const headersMs = Math.min(options.headersTimeoutMs ?? timeoutMs, timeoutMs);
    const headersTimer = headersMs < timeoutMs ? setTimeout(() => controller.abort(HEADERS_TIMEOUT_REASON), headersMs) : null;
    const stopWatchingCaller = options.signal === undefined ? undefined : whenAborted(options.signal, () => controller.abort(CALLER_ABORT_REASON));
    const marks: AnswerMarks = {};
    const timing = { startedAt, durationMs: 0 };

    try {
      const answering = answer(headers, signal, marks);
      if (how.onTheWire) {
        // Recording what was sent (redacted) is work of the record only: done once the request is on the wire, not
        // before, where it delayed every request of a run. Its failure is read below.
        answering.catch(() => undefined);
        await nextTurn();
      }
      const exchange: Exchange = { request: this.#redactRequest(req, headers), attachments: {}, timing };
      let res: Answered;
      try {
        res = await answering;
      } catch (err) {
        if (marks.resent) exchange.resent = marks.resent;
        exchange.error = signal.reason === HEADERS_TIMEOUT_REASON
          ? { kind: 'timeout', message: this.#redactor.text(`${req.method} ${req.url}: no response headers within ${headersMs} ms`) }
          : this.#abortError(signal, timeoutMs) ?? this.#networkError(req, err, 'request');
        return exchange;
      } finally {
        if (headersTimer !== null) clearTimeout(headersTimer);
      }
      if (marks.resent) exchange.resent = marks.resent;

      if (this.#raw !== null) {
        // An observer of the body sees the same chunks as the reader below, before decompression.
        const chunks: Buffer[] = [];
        this.#raw.set(exchange, chunks);
        // Bounded like the read itself: past the cap the raw bytes are dropped (the recorder then stores the
        // readable prefix and the too-large error instead of a body no replay needs in full).
        // A recording keeps at most STREAM_CAP of an event stream (as much as is read of it).
        const rawCap = (res.headers['content-type'] ?? '').toString().toLowerCase().startsWith('text/event-stream') ? Math.min(this.#maxBytes, STREAM_CAP) : this.#maxBytes;
        let rawSize = 0;
        res.body.observe((chunk) => {
          if (rawSize > rawCap) return;
          rawSize += chunk.length;
          if (rawSize > rawCap) { chunks.length = 0; this.#rawOverCap.add(exchange); }
          else chunks.push(chunk);
        });
      }
      const resHeaders = flattenHeaders(res.headers);
      const response: ExchangeResponse = { status: res.statusCode, headers: resHeaders, truncated: false };
      exchange.response = response;
      const encoding =
        req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 ? undefined : resHeaders['content-encoding']?.trim().toLowerCase();
      const contentType = resHeaders['content-type']?.toLowerCase() ?? '';

      // A body the target declares as an event stream is read as one, asked for or not: events are folded as
      // they arrive (bounded memory), instead of holding up to the whole size cap as one candidate JSON text.
      if (contentType.startsWith('text/event-stream')) {
        await this.#readStream(req, exchange, response, res.body, encoding, signal, options);
      } else {
        // Asked for a stream, answered with a body: it is bounded as a body (a JSON answer dripping for minutes must
        // not hold the run for the whole stream budget).
        if (options.wholeTimeoutMs !== undefined && options.wholeTimeoutMs < timeoutMs && timer !== null) {
          clearTimeout(timer);
          bound = options.wholeTimeoutMs;
          timer = setTimeout(() => controller.abort(TIMEOUT_REASON), Math.max(0, startedAt + bound - Date.now()));
        }
        await this.#readWhole(req, exchange, response, res.body, encoding, contentType, signal, bound, options.onBody);
      }
      return exchange;
    } finally {
      if (timer !== null) clearTimeout(timer);
      stopWatchingCaller?.();
      timing.durationMs = performance.now() - t0;
    }
  }

  /** With `keepRawBody`: the response body bytes as received on the wire (before decoding), once. */
  takeRawBody(exchange: Exchange): Buffer | undefined {
    const chunks = this.#raw?.get(exchange);
    if (chunks === undefined) return undefined;
    this.#raw!.delete(exchange);
    if (this.#rawOverCap.has(exchange)) return undefined;
    return Buffer.concat(chunks);
  }

  async close(): Promise<void> {
    await this.#agent.destroy();
  }

  async #readWhole(
    req: OutgoingRequest,
    exchange: Exchange,
    response: ExchangeResponse,
    body: Parameters<typeof readBody>[0],
    encoding: string | undefined,
    contentType: string,
    signal: AbortSignal,
    timeoutMs: number,
    onBody: SendOptions['onBody'],
  ): Promise<void> {
    const cap = this.#maxBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    const outcome = await readBody(body, {
      encoding,
      signal,
      idleMs: 0,
      onChunk(chunk) {
        if (size + chunk.length > cap) {
          const keep = cap - size;
          if (keep > 0) {
            chunks.push(chunk.subarray(0, keep));
            size += keep;
          }
          return false;
        }
        chunks.push(chunk);
        size += chunk.length;
        return true;
      },
    });
    if (outcome.kind === 'throw') throw outcome.error;
    if (outcome.kind === 'stopped') {
      // Over the cap: the answer is incomplete, and everything judged on it is blocked by that. Keep only what a
      // person needs to see (a prefix), not the whole capped body three times over (bytes, text, JSON).
      const prefix = Buffer.concat(chunks, Math.min(size, TRUNCATED_PREFIX_BYTES));
      chunks.length = 0;
      response.bytes = prefix;
      const text = decodeText(prefix, contentType);
      if (text !== undefined) response.text = text;
      response.truncated = true;
      exchange.error = { kind: 'too-large', message: `response body larger than the ${cap}-byte cap (max_response_bytes); read stopped there` };
      return;
    }
    if (outcome.kind === 'end') {
      if (onBody !== undefined && onBody({ status: response.status, headers: response.headers })) await nextTurn();
      fillBody(response, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), contentType);
      return;
    }
    exchange.error = this.#abortError(signal, timeoutMs) ?? this.#readError(req, outcome, size);
  }

  async #readStream(
    req: OutgoingRequest,
    exchange: Exchange,
    response: ExchangeResponse,
    body: Parameters<typeof readBody>[0],
    encoding: string | undefined,
    signal: AbortSignal,
    options: SendOptions,
  ): Promise<void> {
    // An event stream of this API is short (max_tokens, the context length): it is read up to STREAM_CAP.
    const cap = Math.min(this.#maxBytes, STREAM_CAP);
    const idleMs = options.idleTimeoutMs !== undefined && options.idleTimeoutMs > 0 ? options.idleTimeoutMs : DEFAULT_IDLE_MS;
    const onEvent = options.onEvent;
    const head: SseEvent[] = [];
    const tail: SseEvent[] = [];
    let tailAt = 0;
    let count = 0;
    const parser = new SseParser((event) => {
      const index = count++;
      if (index < SAMPLE_HEAD) head.push(event);
      else if (tail.length < SAMPLE_TAIL) tail.push(event);
      else {
        tail[tailAt] = event;
        tailAt = (tailAt + 1) % SAMPLE_TAIL;
      }
      if (onEvent !== undefined) onEvent(event, index);
    });

    const outcome = await readBody(body, {
      encoding,
      signal,
      idleMs,
      idleFrozen: () => parser.doneSeen,
      onChunk(chunk) {
        const room = cap - parser.bytes;
        if (chunk.length > room) {
          if (room > 0) parser.feed(chunk.subarray(0, room));
          return false;
        }
        parser.feed(chunk);
        return true;
      },
    });
    if (outcome.kind === 'throw') throw outcome.error;
    parser.end();

    const done = parser.doneSeen;
    const events = `${count} event${count === 1 ? '' : 's'}`;
    const summary: StreamSummary = {
      sample: tail.length === 0 ? head : head.concat(tail.slice(tailAt), tail.slice(0, tailAt)),
      eventCount: count,
      end: done ? 'done' : 'eof',
      afterDone: parser.afterDone,
      bytes: parser.bytes,
    };
    exchange.stream = summary;
    const incomplete = parser.incomplete !== '' ? ` (incomplete final event discarded: ${parser.incomplete})` : '';

    switch (outcome.kind) {
      case 'end':
        if (!done) summary.detail = `stream ended without data: [DONE] after ${events}${incomplete}`;
        return;
      case 'idle':
        if (done) {
          summary.detail = `connection still open ${idleMs} ms after data: [DONE]; stopped reading`;
          summary.openAfterDone = true;
        } else {
          summary.end = 'timeout';
          summary.detail = `stream stalled: no bytes for ${idleMs} ms after ${events}`;
          exchange.error = { kind: 'stall', message: summary.detail };
        }
        return;
      case 'stopped':
        response.truncated = true;
        summary.end = 'error';
        summary.detail = `stream exceeds ${cap} bytes after ${events}; stopped reading`;
        exchange.error = { kind: 'too-large', message: summary.detail };
        return;
      default: {
        const abort = this.#abortError(signal, options.timeoutMs);
        if (done) {
          summary.detail = `body not closed after data: [DONE]: ${abort?.message ?? ('error' in outcome ? describe(outcome.error) : 'aborted')}`;
          summary.openAfterDone = true;
          return;
        }
        if (abort !== undefined) {
          summary.end = abort.kind === 'timeout' ? 'timeout' : 'error';
          summary.detail =
            abort.kind === 'timeout' ? `stream incomplete after ${options.timeoutMs} ms: ${events} received` : `stream aborted by caller after ${events}`;
          exchange.error = abort;
          return;
        }
        summary.end = 'error';
        exchange.error = this.#readError(req, outcome, parser.bytes);
        summary.detail = `${exchange.error.message} (after ${events})`;
      }
    }
  }

  #redactRequest(req: OutgoingRequest, headers: Record<string, string>): ExchangeRequest {
    const r = this.#redactor;
    // Copied only where a secret is replaced: a request body (a plan's value, never mutated) is not duplicated
    // for every exchange of a run; a JSON body whose bytes hold no secret is not even walked.
    const clean = req.bodySummary.kind === 'json' && req.body !== undefined && r.absentFromJson(req.body);
    return { method: req.method, url: r.text(req.url), headers: r.headers(headers), body: clean ? req.bodySummary : r.shared(req.bodySummary) };
  }

  #abortError(signal: AbortSignal, timeoutMs: number): TransportError | undefined {
    if (!signal.aborted) return undefined;
    if (signal.reason === TIMEOUT_REASON) return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` };
    return { kind: 'aborted', message: 'request aborted by the caller' };
  }

  #networkError(req: OutgoingRequest, err: unknown, phase: string): TransportError {
    const code = errorCode(err);
    const kind = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? 'timeout' : 'network';
    const message = `${req.method} ${req.url}: ${phase} failed: ${describe(err)}`;
    return { kind, message: this.#redactor.text(message) };
  }

  #readError(req: OutgoingRequest, outcome: Exclude<ReadOutcome, { kind: 'throw' }>, bytesSoFar: number): TransportError {
    switch (outcome.kind) {
      case 'decode-error':
        return this.#networkError(req, outcome.error, 'decoding the response body');
      case 'error':
        return this.#networkError(req, outcome.error, `reading the response body (after ${bytesSoFar} bytes)`);
      case 'aborted':
        return { kind: 'aborted', message: 'request aborted' };
      default:
        return { kind: 'network', message: this.#redactor.text(`${req.method} ${req.url}: response body read ended unexpectedly (${outcome.kind})`) };
    }
  }
}

/** Headers as sent: the caller's, plus accept-encoding and an exact content-length (replay reports the same). */
export function headersAsSent(req: OutgoingRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  let hasAcceptEncoding = false;
  for (const name in req.headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length') continue;
    if (lower === 'accept-encoding') hasAcceptEncoding = true;
    headers[name] = req.headers[name]!;
  }
  if (!hasAcceptEncoding) headers['accept-encoding'] = ACCEPT_ENCODING;
  if (req.body !== undefined) headers['content-length'] = String(req.body.byteLength);
  return headers;
}

/** The connection was closed under the request (reset, or closed by the other side), as opposed to refused or timed out. */
function closedBeforeAnswer(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && CLOSED_CODES.has(code);
}

function errorCode(err: unknown): string | undefined {
  if (err !== null && typeof err === 'object') {
    const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string') return e.code;
    if (Array.isArray(e.errors)) for (const inner of e.errors) if (errorCode(inner) !== undefined) return errorCode(inner);
    if (e.cause !== undefined && e.cause !== err) return errorCode(e.cause);
  }
  return undefined;
}

/** "connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)", including AggregateError parts and causes. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts: string[] = [];
  if (err.message !== '') parts.push(err.message);
  const aggregate = (err as { errors?: unknown }).errors;
  if (Array.isArray(aggregate)) for (const inner of aggregate) parts.push(describe(inner));
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message !== '' && !parts.includes(cause.message)) parts.push(`cause: ${cause.message}`);
  const code = errorCode(err);
  let text = parts.length > 0 ? parts.join('; ') : err.name;
  if (code !== undefined) text += ` (${code})`;
  return text;
}
