// Fine-tune events as server-sent events (Events 2): each data payload is a Fine-tune event; events
// arrive in the job's order, each once. The generic SSE rules (data-only, [DONE]) are in stream/sse-rules.ts.

import { notExercised, type Finding, type StreamCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { historyParam } from '../files/support.ts';
import { caseParam } from '../params.ts';
import { jobIn, TERMINAL } from './jobs.ts';
import { eventJson } from '../stream/event-json.ts';

const isDone = (data: string) => data.trim() === '[DONE]';
const EVENT_SCHEMA = 'resources/fine-tune-event.schema.json';

/** "new Fine-tune event objects are sent as data-only server-sent events". */
export const ftStreamEventsAreEvents: StreamCheck<null> = {
  kind: 'stream',
  name: 'ft_stream_events_are_events',
  requirements: ['STREAM-FT-EVENTS-SSE'],
  severity: 'must',
  summary: 'every streamed data payload before [DONE] is a Fine-tune event object',
  start: () => null,
  event: (_s, event, index, ctx): Finding[] => {
    if (isDone(event.data)) return [];
    let value: unknown;
    try {
      value = eventJson(event);
    } catch {
      return [{ pointer: `#events/${index}`, message: `event ${index} is not JSON`, expected: 'a Fine-tune event object', actual: event.data.slice(0, 120) }];
    }
    return ctx.schemas.validate(EVENT_SCHEMA, value).map((i) => ({
      pointer: `#events/${index}${i.pointer === '/' ? '' : i.pointer}`,
      message: `event ${index}: ${i.message}`,
      ...(i.expected !== undefined ? { expected: i.expected } : {}),
      ...(i.actual !== undefined ? { actual: i.actual } : {}),
    }));
  },
  end: () => [],
};

interface OrderState {
  events: Array<{ index: number; message: string; created_at: unknown; level: unknown }>;
}

const key = (e: Record<string, unknown>) => JSON.stringify([e.message, e.created_at, e.level]);

/**
 * Events arrive in the order they occurred, each once: created_at never decreases, and — when `with: { job: <case
 * id> }` names a retrieval of the job that had finished — each streamed event is one of that job's (or later).
 * Words are not judged: the spec gives the messages' meaning, not their wording.
 */
export const ftStreamEventsInOrder: StreamCheck<OrderState> = {
  kind: 'stream',
  name: 'ft_stream_events_in_order',
  requirements: ['STREAM-FT-EVENTS-ORDER'],
  severity: 'must',
  summary: 'streamed events come in the job\'s order, each once (with: job, optional)',
  params: { job: caseParam('a case that retrieved the job, whose events the stream must follow', false) },
  start: () => ({ events: [] }),
  event: (s, event, index) => {
    if (isDone(event.data)) return;
    try {
      const v = eventJson(event) as unknown;
      if (isRecord(v)) s.events.push({ index, message: typeof v.message === 'string' ? v.message : '', created_at: v.created_at, level: v.level });
    } catch { /* ft_stream_events_are_events reports it */ }
  },
  end: (s, _end, _exchange, ctx) => {
    const out: Finding[] = [];
    const seen = new Map<string, number>();
    for (const e of s.events) {
      const k = key(e);
      if (seen.has(k)) { out.push({ pointer: `#events/${e.index}`, message: `event ${e.index} repeats event ${seen.get(k)} ("${e.message}")`, expected: 'each event once', actual: e.message }); break; }
      seen.set(k, e.index);
    }
    for (let i = 1; i < s.events.length; i++) {
      const a = s.events[i - 1]!;
      const b = s.events[i]!;
      if (typeof a.created_at === 'number' && typeof b.created_at === 'number' && b.created_at < a.created_at) {
        out.push({ pointer: `#events/${b.index}/created_at`, message: `event ${b.index} is older than event ${a.index}`, expected: `created_at ≥ ${a.created_at}`, actual: b.created_at });
        break;
      }
    }
    if (ctx.params.job !== undefined) {
      const { caseId, exchange } = historyParam(ctx, 'job');
      const job = exchange ? jobIn(exchange) : undefined;
      // No job at all (a late cancel refused because the job had already finished, on a fast or loaded server):
      // nothing to compare the stream with, which says nothing about the stream. A job without events is a finding.
      if (!job) return out.length > 0 ? out : notExercised(`case "${caseId}" answered no job to compare the stream with (e.g. a refused late cancel)`);
      if (!Array.isArray(job.events)) {
        out.push({ pointer: '', message: `case "${caseId}" returned no job with events to compare with`, expected: 'a job with events', actual: 'none' });
        return out;
      }
      // The order of occurrence is created_at's (above): the job's array may list them in any order.
      const known = new Set(job.events.filter(isRecord).map(key));
      const last = Math.max(0, ...job.events.map((e) => (isRecord(e) && typeof e.created_at === 'number' ? e.created_at : 0)));
      if (typeof job.status === 'string' && TERMINAL.has(job.status)) {
        const stray = s.events.find((e) => !known.has(key(e)) && !(typeof e.created_at === 'number' && e.created_at > last));
        if (stray) out.push({ pointer: `#events/${stray.index}`, message: `event ${stray.index} ("${stray.message}") is not among the finished job's events`, expected: 'one of the job\'s events', actual: stray.message });
      }
    }
    return out;
  },
};
