// An exchange the proxy forwards (judged and recorded as it passes) or serves from a cassette.

import type { ServerResponse } from 'node:http';
import type { CheckResult } from '../judge/results.ts';
import type { PendingJudgement, TrafficJudge } from '../traffic/judge-traffic.ts';
import { fillBody } from '../transport/body-decode.ts';
import { recordedBodyBytes, type CassetteDefinition, type ExchangeVerdict } from '../transport/cassette.ts';
import { decodeBody, toDefinition } from '../transport/cassette-record.ts';
import { isStreamAnswer, StreamTap } from '../transport/capture.ts';
import type { Exchange, ExchangeRequest, HttpMethod } from '../transport/types.ts';
import type { Agent } from '../transport/undici-core.ts';
import type { Redactor } from '../util/redact.ts';
import { answerError, pipeBody, relayedHeaders, sendUpstream, upstreamFailure } from './relay.ts';
import { flattenHeaders } from '../transport/headers.ts';
import { framingOf, replayedHeaders } from '../transport/replay-framing.ts';

export interface ForwardSettings {
  agent: Agent;
  headersTimeoutMs: number;
  maxKeptBytes: number;
  judge: TrafficJudge | undefined;
  recording: boolean;
}

export interface Forwarded {
  cassette: string;
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The request as reports and cassettes show it: redacted, its body summarised. */
  exchangeRequest: ExchangeRequest;
  startedAt: number;
}

export interface ForwardOutcome {
  status: number | undefined;
  results: CheckResult[];
  definition?: CassetteDefinition;
  error?: string;
}

const NO_JUDGE: PendingJudgement = { onEvent: () => {}, finish: () => [] };

/** The bytes of an answer kept for the judge and the recording, up to a bound; past it, none are kept. */
class Kept {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #size = 0;
  over = false;
  constructor(max: number) {
    this.#max = max;
  }
  push(b: Buffer): void {
    if (this.over) return;
    this.#size += b.length;
    if (this.#size > this.#max) {
      this.over = true;
      this.#chunks = [];
    } else this.#chunks.push(b);
  }
  bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#size);
  }
}

export async function forward(x: Forwarded, res: ServerResponse, settings: ForwardSettings, redactor: Redactor): Promise<ForwardOutcome> {
  const pending = settings.judge?.begin(x.exchangeRequest, { suite: x.cassette, startedAt: x.startedAt }) ?? NO_JUDGE;
  const controller = new AbortController();
  res.on('close', () => { if (!res.writableFinished) controller.abort(); });
  const t0 = performance.now();
  const exchange: Exchange = { request: x.exchangeRequest, attachments: {}, timing: { startedAt: x.startedAt, durationMs: 0 } };
  let upstream: Awaited<ReturnType<typeof sendUpstream>>;
  try {
    upstream = await sendUpstream(settings.agent, { method: x.method, url: x.url, headers: x.headers, body: x.body, signal: controller.signal });
  } catch (err) {
    if (controller.signal.aborted) return { status: undefined, results: [], error: 'the client went away before the answer' };
    const failure = upstreamFailure(err, settings.headersTimeoutMs);
    answerError(res, failure.status, { message: redactor.text(failure.error.message), code: failure.code });
    // No answer is no verdict on the service: recorded as what happened, judged by nothing.
    exchange.error = { kind: failure.error.kind, message: redactor.text(failure.error.message) };
    return { status: failure.status, results: [], error: exchange.error.message, ...(settings.recording ? { definition: toDefinition(outgoingOf(x), exchange, undefined, redactor) } : {}) };
  }
  res.writeHead(upstream.statusCode, relayedHeaders(upstream.headers));
  const headers = flattenHeaders(upstream.headers);
  const encoding = headers['content-encoding']?.trim().toLowerCase() || undefined;
  const stream = isStreamAnswer(headers);
  const judging = settings.judge !== undefined;
  if (!judging && !settings.recording) {
    // Relayed only: nothing is read of the answer.
    const ended = await pipeBody(upstream.body, res, undefined);
    return { status: upstream.statusCode, results: [], ...(ended.error ? { error: ended.error } : {}) };
  }
  // An event stream is folded as it passes, in constant memory; only a recording keeps its bytes.
  const tap = judging && stream && encoding === undefined ? new StreamTap((e, i) => pending.onEvent(e, i)) : undefined;
  const kept = new Kept(settings.maxKeptBytes);
  const keep = settings.recording || tap === undefined;
  const timing: Array<[number, number]> = [];
  const ended = await pipeBody(upstream.body, res, {
    chunk(bytes, delayMs) {
      tap?.feed(bytes);
      if (!keep) return;
      kept.push(bytes);
      if (settings.recording && !kept.over) timing.push([Math.round(delayMs), bytes.length]);
    },
  });
  exchange.timing.durationMs = performance.now() - t0;
  if (ended.error !== undefined && controller.signal.aborted) return { status: upstream.statusCode, results: [], error: ended.error };
  exchange.response = { status: upstream.statusCode, headers, truncated: kept.over };
  const raw = kept.over ? undefined : kept.bytes();
  const plain = raw !== undefined && encoding !== undefined ? decodeBody(encoding, raw) : raw;
  if (tap) exchange.stream = tap.finish(ended.error);
  else if (stream) exchange.stream = foldWhole(plain ?? Buffer.alloc(0), ended.error, pending);
  else if (plain !== undefined) fillBody(exchange.response, plain, headers['content-type']?.toLowerCase() ?? '');
  if (ended.error !== undefined) exchange.error = { kind: 'network', message: ended.error };
  else if (kept.over && tap === undefined) exchange.error = { kind: 'too-large', message: `answer longer than the ${settings.maxKeptBytes} bytes kept (--max-kept-bytes); relayed whole, not judged or recorded` };
  const results = pending.finish(exchange);
  if (!settings.recording) return { status: upstream.statusCode, results, ...(ended.error ? { error: ended.error } : {}) };
  const definition = toDefinition(outgoingOf(x), exchange, raw, redactor);
  if (stream && timing.length > 0) definition.chunks = timing;
  definition.verdict = verdictOf(results);
  return { status: upstream.statusCode, results, definition, ...(ended.error ? { error: ended.error } : {}) };
}

