// Fine-tunes: the events a job records (Resources / Fine-tune event; Events 3–4).
// "Messages that occur in a job's life, in order: job enqueued (with a queue number), job started,
// snapshot uploaded (with the model name), result files uploaded (with a file id), job succeeded."
// Messages are matched on the words the spec uses; other events may be interleaved.

import type { Exchange } from '../../transport/types.ts';
import { notExercised, type CheckContext, type Finding, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { bodyOf, finding, historyParam, unlessOkJson } from '../files/support.ts';
import { eventsOf, jobIn, TERMINAL, type EventView, type Job } from './jobs.ts';
import { caseParam } from '../params.ts';

export interface Milestone {
  key: 'enqueued' | 'started' | 'snapshot' | 'results' | 'succeeded';
  what: string;
  matches(message: string, job: Job): boolean;
}

const resultFileIds = (job: Job): string[] =>
  Array.isArray(job.result_files) ? job.result_files.flatMap((f) => (isRecord(f) && typeof f.id === 'string' ? [f.id] : [])) : [];

export const MILESTONES: readonly Milestone[] = [
  { key: 'enqueued', what: 'job enqueued (with a queue number)', matches: (m) => /enqueue/i.test(m) && /\d/.test(m) },
  { key: 'started', what: 'job started', matches: (m) => /\bstart/i.test(m) },
  { key: 'snapshot', what: 'snapshot uploaded (with the model name)', matches: (m, job) => /upload/i.test(m) && typeof job.fine_tuned_model === 'string' && job.fine_tuned_model !== '' && m.includes(job.fine_tuned_model) },
  { key: 'results', what: 'result files uploaded (with a file id)', matches: (m, job) => /upload/i.test(m) && resultFileIds(job).some((id) => m.includes(id)) },
  { key: 'succeeded', what: 'job succeeded', matches: (m) => /succeed/i.test(m) },
];

const milestone = (key: Milestone['key']): Milestone => MILESTONES.find((m) => m.key === key)!;

/** The job's events, or a finding why they are missing. */
function jobEvents(job: Job): EventView[] | Finding {
  const events = eventsOf(job.events);
  return events ?? finding('/events', 'the job has no events array', 'an array of Fine-tune event', job.events ?? 'absent');
}

const succeededJobSkip = (exchange: Exchange): string | undefined => {
  const why = unlessOkJson(exchange);
  if (why) return why;
  const status = bodyOf(exchange)!.status;
  return status === 'succeeded' ? undefined : `the job is ${String(status)}, not succeeded (ft_status_succeeded reports that)`;
};

/** The five lifecycle messages occur as a subsequence in this order, created_at never decreasing. */
export const ftEventsLifecycleOrder: ResponseCheck = {
  kind: 'response',
  name: 'ft_events_lifecycle_order',
  requirements: ['FT-EVENTS-ORDER', 'FT-STATE-SUCCEEDED-EVENTS', 'FT-EVENT-STARTED'],
  severity: 'must',
  summary: 'a succeeded job\'s events hold enqueued, started, snapshot uploaded, result uploaded, succeeded in this order',
  skipWhen: succeededJobSkip,
  run: (exchange) => {
    const job = bodyOf(exchange)!;
    const events = jobEvents(job);
    if (!Array.isArray(events)) return [events];
    const out: Finding[] = [];
    let after = -1;
    let previous: Milestone | undefined;
    for (const m of MILESTONES) {
      const at = events.findIndex((e) => e.index > after && m.matches(e.message, job));
      if (at >= 0) { after = at; previous = m; continue; }
      const anywhere = events.find((e) => m.matches(e.message, job));
      out.push(anywhere
        ? finding(`/events/${anywhere.index}`, `"${m.what}" comes before "${previous?.what}"`, `${m.what} after ${previous?.what}`, anywhere.message)
        : finding('/events', `no event says ${m.what}`, m.what, events.map((e) => e.message)));
    }
    for (let i = 1; i < events.length; i++) {
      const a = events[i - 1]!.created_at;
      const b = events[i]!.created_at;
      if (typeof a === 'number' && typeof b === 'number' && b < a) {
        out.push(finding(`/events/${i}/created_at`, 'events are in order: created_at never decreases', `≥ ${a}`, b));
        break;
      }
    }
    return out;
  },
};

/** States and transitions: create "records" an info event about enqueueing with a queue number. */
export const ftEnqueueEventRecorded: ResponseCheck = {
  kind: 'response',
  name: 'ft_enqueue_event_recorded',
  requirements: ['FT-STATE-CREATE-ENQUEUE-EVENT'],
  severity: 'must',
  summary: 'the job\'s events (or the events list) hold an info event about enqueueing with a queue number',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const body = bodyOf(exchange)!;
    const events = eventsOf(body.object === 'list' ? body.data : body.events);
    if (!events) return [finding(body.object === 'list' ? '/data' : '/events', 'no events array', 'an array of Fine-tune event', 'absent')];
    const enqueued = events.find((e) => milestone('enqueued').matches(e.message, body));
    if (!enqueued) return [finding(body.object === 'list' ? '/data' : '/events', 'no event about enqueueing with a queue number', 'e.g. "Fine-tune enqueued. Queue number: 0"', events.map((e) => e.message))];
    return enqueued.level === 'info' ? [] : [finding(`/events/${enqueued.index}/level`, 'the enqueue event is an info event', 'info', enqueued.level)];
  },
};

