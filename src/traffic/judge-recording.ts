// `conformance judge DIR|FILE.har`: a recording judged exchange by exchange, offline, as the proxy judges traffic
// while it passes. A cassette entry becomes the Exchange its replay would give: the stored body read as the live
// transport reads one, an event stream folded event by event.

import type { CheckResult } from '../judge/results.ts';
import { fillBody } from '../transport/body-decode.ts';
import { recordedBodyBytes, type CassetteDefinition } from '../transport/cassette.ts';
import { decodeBody } from '../transport/cassette-record.ts';
import { isStreamAnswer, StreamTap } from '../transport/capture.ts';
import { headersOfPairs } from '../transport/headers.ts';
import type { Exchange, ExchangeRequest, HttpMethod, RequestBodySummary } from '../transport/types.ts';
import type { ExchangeAt, TrafficJudge } from './judge-traffic.ts';

function bodyOf(def: CassetteDefinition): RequestBodySummary {
  if (def.multipart) return { kind: 'multipart', fields: def.multipart.fields, files: def.multipart.files.map((f) => ({ ...f })) };
  if (def.body === undefined || def.body === '') return { kind: 'none' };
  return typeof def.body === 'string' ? { kind: 'text', value: def.body } : { kind: 'json', value: def.body };
}

/** The results of one recorded exchange (`startedAt`: when it happened, or its position when that is unknown). */
export function judgeDefinition(def: CassetteDefinition, judge: TrafficJudge, at: ExchangeAt): CheckResult[] {
  const request: ExchangeRequest = { method: def.method.toUpperCase() as HttpMethod, url: new URL(def.path, def.scope).href, headers: {}, body: bodyOf(def) };
  // No answer was recorded (a reset, a timeout): no verdict on the service.
  if (def.status === 0) return [];
  const pending = judge.begin(request, at);
  const headers = headersOfPairs(def.rawHeaders ?? []);
  const raw = recordedBodyBytes(def);
  const encoding = headers['content-encoding']?.trim().toLowerCase() || undefined;
  const plain = encoding ? decodeBody(encoding, raw) ?? Buffer.alloc(0) : raw;
  const exchange: Exchange = { request, response: { status: def.status, headers, truncated: false }, attachments: {}, timing: { startedAt: at.startedAt, durationMs: 0 } };
  if (isStreamAnswer(headers)) {
    const tap = new StreamTap((e, i) => pending.onEvent(e, i));
    tap.feed(plain);
    exchange.stream = tap.finish(def.streamEnd?.end === 'error' || def.streamEnd?.end === 'timeout' ? def.streamEnd.detail ?? def.streamEnd.end : undefined);
  } else fillBody(exchange.response!, plain, headers['content-type']?.toLowerCase() ?? '');
  if (def.error) exchange.error = { ...def.error };
  return pending.finish(exchange);
}

/** Every exchange of a cassette, in recorded order (the ledger reads them as a sequence). */
export function judgeCassette(defs: readonly CassetteDefinition[], judge: TrafficJudge, suite: string): CheckResult[] {
  return defs.flatMap((def, i) => judgeDefinition(def, judge, { suite, startedAt: 0, label: `#${i + 1}` }));
}
