// Fine-tunes: the job's status over its life (States and transitions; Events 2).

import { notExercised, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { bodyOf, finding, historyParam, unlessOkJson } from '../files/support.ts';
import { caseParam } from '../params.ts';
import { jobIn, TERMINAL } from './jobs.ts';
import { isSuccess } from '../../util/status.ts';

/** "(running) | job completes | training finished | succeeded" — a small valid file trains to success. */
export const ftStatusSucceeded: ResponseCheck = {
  kind: 'response',
  name: 'ft_status_succeeded',
  requirements: ['FT-STATE-SUCCEEDED', 'FTDATA-FORMAT'],
  severity: 'must',
  summary: 'a job on a small valid training file reaches status succeeded',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const status = bodyOf(exchange)!.status;
    return status === 'succeeded' ? [] : [finding('/status', 'the job did not succeed', 'succeeded', status ?? 'absent')];
  },
};

/** The cancel method is "not shown"; POST is the convention of an action (and the service's). */
export const ftCancelPostAccepted: ResponseCheck = {
  kind: 'response',
  name: 'ft_cancel_post_accepted',
  requirements: ['FT-CANCEL-METHOD'],
  severity: 'should',
  summary: 'cancel is served to POST (the method is not shown in the spec)',
  run: (exchange) => {
    const status = exchange.response?.status;
    if (exchange.request.method !== 'POST') {
      return isSuccess(status)
        ? [finding('', `cancel was refused to POST and served to ${exchange.request.method}`, 'POST', exchange.request.method)]
        : [finding('', `cancel was refused to POST and to every other method tried (the last, ${exchange.request.method}: ${status ?? 'no response'})`, '2xx to POST', status ?? 'no response')];
    }
    return isSuccess(status) ? [] : [finding('', `${exchange.request.method} cancel was not served`, '2xx', status ?? 'no response')];
  },
};

/**
 * Cancel is served at its path by some method (the method is not shown, so the case that cancels tries the others
 * after a refusal). Judged on the retrieval right after it: a job still pending or running whose cancel no method
 * served is a job the server cannot cancel. A job that had finished by then is not judged: what a cancel of a finished
 * job does is not shown (a fast server may finish before the cancel comes).
 */
export const ftCancelServed: ResponseCheck = {
  kind: 'response',
  name: 'ft_cancel_served',
  requirements: ['FT-CANCEL'],
  severity: 'must',
  summary: 'a pending or running job can be cancelled: some method serves /v1/fine-tunes/{id}/cancel (with: cancel)',
  params: { cancel: caseParam('the case that cancelled the job') },
  skipWhen: unlessOkJson,
  run: (exchange, ctx) => {
    const { caseId, exchange: cancel } = historyParam(ctx, 'cancel');
    if (!cancel?.response) return notExercised(`case "${caseId}" got no answer`);
    if (isSuccess(cancel.response.status)) return [];
    const status = bodyOf(exchange)!.status;
    if (status !== 'pending' && status !== 'running') return notExercised(`the job is ${String(status)}: it may have finished before the cancel came, and a cancel of a finished job is not shown`);
    return [finding('/status', `the job is still ${status}, and its cancel was refused (${cancel.response.status} to ${cancel.request.method}, the last method tried, as to the ones before it): a pending or running job is cancelled immediately`, 'cancelled, by some method', status)];
  },
};

const cancelSkip = (exchange: Parameters<typeof unlessOkJson>[0]): string | undefined => {
  const why = unlessOkJson(exchange);
  return why ? `${why}; ft_cancel_post_accepted reports a refused cancel` : undefined;
};

