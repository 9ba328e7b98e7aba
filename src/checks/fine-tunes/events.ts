// Fine-tunes: the events a job records (Resources / Fine-tune event; Events 3–4).
// "Messages that occur in a job's life, in order: job enqueued (with a queue number), job started,
// snapshot uploaded (with the model name), result files uploaded (with a file id), job succeeded."
// The spec states what the messages mean, not their words. A must judges only the meaning it pins to content: the
// snapshot event names the model, the result event names a result file id, events occur in created_at order. The
// service's own words (enqueued, started, succeeded) are FT-EVENTS-WORDS, a should.

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

/** What the spec pins to content: the name of the model, the id of a result file. */
const NAMES_MODEL = (m: string, job: Job): boolean => typeof job.fine_tuned_model === 'string' && job.fine_tuned_model !== '' && m.includes(job.fine_tuned_model);
const NAMES_RESULT_FILE = (m: string, job: Job): boolean => resultFileIds(job).some((id) => m.includes(id));

/** The lifecycle in the service's words: a should (FT-EVENTS-WORDS); other words may say the same. */
export const MILESTONES: readonly Milestone[] = [
  { key: 'enqueued', what: 'job enqueued (with a queue number)', matches: (m) => /enqueue/i.test(m) && /\d/.test(m) },
  { key: 'started', what: 'job started', matches: (m) => /\bstart/i.test(m) },
  { key: 'snapshot', what: 'snapshot uploaded (with the model name)', matches: (m, job) => /upload/i.test(m) && NAMES_MODEL(m, job) },
  { key: 'results', what: 'result files uploaded (with a file id)', matches: (m, job) => /upload/i.test(m) && NAMES_RESULT_FILE(m, job) },
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

/**
 * A succeeded job's events hold an event naming its model and an event naming a result file, the model's no later
 * (created_at) than the result file's: the order of occurrence, judged on what the spec pins to content, whatever
 * the words and whatever the order of the array.
 */
export const ftEventsLifecycleOrder: ResponseCheck = {
  kind: 'response',
  name: 'ft_events_lifecycle_order',
  requirements: ['FT-EVENTS-ORDER', 'FT-STATE-SUCCEEDED-EVENTS'],
  severity: 'must',
  summary: 'a succeeded job\'s events name its model, then a result file (by created_at)',
  skipWhen: succeededJobSkip,
  run: (exchange) => {
    const job = bodyOf(exchange)!;
    const events = jobEvents(job);
    if (!Array.isArray(events)) return [events];
    const snapshot = events.find((e) => NAMES_MODEL(e.message, job));
    const results = events.find((e) => NAMES_RESULT_FILE(e.message, job));
    const out: Finding[] = [];
    if (!snapshot) out.push(finding('/events', `no event names the fine-tuned model ${String(job.fine_tuned_model)} (snapshot uploaded)`, `an event naming ${String(job.fine_tuned_model)}`, events.map((e) => e.message)));
    if (!results) out.push(finding('/events', `no event names a result file (${resultFileIds(job).join(', ') || 'result_files is empty'})`, 'an event naming a result file id', events.map((e) => e.message)));
    if (snapshot && results && typeof snapshot.created_at === 'number' && typeof results.created_at === 'number' && snapshot.created_at > results.created_at) {
      out.push(finding(`/events/${snapshot.index}/created_at`, 'the snapshot event is later than the result upload', `≤ ${results.created_at}`, snapshot.created_at));
    }
    return out;
  },
};

/** The service's words, in the order of the array: enqueued, started, snapshot uploaded, result uploaded, succeeded. */
export const ftEventsLifecycleWords: ResponseCheck = {
  kind: 'response',
  name: 'ft_events_lifecycle_words',
  requirements: ['FT-EVENTS-WORDS', 'FT-EVENT-STARTED'],
  severity: 'should',
  summary: 'a succeeded job\'s events say enqueued, started, uploaded (model), uploaded (results), succeeded, in this order, in the service\'s words',
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
        : finding('/events', `no event says ${m.what} in the service's words`, m.what, events.map((e) => e.message)));
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
  summary: 'the job\'s events (or the events list) hold an info event with a number (the enqueue event and its queue number)',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const body = bodyOf(exchange)!;
    const events = eventsOf(body.object === 'list' ? body.data : body.events);
    if (!events) return [finding(body.object === 'list' ? '/data' : '/events', 'no events array', 'an array of Fine-tune event', 'absent')];
    // Meaning, not words: the enqueue event is "an info event ... with a queue number", so some info event carries a
    // number. "enqueued" in those words is FT-EVENTS-WORDS (should).
    if (events.some((e) => e.level === 'info' && /\d/.test(e.message))) return [];
    return [finding(body.object === 'list' ? '/data' : '/events', 'no info event with a queue number', 'e.g. "Fine-tune enqueued. Queue number: 0" at level info', events.map((e) => `${String(e.level)}: ${e.message}`))];
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
      const names = key === 'snapshot' ? NAMES_MODEL : NAMES_RESULT_FILE;
      if (events.some((e) => names(e.message, job))) return [];
      const expected = key === 'snapshot' ? `an event naming ${String(job.fine_tuned_model)}` : `an event naming one of ${resultFileIds(job).join(', ') || '(no result files)'}`;
      return [finding('/events', `no event says ${milestone(key).what}`, expected, events.map((e) => e.message))];
    },
  };
}

