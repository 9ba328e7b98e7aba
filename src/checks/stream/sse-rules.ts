// The spec's rules for server-sent streams (Events 1–2): data-only events, `data: [DONE]` last, nothing after.
// One check per rule; each endpoint's variant cites that endpoint's requirement, so the table below is data.

import { notExercised, type Finding, type ResponseCheck, type StreamCheck } from '../types.ts';
import { eventJson } from './event-json.ts';
import { isEventStreamType } from '../../util/content-type.ts';
import { isSuccess } from '../../util/status.ts';

const DONE = '[DONE]';
const isDone = (data: string) => data.trim() === DONE;

/** Per-endpoint requirement IDs: the same rule, cited where the spec states it. */
export const STREAM_ENDPOINTS = {
  completion: { done: 'STREAM-COMP-DONE', sse: 'STREAM-COMP-SSE' },
  chat: { done: 'STREAM-CHAT-DONE', sse: 'STREAM-CHAT-SSE' },
  fine_tune_events: { done: 'STREAM-FT-EVENTS-DONE', sse: 'STREAM-FT-EVENTS-SSE' },
} as const;
type Endpoint = keyof typeof STREAM_ENDPOINTS;

export const sseContentType: StreamCheck<null> = {
  kind: 'stream',
  name: 'sse_content_type',
  requirements: ['STREAM-CONTENT-TYPE'],
  severity: 'must',
  summary: 'a stream is served as text/event-stream',
  start: () => null,
  event: () => undefined,
  end: (_s, _end, exchange) => {
    const type = exchange.response?.headers['content-type'] ?? '';
    return isEventStreamType(type) ? [] : [{ pointer: '#headers/content-type', message: 'server-sent events need Content-Type text/event-stream', expected: 'text/event-stream', actual: type || 'absent' }];
  },
};

export const sseDataOnly: StreamCheck<null> = {
  kind: 'stream',
  name: 'sse_data_only',
  requirements: ['STREAM-DATA-ONLY'],
  severity: 'must',
  summary: 'events are data-only (no event:, id: or retry: fields)',
  start: () => null,
  event: (_s, event, index) =>
    event.otherFields.length === 0 ? [] : [{ pointer: `#events/${index}`, message: `event ${index} carries ${event.otherFields.map((f) => `"${f}:"`).join(', ')} — the spec sends data-only events`, expected: 'data: lines only', actual: event.otherFields }],
  end: () => [],
};

interface DoneState { sawDone: boolean; eventsAfterDone: number }

function doneTerminates(endpoint: Endpoint): StreamCheck<DoneState> {
  return {
    kind: 'stream',
    name: `sse_${endpoint}_ends_with_done`,
    requirements: [STREAM_ENDPOINTS[endpoint].done],
    severity: 'must',
    summary: 'the stream ends with data: [DONE]',
    start: () => ({ sawDone: false, eventsAfterDone: 0 }),
    event: (s, event) => {
      if (s.sawDone) s.eventsAfterDone++;
      if (isDone(event.data)) s.sawDone = true;
    },
    end: (s, end, exchange) => {
      const detail = exchange.stream?.detail;
      if (end === 'timeout') return [{ pointer: '', message: `the stream never ended: ${detail ?? 'timed out'}`, expected: 'data: [DONE], then the end of the body', actual: `stalled after ${exchange.stream?.eventCount ?? 0} events` }];
      if (end === 'error') return [{ pointer: '', message: `the stream broke: ${detail ?? 'transport error'}`, expected: 'data: [DONE]', actual: 'connection error' }];
      if (!s.sawDone) return [{ pointer: '', message: `the body ended after ${exchange.stream?.eventCount ?? 0} events without data: [DONE]`, expected: 'data: [DONE]', actual: 'end of body' }];
      return [];
    },
  };
}

function nothingAfterDone(): StreamCheck<DoneState> {
  return {
    kind: 'stream',
    name: 'sse_nothing_after_done',
    requirements: ['STREAM-NOTHING-AFTER-DONE'],
    severity: 'must',
    summary: 'nothing follows data: [DONE]',
    start: () => ({ sawDone: false, eventsAfterDone: 0 }),
    event: (s, event, index) => {
      if (s.sawDone) {
        s.eventsAfterDone++;
        return s.eventsAfterDone === 1 ? [{ pointer: `#events/${index}`, message: 'an event follows data: [DONE]', expected: 'no events after [DONE]', actual: event.data.slice(0, 120) }] : [];
      }
      if (isDone(event.data)) s.sawDone = true;
      return [];
    },
    end: (s, _end, exchange) => {
      const after = exchange.stream?.afterDone ?? '';
      if (s.sawDone && after.trim() && s.eventsAfterDone === 0) return [{ pointer: '', message: 'bytes follow data: [DONE]', expected: 'end of body', actual: after.slice(0, 120) }];
      if (s.sawDone && exchange.stream?.openAfterDone) return [{ pointer: '', message: 'the body stayed open after data: [DONE]', expected: 'the end of the response right after [DONE]', actual: exchange.stream.detail ?? 'still open' }];
      return [];
    },
  };
}