/** "pending or running | cancel fine-tune | job exists | cancelled | job is cancelled immediately". */
export const ftJobCancelled: ResponseCheck = {
  kind: 'response',
  name: 'ft_job_cancelled',
  requirements: ['FT-CANCEL'],
  severity: 'must',
  summary: 'the cancel response itself shows status cancelled',
  skipWhen: cancelSkip,
  run: (exchange) => {
    const status = bodyOf(exchange)!.status;
    // A fast server may have finished the job before the cancel came: what a cancel of a finished job does is not
    // shown, so the rule ("pending or running") was not exercised.
    if (status === 'succeeded' || status === 'failed') return notExercised(`the job had already ${String(status)} when the cancel came`);
    return status === 'cancelled' ? [] : [finding('/status', 'a job is cancelled immediately: the cancel response shows it', 'cancelled', status ?? 'absent')];
  },
};

/** "fine_tuned_model stays null" after a cancel (the cancel response and later retrievals). */
export const ftCancelModelNull: ResponseCheck = {
  kind: 'response',
  name: 'ft_cancel_model_null',
  requirements: ['FT-CANCEL-MODEL-NULL'],
  severity: 'must',
  summary: 'a cancelled job has fine_tuned_model null',
  skipWhen: (exchange) => cancelSkip(exchange) ?? (bodyOf(exchange)!.status === 'cancelled' ? undefined : 'the job is not cancelled (ft_job_cancelled / ft_cancel_final report that)'),
  run: (exchange) => {
    const model = bodyOf(exchange)!.fine_tuned_model;
    return model === null ? [] : [finding('/fine_tuned_model', 'a cancelled job keeps fine_tuned_model null', null, model ?? 'absent')];
  },
};

/** After a successful cancel (with: cancel = that case), every later retrieval reports cancelled. */
export const ftCancelFinal: ResponseCheck = {
  kind: 'response',
  name: 'ft_cancel_final',
  requirements: ['FT-CANCEL-FINAL'],
  severity: 'must',
  summary: 'once cancelled, the job stays cancelled (with: cancel)',
  params: { cancel: caseParam('the case that cancelled the job') },
  skipWhen: (exchange, ctx) => {
    const why = unlessOkJson(exchange);
    if (why) return why;
    const { caseId, exchange: cancel } = historyParam(ctx, 'cancel');
    if (!cancel) return `case "${caseId}" did not run`;
    const job = jobIn(cancel);
    if (!job) return `the cancel (case "${caseId}") was not accepted, so the job was never cancelled`;
    // A cancel answered with a job that had already finished (a fast server): what a late cancel does is not
    // shown, and the job was never cancelled, so staying as it was breaks nothing.
    return job.status === 'succeeded' || job.status === 'failed' ? `the cancel (case "${caseId}") answered a job that had already ${String(job.status)}, so it was never cancelled` : undefined;
  },
  run: (exchange) => {
    const status = bodyOf(exchange)!.status;
    return status === 'cancelled' ? [] : [finding('/status', 'the cancel was accepted, yet a later retrieval shows another status than cancelled', 'cancelled', status ?? 'absent')];
  },
};

const RANK: Record<string, number> = { pending: 0, running: 1, succeeded: 2, failed: 2, cancelled: 2 };

/**
 * The statuses seen so far (with: previous = case ids in order, then this response) follow the allowed
 * order: pending, optionally running, then one terminal status that never changes again.
 */