export const ftEventSnapshotNamesModel = uploadEventCheck('ft_event_snapshot_names_model', 'snapshot', 'FT-EVENT-SNAPSHOT-MODEL-NAME', 'the snapshot upload event names the fine_tuned_model');
export const ftEventResultFileId = uploadEventCheck('ft_event_result_file_id', 'results', 'FT-EVENT-RESULT-FILE-ID', 'the result upload event names the id of a File in result_files');

/**
 * "Level `info` occurs; other levels: not shown" — only the enqueue event is said to be an info event (the must of
 * ft_enqueue_event_recorded); the service's lifecycle events all being info is a convention.
 */
export const ftLifecycleEventsInfo: ResponseCheck = {
  kind: 'response',
  name: 'ft_lifecycle_events_info',
  requirements: ['RES-FT-EVENT-LEVEL'],
  severity: 'should',
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


/**
 * Events 3: the job's events array and the events endpoint hold the same events. The job was retrieved just before
 * (with: job = that case), so each of its events is in the list; when the job had already finished, the list holds
 * nothing else, but an event added after the retrieval (later created_at, e.g. "model ready"). The spec states no
 * order for a list: the order is FT-EVENTS-LIST-ORDER (should).
 */
export const ftEventsMatchJob: ResponseCheck = {
  kind: 'response',
  name: 'ft_events_match_job',
  requirements: ['FT-EVENTS-MATCH-JOB'],
  severity: 'must',
  summary: 'the events list holds the job\'s events (with: job), and nothing else once the job had finished',
  params: { job: caseParam('the case that retrieved the job') },
  skipWhen: jobWithEvents,
  run: (exchange, ctx: CheckContext) => {
    const job = jobIn(historyParam(ctx, 'job').exchange!)!;
    const ofJob = job.events as unknown[];
    const data = bodyOf(exchange)!.data;
    if (!Array.isArray(data)) return [finding('/data', 'the events list has no data array', 'an array', data ?? 'absent')];
    const listed = counts(data);
    for (const [i, e] of ofJob.entries()) {
      const k = eventKey(e);
      if ((listed.get(k) ?? 0) === 0) return [finding('/data', `the list lacks the job's event ${i} ("${String((e as Record<string, unknown>)?.message)}")`, e, 'absent')];
      listed.set(k, listed.get(k)! - 1);
    }
    if (typeof job.status === 'string' && TERMINAL.has(job.status)) {
      const last = Math.max(...ofJob.map((e) => (isRecord(e) && typeof e.created_at === 'number' ? e.created_at : 0)));
      const extra = data.findIndex((e) => (listed.get(eventKey(e)) ?? 0) > 0 && !(isRecord(e) && typeof e.created_at === 'number' && e.created_at > last));
      if (extra >= 0) return [finding(`/data/${extra}`, 'the job had finished, yet the list holds an event its events array does not', 'only the job\'s events (or later ones)', data[extra])];
    }
    return [];
  },
};

/** The list in the order of the job's events array (the service lists oldest first). */
export const ftEventsListOrder: ResponseCheck = {
  kind: 'response',
  name: 'ft_events_list_order',
  requirements: ['FT-EVENTS-LIST-ORDER'],
  severity: 'should',
  summary: 'the events list gives the job\'s events in the order of its events array (with: job)',
  params: { job: caseParam('the case that retrieved the job') },
  after: ['ft_events_match_job'],
  skipWhen: jobWithEvents,
  run: (exchange, ctx: CheckContext) => {
    const ofJob = jobIn(historyParam(ctx, 'job').exchange!)!.events as unknown[];
    const data = bodyOf(exchange)!.data;
    if (!Array.isArray(data)) return [];
    const i = ofJob.findIndex((e, j) => j >= data.length || eventKey(e) !== eventKey(data[j]));
    return i < 0 ? [] : [finding(`/data/${i}`, `event ${i} differs from the job's event ${i}`, ofJob[i], data[i] ?? 'absent')];
  },
};

function jobWithEvents(exchange: Exchange, ctx: CheckContext): string | undefined {
  const why = unlessOkJson(exchange);
  if (why) return why;
  const { caseId, exchange: ex } = historyParam(ctx, 'job');
  const job = ex ? jobIn(ex) : undefined;
  return job && Array.isArray(job.events) ? undefined : `case "${caseId}" returned no job with events`;
}

const eventKey = (e: unknown): string => (isRecord(e) ? JSON.stringify([e.message, e.created_at, e.level]) : JSON.stringify(e));

function counts(events: readonly unknown[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events) out.set(eventKey(e), (out.get(eventKey(e)) ?? 0) + 1);
  return out;
}