/** An event stream read once it ended (it came content-encoded): its events reach the judge as a tap's would. */
function foldWhole(bytes: Buffer, error: string | undefined, pending: PendingJudgement): NonNullable<Exchange['stream']> {
  const tap = new StreamTap((e, i) => pending.onEvent(e, i));
  tap.feed(bytes);
  return tap.finish(error);
}

function outgoingOf(x: Forwarded) {
  return { method: x.method, url: x.url, headers: x.headers, bodySummary: x.exchangeRequest.body, stream: false };
}

function verdictOf(results: readonly CheckResult[]): ExchangeVerdict {
  const broken = results.filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error')
    .map((r) => ({ check: r.check, requirements: r.requirements, severity: r.severity, message: r.message }));
  const status = results.length === 0 ? 'unjudged' : broken.some((b) => b.severity === 'must') ? 'fail' : broken.length > 0 ? 'warn' : 'pass';
  return { status, broken };
}

/** `recorded`: each chunk after its recorded delay; `none`: at once; a number: the recorded delays times it. */
export type ReplayTiming = 'recorded' | 'none' | number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A recorded answer, served as it was recorded: status, headers, and the body at its recorded chunk boundaries. */
export async function replay(res: ServerResponse, def: CassetteDefinition, timing: ReplayTiming): Promise<void> {
  if (def.status === 0) {
    answerError(res, def.error?.kind === 'timeout' ? 504 : 502, { message: `recorded: ${def.error?.message ?? 'no answer'}`, code: 'recorded_upstream_error' });
    return;
  }
  const body = recordedBodyBytes(def);
  const framing = framingOf(def);
  res.writeHead(def.status, replayedHeaders(def, framing, body.length));
  if (framing === 'bodiless') {
    res.end();
    return;
  }
  let at = 0;
  const scale = timing === 'none' ? 0 : timing === 'recorded' ? 1 : timing;
  for (const [delayMs, size] of def.chunks ?? []) {
    if (at >= body.length) break;
    if (scale > 0 && delayMs > 0) await sleep(delayMs * scale);
    // A client gone (or a stop cutting the connection) ends the replay: no 'drain' would ever come.
    if (res.destroyed) return;
    if (!res.write(body.subarray(at, at + size))) await new Promise((r) => { res.once('drain', r); res.once('close', r); });
    at += size;
  }
  if (res.destroyed) return;
  const rest = at < body.length ? body.subarray(at) : undefined;
  // Cut off upstream, cut off again: the client sees the connection break where it broke, not a short answer
  // that looks complete (RFC 9112 §8).
  if (framing === 'cut-off') res.write(rest ?? '', () => res.destroy());
  else res.end(rest);
}