export const ftStatusTransitions: ResponseCheck = {
  kind: 'response',
  name: 'ft_status_transitions',
  requirements: ['FT-STATE-TRANSITIONS', 'FT-STATE-TERMINAL-STABLE'],
  severity: 'must',
  summary: 'observed statuses go pending → (running) → one terminal status, never back (with: previous)',
  params: { previous: { kind: 'cases', required: true, doc: 'the earlier cases that saw the job, in order' } },
  skipWhen: unlessOkJson,
  run: (exchange, ctx) => {
    const previous = ctx.params.previous;
    if (!Array.isArray(previous) || previous.some((p) => typeof p !== 'string')) throw new Error('needs `with: { previous: [<case id>, …] }`');
    const seen: Array<{ where: string; status: string }> = [];
    for (const id of previous as string[]) {
      const ex = ctx.history.get(id);
      const job = ex ? jobIn(ex) : undefined;
      if (job && typeof job.status === 'string') seen.push({ where: `case "${id}"`, status: job.status });
    }
    const now = bodyOf(exchange)!.status;
    if (typeof now !== 'string') return [finding('/status', 'the job has no status', 'a status', now ?? 'absent')];
    seen.push({ where: 'this response', status: now });
    let judged = 0;
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1]!;
      const b = seen[i]!;
      const ra = RANK[a.status];
      const rb = RANK[b.status];
      if (ra === undefined || rb === undefined) continue; // unknown statuses: the schema reports them
      judged++;
      if (TERMINAL.has(a.status) && b.status !== a.status) return [finding('/status', `the job was ${a.status} (${a.where}) and later ${b.status} (${b.where}): terminal states do not change`, a.status, b.status)];
      if (rb < ra) return [finding('/status', `the job went back from ${a.status} (${a.where}) to ${b.status} (${b.where})`, `${a.status} or later`, b.status)];
    }
    // Statuses the spec does not name (a mock's "string") show no transition: nothing was judged.
    return judged > 0 ? [] : notExercised(`no two observed statuses are statuses of the spec (${seen.map((s) => JSON.stringify(s.status)).join(' → ')})`);
  },
};

/** Events 2: the stream "ends with data: [DONE] when the job finishes" — so not before (with: stream). */
export const ftFinishedWhenStreamDone: ResponseCheck = {
  kind: 'response',
  name: 'ft_finished_when_stream_done',
  requirements: ['STREAM-FT-EVENTS-DONE'],
  severity: 'must',
  summary: 'when the events stream has ended with [DONE], the job is finished (with: stream)',
  params: { stream: caseParam('the case that streamed the job\'s events') },
  skipWhen: (exchange, ctx) => {
    const why = unlessOkJson(exchange);
    if (why) return why;
    const { caseId, exchange: stream } = historyParam(ctx, 'stream');
    if (!stream) return `case "${caseId}" did not run`;
    return stream.stream?.end === 'done' ? undefined : `the stream of case "${caseId}" did not end with [DONE] (its own checks report that)`;
  },
  run: (exchange) => {
    const status = bodyOf(exchange)!.status;
    return typeof status === 'string' && TERMINAL.has(status) ? [] : [finding('/status', 'the events stream sent [DONE] before the job finished', 'succeeded, cancelled or failed', status ?? 'absent')];
  },
};

/** "fine_tuned_model | string or null | null until the job has succeeded, then the name of the resulting model". */
export const ftFineTunedModelMatchesStatus: ResponseCheck = {
  kind: 'response',
  name: 'ft_fine_tuned_model_matches_status',
  requirements: ['RES-FT-JOB-FINE-TUNED-MODEL'],
  severity: 'must',
  summary: 'fine_tuned_model is null unless the job succeeded, and a string once it has (a job or a list of jobs)',
  // On a create response, ft_create_model_null reports the same value first.
  after: ['ft_create_model_null'],
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const body = bodyOf(exchange)!;
    // A list by its data array: a list whose object is wrong (the schema reports that) still holds jobs.
    const jobs: Array<[string, unknown]> = Array.isArray(body.data) ? body.data.map((j, i) => [`/data/${i}`, j]) : [['', body]];
    const out = [];
    for (const [at, job] of jobs) {
      if (!isRecord(job)) continue;
      const model = job.fine_tuned_model;
      if (job.status === 'succeeded' && (typeof model !== 'string' || model === '')) out.push(finding(`${at}/fine_tuned_model`, 'a succeeded job names its fine-tuned model', 'a model name', model ?? 'absent'));
      if (job.status !== 'succeeded' && model !== null) out.push(finding(`${at}/fine_tuned_model`, `fine_tuned_model is null until the job has succeeded (status ${String(job.status)})`, null, model ?? 'absent'));
    }
    return out;
  },
};