function chunksAreJson(endpoint: Endpoint): StreamCheck<{ count: number }> {
  return {
    kind: 'stream',
    name: `sse_${endpoint}_chunks_are_json`,
    requirements: [STREAM_ENDPOINTS[endpoint].sse],
    severity: 'must',
    summary: 'every event before [DONE] carries one JSON object',
    start: () => ({ count: 0 }),
    event: (s, event, index): Finding[] => {
      if (isDone(event.data)) return [];
      s.count++;
      try {
        const v = eventJson(event) as unknown;
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return [{ pointer: `#events/${index}`, message: `event ${index} is JSON but not an object`, expected: 'a JSON object', actual: event.data.slice(0, 120) }];
        return [];
      } catch {
        return [{ pointer: `#events/${index}`, message: `event ${index} is not JSON`, expected: 'a JSON object', actual: event.data.slice(0, 120) }];
      }
    },
    end: (s, end) => {
      if (s.count > 0 || end !== 'done') return [];
      // Fine-tune events stream "new" events until the job finishes: a job that finished before the stream opened
      // may have none left to send, so an immediate [DONE] says nothing about the chunks.
      if (endpoint === 'fine_tune_events') return notExercised('the stream ended with [DONE] before any event (the job may have finished before it opened)');
      return [{ pointer: '', message: 'the stream carried no chunk before [DONE]', expected: 'at least one chunk', actual: 0 }];
    },
  };
}

/** Chunk shapes are "not shown" by the spec (Events 5): matching the service's chunk schema is a convention. */
export const sseChunkSchema: StreamCheck<null> = {
  kind: 'stream',
  name: 'sse_chunk_schema',
  requirements: ['STREAM-CHUNK-SHAPE'],
  severity: 'should',
  summary: 'chunks follow the service convention (params: schema)',
  params: { schema: { kind: 'string', required: true, doc: 'the chunk schema, under schemas/' } },
  start: () => null,
  event: (_s, event, index, ctx) => {
    if (isDone(event.data)) return [];
    const ref = String(ctx.params.schema ?? '');
    if (!ref) throw new Error('sse_chunk_schema needs `with: { schema: <ref> }`');
    let value: unknown;
    try { value = eventJson(event); } catch { return []; } // sse_*_chunks_are_json reports that
    return ctx.schemas.validate(ref, value).map((i) => ({ pointer: `#events/${index}${i.pointer === '/' ? '' : i.pointer}`, message: `event ${index}: ${i.message}`, ...(i.expected !== undefined ? { expected: i.expected } : {}), ...(i.actual !== undefined ? { actual: i.actual } : {}) }));
  },
  end: () => [],
};

/**
 * "best_of results cannot be streamed" (Events 1): no stream is produced. A refusal satisfies it, and so does one
 * JSON result; whether it is refused is COMP-BEST-OF-STREAM-REFUSED (should).
 */
export const answerNotAStream: ResponseCheck = {
  kind: 'response',
  name: 'answer_not_a_stream',
  requirements: ['COMP-BEST-OF-NO-STREAM', 'STREAM-COMP-BEST-OF'],
  severity: 'must',
  summary: 'no event stream is produced (a refusal, or one JSON result)',
  appliesTo: 'any',
  run: (exchange) => {
    const status = exchange.response?.status ?? 0;
    const type = exchange.response?.headers['content-type'] ?? '';
    const streamed = isSuccess(status) && (isEventStreamType(type) || (exchange.stream?.eventCount ?? 0) > 0);
    return streamed ? [{ pointer: '#headers/content-type', message: `a stream was produced (${exchange.stream?.eventCount ?? 0} events)`, expected: 'a refusal or one JSON result', actual: type || 'absent' }] : [];
  },
};

export const STREAM_RULE_CHECKS = [
  answerNotAStream,
  sseContentType,
  sseDataOnly,
  nothingAfterDone(),
  sseChunkSchema,
  ...(Object.keys(STREAM_ENDPOINTS) as Endpoint[]).flatMap((e) => [doneTerminates(e), chunksAreJson(e)]),
];