function uploadEventCheck(name: string, key: 'snapshot' | 'results', requirement: string, summary: string): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements: [requirement],
    severity: 'must',
    summary,
    skipWhen: succeededJobSkip,
    run: (exchange) => {
      const job = bodyOf(exchange)!;
      const events = jobEvents(job);
      if (!Array.isArray(events)) return [events];
      const m = milestone(key);
      if (events.some((e) => m.matches(e.message, job))) return [];
      const expected = key === 'snapshot' ? `an upload event naming ${String(job.fine_tuned_model)}` : `an upload event naming one of ${resultFileIds(job).join(', ') || '(no result files)'}`;
      return [finding('/events', `no event says ${m.what}`, expected, events.filter((e) => /upload/i.test(e.message)).map((e) => e.message))];
    },
  };
}

export const ftEventSnapshotNamesModel = uploadEventCheck('ft_event_snapshot_names_model', 'snapshot', 'FT-EVENT-SNAPSHOT-MODEL-NAME', 'the snapshot upload event names the fine_tuned_model');
export const ftEventResultFileId = uploadEventCheck('ft_event_result_file_id', 'results', 'FT-EVENT-RESULT-FILE-ID', 'the result upload event names the id of a File in result_files');

/** "Level `info` occurs" — the lifecycle events are info events; other events may use other levels. */
export const ftLifecycleEventsInfo: ResponseCheck = {
  kind: 'response',
  name: 'ft_lifecycle_events_info',
  requirements: ['RES-FT-EVENT-LEVEL'],
  severity: 'must',
  summary: 'the lifecycle events (enqueued, started, uploaded, succeeded) have level info',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const job = bodyOf(exchange)!;
    const events = jobEvents(job);
    if (!Array.isArray(events)) return [events];
    const lifecycle = events.filter((e) => MILESTONES.some((m) => m.matches(e.message, job)));
    if (lifecycle.length === 0) return notExercised('no event of the job is a lifecycle event (enqueued, started, uploaded, succeeded)');
    return lifecycle
      .filter((e) => e.level !== 'info')
      .map((e) => finding(`/events/${e.index}/level`, `the lifecycle event "${e.message}" is not an info event`, 'info', e.level));
  },
};

const sameEvent = (a: unknown, b: unknown): boolean =>
  isRecord(a) && isRecord(b) && a.message === b.message && a.created_at === b.created_at && a.level === b.level;

/**
 * Events 3: the job's events array and the events endpoint hold the same events. The job was
 * retrieved just before (with: job = that case), so its events are a prefix of the list (events may
 * have been added in between); when the job had already finished, the two are equal.
 */
export const ftEventsMatchJob: ResponseCheck = {
  kind: 'response',
  name: 'ft_events_match_job',
  requirements: ['FT-EVENTS-MATCH-JOB'],
  severity: 'must',
  summary: 'the events list holds the job\'s events array, same messages in the same order (with: job)',
  params: { job: caseParam('the case that retrieved the job') },
  skipWhen: (exchange, ctx) => {
    const why = unlessOkJson(exchange);
    if (why) return why;
    const { caseId, exchange: ex } = historyParam(ctx, 'job');
    const job = ex ? jobIn(ex) : undefined;
    return job && Array.isArray(job.events) ? undefined : `case "${caseId}" returned no job with events`;
  },
  run: (exchange, ctx: CheckContext) => {
    const job = jobIn(historyParam(ctx, 'job').exchange!)!;
    const jobEventsList = job.events as unknown[];
    const data = bodyOf(exchange)!.data;
    if (!Array.isArray(data)) return [finding('/data', 'the events list has no data array', 'an array', data ?? 'absent')];
    for (let i = 0; i < jobEventsList.length; i++) {
      if (i >= data.length) return [finding('/data', `the list lacks the job's event ${i} ("${String((jobEventsList[i] as Record<string, unknown>)?.message)}")`, `${jobEventsList.length} or more events`, data.length)];
      if (!sameEvent(jobEventsList[i], data[i])) return [finding(`/data/${i}`, `event ${i} differs from the job's event ${i}`, jobEventsList[i], data[i])];
    }
    if (typeof job.status === 'string' && TERMINAL.has(job.status) && data.length !== jobEventsList.length) {
      return [finding('/data', 'the job had finished, yet the list holds other events than its events array', jobEventsList.length, data.length)];
    }
    return [];
  },
};
