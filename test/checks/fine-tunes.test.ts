/** Unit tests of the fine-tunes-area checks: for each check an input that passes and one that fails. */
import { describe, expect, it } from 'vitest';
import { FINETUNES_CHECKS } from '../../src/checks/fine-tunes/index.ts';
import { parseCsv } from '../../src/checks/fine-tunes/csv.ts';
import { parseFineTunedName } from '../../src/checks/fine-tunes/name.ts';
import { findingsOf, isNotExercised, type Check, type CheckContext, type Finding, type PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange, SseEvent, StreamEnd } from '../../src/transport/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';

// ---- building exchanges by hand --------------------------------------------------------------------

const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'http://127.0.0.1:1' });

function exchangeOf(json: unknown, opts: { status?: number; sent?: unknown; text?: string } = {}): Exchange {
  const text = opts.text ?? JSON.stringify(json);
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/fine-tunes', headers: {}, body: opts.sent !== undefined ? { kind: 'json', value: opts.sent } : { kind: 'none' } },
    response: { status: opts.status ?? 200, headers: { 'content-type': opts.text !== undefined ? 'application/octet-stream' : 'application/json' }, text, ...(json !== undefined ? { json } : {}), bytes: Buffer.from(text), truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}

const csvExchange = (text: string) => exchangeOf(undefined, { text });

function streamExchange(end: StreamEnd = 'done'): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/fine-tunes/ft-1/events?stream=true', headers: {}, body: { kind: 'none' } },
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, truncated: false },
    stream: { sample: [], eventCount: 0, end, afterDone: '', bytes: 0 },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}

function ctxOf(request: Partial<PlannedRequestView> = {}, params: Record<string, unknown> = {}, history: Record<string, Exchange> = {}): CheckContext {
  return { request: { method: 'GET', path: '/v1/fine-tunes/ft-1', query: {}, stream: false, ...request }, profile, vars: {}, schemas, params, history: new Map(Object.entries(history)) };
}

type Input = { exchange: Exchange; ctx: CheckContext; events?: unknown[] };
type Outcome = { skip: string } | { findings: Finding[] } | { notExercised: string };

function outcome(check: Check, input: Input): Outcome {
  const skip = check.skipWhen?.(input.exchange, input.ctx);
  if (skip) return { skip };
  if (check.kind === 'response') {
    const verdict = check.run(input.exchange, input.ctx);
    return isNotExercised(verdict) ? verdict : { findings: verdict };
  }
  const state = check.start(input.ctx);
  const findings: Finding[] = [];
  const events: SseEvent[] = [...(input.events ?? []), '[DONE]'].map((e, i) => ({ data: typeof e === 'string' ? e : JSON.stringify(e), otherFields: [], offset: i }));
  events.forEach((e, i) => findings.push(...(check.event(state, e, i, input.ctx) ?? [])));
  const end = check.end(state, input.exchange.stream?.end ?? 'done', input.exchange, input.ctx);
  if (isNotExercised(end) && findings.length === 0) return end;
  return { findings: [...findings, ...findingsOf(end)] };
}

// ---- fixtures (shaped like the real service's recordings) -------------------------------------------

const ev = (message: string, created_at = 100) => ({ object: 'fine-tune-event', level: 'info', message, created_at });
const fileObj = (id: string, purpose = 'fine-tune') => ({ object: 'file', id, purpose, filename: 'f.jsonl', bytes: 10, created_at: 100 });
const MODEL = 'curie:ft-acme:sfx-2023-02-18-22-17-49';
const CREATE = { training_file: 'file-t', model: 'curie', suffix: 'sfx' };

const EVENTS = [
  ev('Created fine-tune: ft-1', 100), ev('Fine-tune enqueued. Queue number: 0', 101), ev('Fine-tune started', 102),
  ev('Completed epoch 1/4', 103), ev(`Uploaded model: ${MODEL}`, 104), ev('Uploaded result file: file-r', 105), ev('Fine-tune succeeded', 105),
];
/** The same life in other words ("job enqueued (with a queue number)" says what it means, not how). */
const REWORDED = [
  ev('Job ft-1 created', 100), ev('Waiting in line at position 0', 101), ev('Training began', 102),
  ev('Epoch 1 of 4 done', 103), ev(`Model ${MODEL} saved`, 104), ev('Results written to file-r', 105), ev('Job completed', 105),
];
const SUCCEEDED = {
  object: 'fine-tune', id: 'ft-1', model: 'curie', organization_id: 'org-a', created_at: 100, updated_at: 105,
  hyperparams: { n_epochs: 4, batch_size: 1, prompt_loss_weight: 0.01, learning_rate_multiplier: 0.1 },
  training_files: [fileObj('file-t')], validation_files: [], result_files: [fileObj('file-r', 'fine-tune-results')],
  status: 'succeeded', fine_tuned_model: MODEL, events: EVENTS,
};
const PENDING = { ...SUCCEEDED, status: 'pending', fine_tuned_model: null, result_files: [], hyperparams: { n_epochs: 4, batch_size: null, prompt_loss_weight: 0.01, learning_rate_multiplier: null }, events: EVENTS.slice(0, 2) };
const CANCELLED = { ...PENDING, status: 'cancelled', events: [...EVENTS.slice(0, 2), ev('Fine-tune cancelled', 103)] };

const created = (body: object = PENDING, sent: object = CREATE) => exchangeOf(body, { sent });
const createCtx = (sent: object = CREATE) => ctxOf({ method: 'POST', path: '/v1/fine-tunes', json: sent });
/** The create response itself. */
const atCreate = (body: object, sent: object = CREATE): Input => ({ exchange: created(body, sent), ctx: createCtx(sent) });
/** A later view of the job; `with: { create }` names the create case. */
const later = (body: object, sent: object = CREATE, extra: Record<string, unknown> = {}, history: Record<string, Exchange> = {}): Input =>
  ({ exchange: exchangeOf(body), ctx: ctxOf({}, { create: 'create', ...extra }, { create: created(PENDING, sent), ...history }) });

function csv(opts: { steps?: number; batch?: number; validation?: boolean; extra?: string[]; fill?: (step: number) => string[]; mutate?: (row: string[], step: number) => string[] } = {}): string {
  const { steps = 8, batch = 1, validation = false, extra = [] } = opts;
  const header = ['step', 'elapsed_tokens', 'elapsed_examples', 'training_loss', 'training_sequence_accuracy', 'training_token_accuracy', ...(validation ? ['validation_loss', 'validation_sequence_accuracy', 'validation_token_accuracy'] : []), ...extra];
  const lines = [header.join(',')];
  for (let s = 1; s <= steps; s++) {
    let row = [String(s), String(20 * s), String(batch * s), '0.5', '0.0', '0.75', ...(validation ? (s === 1 ? ['0.6', '0.0', '0.7'] : ['', '', '']) : []), ...(opts.fill?.(s) ?? extra.map(() => ''))];
    if (opts.mutate) row = opts.mutate(row, s);
    lines.push(row.join(','));
  }
  return lines.join('\n') + '\n';
}

/** The results file of a job described by `job` (history case "job") and `sent` (history case "create"). */
const results = (text: string, job: object = SUCCEEDED, sent: object = CREATE, params: Record<string, unknown> = {}): Input =>
  ({ exchange: csvExchange(text), ctx: ctxOf({ path: '/v1/files/file-r/content' }, { job: 'job', create: 'create', ...params }, { job: exchangeOf(job), create: created(PENDING, sent) }) });

const list = (items: object[]) => exchangeOf({ object: 'list', data: items });
const { events: _omit, ...ITEM } = SUCCEEDED;
const BINARY = { ...CREATE, validation_file: 'file-v', compute_classification_metrics: true, classification_positive_class: ' positive', classification_betas: [0.5, 2] };
const MULTI = { ...CREATE, validation_file: 'file-v', compute_classification_metrics: true, classification_n_classes: 3 };
const WITH_VALIDATION = { ...SUCCEEDED, validation_files: [fileObj('file-v')] };
const BIN_COLS = ['classification/accuracy', 'classification/precision', 'classification/recall', 'classification/f1.0', 'classification/f0.5', 'classification/f2.0', 'classification/auroc', 'classification/auprc'];
/** Classification values at each epoch end (4 epochs of 2 steps). */
const perEpoch = (cols: string[]) => (s: number) => cols.map(() => (s % 2 === 0 ? '0.9' : ''));

interface Row { name: string; pass: Input; fail: Input; finding: RegExp }

const ROWS: Row[] = [
  // create
  { name: 'ft_created_pending', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, status: 'running' }), finding: /pending/ },
  { name: 'ft_create_model_null', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, fine_tuned_model: MODEL }), finding: /no fine-tuned model yet/ },
  { name: 'ft_create_no_results', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, result_files: [fileObj('file-r')] }), finding: /no result files/ },
  { name: 'ft_training_files_echo', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, training_files: [fileObj('file-x')] }), finding: /does not hold the file given as training_file/ },
  { name: 'ft_validation_files_echo', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, validation_files: [fileObj('file-v')] }), finding: /no validation_file was given/ },
  { name: 'ft_job_model_is_requested', pass: atCreate(PENDING, { training_file: 'file-t' }), fail: atCreate({ ...PENDING, model: 'ada' }, { training_file: 'file-t' }), finding: /default base model curie/ },
  { name: 'ft_job_in_org', pass: { exchange: created(), ctx: ctxOf({}, { organization: 'org-a' }) }, fail: { exchange: created(), ctx: ctxOf({}, { organization: 'org-b' }) }, finding: /does not belong/ },
  // hyperparams
  { name: 'ft_hyperparam_n_epochs_default', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, hyperparams: { ...PENDING.hyperparams, n_epochs: 3 } }), finding: /default n_epochs is 4/ },
  { name: 'ft_hyperparam_n_epochs_echo', pass: atCreate({ ...PENDING, hyperparams: { ...PENDING.hyperparams, n_epochs: 2 } }, { ...CREATE, n_epochs: 2 }), fail: atCreate(PENDING, { ...CREATE, n_epochs: 2 }), finding: /not the requested n_epochs/ },
  { name: 'ft_hyperparam_prompt_loss_weight', pass: atCreate(PENDING), fail: atCreate({ ...PENDING, hyperparams: { ...PENDING.hyperparams, prompt_loss_weight: 0.1 } }), finding: /default prompt_loss_weight is 0.01/ },
  { name: 'ft_hyperparam_batch_size', pass: atCreate({ ...PENDING, hyperparams: { ...PENDING.hyperparams, batch_size: 5 } }, { ...CREATE, batch_size: 5 }), fail: atCreate(PENDING, { ...CREATE, batch_size: 5 }), finding: /not the requested batch_size/ },
  { name: 'ft_hyperparam_learning_rate_multiplier', pass: atCreate({ ...PENDING, hyperparams: { ...PENDING.hyperparams, learning_rate_multiplier: 0.05 } }, { ...CREATE, learning_rate_multiplier: 0.05 }), fail: atCreate(PENDING, { ...CREATE, learning_rate_multiplier: 0.05 }), finding: /not the requested value/ },
  { name: 'ft_default_batch_size_capped', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, hyperparams: { ...SUCCEEDED.hyperparams, batch_size: 512 } }), finding: /capped at 256/ },
  { name: 'ft_default_learning_rate_multiplier', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, hyperparams: { ...SUCCEEDED.hyperparams, learning_rate_multiplier: 0.3 } }), finding: /0.05, 0.1 or 0.2/ },
  { name: 'ft_default_batch_size_approx', pass: later(SUCCEEDED, CREATE, { examples: 8 }), fail: later({ ...SUCCEEDED, hyperparams: { ...SUCCEEDED.hyperparams, batch_size: 64 } }, CREATE, { examples: 8 }), finding: /about 0.2% of 8 examples/ },
  // status
  { name: 'ft_status_succeeded', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, status: 'failed', fine_tuned_model: null }), finding: /did not succeed/ },
  { name: 'ft_cancel_post_accepted', pass: { exchange: exchangeOf(CANCELLED), ctx: ctxOf() }, fail: { exchange: exchangeOf({ error: {} }, { status: 405 }), ctx: ctxOf() }, finding: /was not served/ },
  { name: 'ft_cancel_served', pass: { exchange: exchangeOf({ ...SUCCEEDED, status: 'running' }), ctx: ctxOf({}, { cancel: 'c' }, { c: { ...exchangeOf(CANCELLED), request: { ...exchangeOf(CANCELLED).request, method: 'PUT' } } }) }, fail: { exchange: exchangeOf({ ...SUCCEEDED, status: 'running' }), ctx: ctxOf({}, { cancel: 'c' }, { c: { ...exchangeOf({ error: {} }, { status: 404 }), request: { ...exchangeOf(CANCELLED).request, method: 'GET' } } }) }, finding: /still running, and its cancel was refused/ },
  { name: 'ft_job_cancelled', pass: { exchange: exchangeOf(CANCELLED), ctx: ctxOf() }, fail: { exchange: exchangeOf(PENDING), ctx: ctxOf() }, finding: /cancelled immediately/ },
  { name: 'ft_cancel_model_null', pass: { exchange: exchangeOf(CANCELLED), ctx: ctxOf() }, fail: { exchange: exchangeOf({ ...CANCELLED, fine_tuned_model: MODEL }), ctx: ctxOf() }, finding: /keeps fine_tuned_model null/ },
  {
    name: 'ft_cancel_final',
    pass: { exchange: exchangeOf(CANCELLED), ctx: ctxOf({}, { cancel: 'c' }, { c: exchangeOf(CANCELLED) }) },
    fail: { exchange: exchangeOf(SUCCEEDED), ctx: ctxOf({}, { cancel: 'c' }, { c: exchangeOf(PENDING) }) },
    finding: /cancel was accepted, yet/,
  },
  {
    name: 'ft_status_transitions',
    pass: { exchange: exchangeOf(SUCCEEDED), ctx: ctxOf({}, { previous: ['a', 'b'] }, { a: exchangeOf(PENDING), b: exchangeOf({ ...PENDING, status: 'running' }) }) },
    fail: { exchange: exchangeOf(CANCELLED), ctx: ctxOf({}, { previous: ['a', 'b'] }, { a: exchangeOf(PENDING), b: exchangeOf(SUCCEEDED) }) },
    finding: /terminal states do not change/,
  },
  {
    name: 'ft_finished_when_stream_done',
    pass: { exchange: exchangeOf(SUCCEEDED), ctx: ctxOf({}, { stream: 's' }, { s: streamExchange('done') }) },
    fail: { exchange: exchangeOf({ ...PENDING, status: 'running' }), ctx: ctxOf({}, { stream: 's' }, { s: streamExchange('done') }) },
    finding: /sent \[DONE\] before the job finished/,
  },
  { name: 'ft_fine_tuned_model_matches_status', pass: { exchange: list([ITEM, { ...ITEM, id: 'ft-2', status: 'running', fine_tuned_model: null }]), ctx: ctxOf() }, fail: { exchange: list([{ ...ITEM, status: 'running' }]), ctx: ctxOf() }, finding: /null until the job has succeeded/ },
  // events
  // Meaning, not words: a server that says the same in other words, or lists the array newest first, passes.
  { name: 'ft_events_lifecycle_order', pass: later({ ...SUCCEEDED, events: [...REWORDED].reverse() }), fail: later({ ...SUCCEEDED, events: EVENTS.map((e) => (e.message.startsWith('Uploaded model') ? ev(e.message, 106) : e)) }), finding: /snapshot event is later than the result upload/ },
  { name: 'ft_events_lifecycle_words', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, events: [...EVENTS].reverse() }), finding: /comes before/ },
  { name: 'ft_enqueue_event_recorded', pass: later({ ...PENDING, events: REWORDED.slice(0, 2) }), fail: later({ ...PENDING, events: [ev('Created fine-tune'), { ...ev('Fine-tune enqueued. Queue number: 0'), level: 'debug' }] }), finding: /no info event with a queue number/ },
  { name: 'ft_event_snapshot_names_model', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, events: EVENTS.map((e) => (e.message.startsWith('Uploaded model') ? ev('Uploaded model: snapshot') : e)) }), finding: /snapshot uploaded/ },
  { name: 'ft_event_result_file_id', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, events: EVENTS.map((e) => (e.message.startsWith('Uploaded result') ? ev('Uploaded result file: file-zzz') : e)) }), finding: /result files uploaded/ },
  { name: 'ft_lifecycle_events_info', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, events: EVENTS.map((e) => (e.message === 'Fine-tune started' ? { ...e, level: 'debug' } : e)) }), finding: /not an info event/ },
  {
    name: 'ft_events_match_job',
    // Newest first is a reading: the same events, in an order the spec does not state.
    pass: { exchange: exchangeOf({ object: 'list', data: [EVENTS[1], EVENTS[0]] }), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(PENDING) }) },
    fail: { exchange: exchangeOf({ object: 'list', data: [EVENTS[1]] }), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(PENDING) }) },
    finding: /the list lacks the job's event 0/,
  },
  {
    name: 'ft_events_list_order',
    pass: { exchange: exchangeOf({ object: 'list', data: EVENTS.slice(0, 3) }), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(PENDING) }) },
    fail: { exchange: exchangeOf({ object: 'list', data: [EVENTS[1], EVENTS[0]] }), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(PENDING) }) },
    finding: /differs from the job's event 0/,
  },
  // names
  { name: 'ft_fine_tuned_model_name', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, fine_tuned_model: 'ada:ft-acme:sfx-2023-02-18-22-17-49' }), finding: /does not start with "curie:ft-"/ },
  { name: 'ft_name_has_suffix', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, fine_tuned_model: 'curie:ft-acme-2023-02-18-22-17-49' }), finding: /no ":sfx-" part/ },
  { name: 'ft_name_without_suffix', pass: later({ ...SUCCEEDED, fine_tuned_model: 'curie:ft-personal-2023-02-18-22-17-49' }, { training_file: 'file-t' }), fail: later(SUCCEEDED, { training_file: 'file-t' }), finding: /although no suffix was given/ },
  { name: 'ft_name_timestamp_format', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, fine_tuned_model: 'curie:ft-acme:sfx-20230218221749' }), finding: /YYYY-MM-DD-HH-MM-SS/ },
  // streams
  { name: 'ft_stream_events_are_events', pass: { exchange: streamExchange(), ctx: ctxOf(), events: EVENTS }, fail: { exchange: streamExchange(), ctx: ctxOf(), events: [{ message: 'no object' }] }, finding: /event 0/ },
  {
    name: 'ft_stream_events_in_order',
    pass: { exchange: streamExchange(), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(SUCCEEDED) }), events: EVENTS },
    fail: { exchange: streamExchange(), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(SUCCEEDED) }), events: [EVENTS[0], EVENTS[2], EVENTS[1]] },
    finding: /is older than event/,
  },
  // results CSV
  { name: 'results_csv_parses', pass: results(csv()), fail: results('step,elapsed_tokens\n1,2,3\n'), finding: /has 3 cells for 2 columns/ },
  { name: 'results_csv_base_columns', pass: results(csv()), fail: results('step,elapsed_tokens,training_loss\n1,2,0.5\n'), finding: /lacks elapsed_examples/ },
  { name: 'results_csv_step', pass: results(csv()), fail: results(csv({ mutate: (r, s) => (s === 3 ? ['5', ...r.slice(1)] : r) })), finding: /does not follow step 2/ },
  { name: 'results_csv_elapsed_tokens', pass: results(csv()), fail: results(csv({ mutate: (r, s) => (s === 2 ? [r[0]!, '5', ...r.slice(2)] : r) })), finding: /does not increase/ },
  { name: 'results_csv_default_batch_capped', pass: results(csv({ batch: 256 }), { ...SUCCEEDED, hyperparams: { ...SUCCEEDED.hyperparams, batch_size: null } }), fail: results(csv({ batch: 512 }), { ...SUCCEEDED, hyperparams: { ...SUCCEEDED.hyperparams, batch_size: null } }), finding: /took 512 examples: the default batch size is capped at 256/ },
  { name: 'results_csv_elapsed_examples', pass: results(csv({ batch: 1 })), fail: results(csv({ batch: 2 })), finding: /expected 1 \(1 × batch size from hyperparams.batch_size 1\)/ },
  { name: 'results_csv_training_loss', pass: results(csv()), fail: results(csv({ mutate: (r, s) => (s === 4 ? [...r.slice(0, 3), '-0.1', ...r.slice(4)] : r) })), finding: /not a non-negative number/ },
  { name: 'results_csv_accuracy_range', pass: results(csv({ validation: true })), fail: results(csv({ mutate: (r, s) => (s === 2 ? [...r.slice(0, 5), '1.5'] : r) })), finding: /training_token_accuracy is not a number in 0..1/ },
  { name: 'results_csv_validation_columns', pass: results(csv({ validation: true }), WITH_VALIDATION), fail: results(csv(), WITH_VALIDATION), finding: /lacks validation_loss/ },
  {
    name: 'results_csv_validation_filled', pass: results(csv({ steps: 12, validation: true }), WITH_VALIDATION),
    fail: results(csv({ steps: 12, validation: true, mutate: (r) => [...r.slice(0, 6), '', '', ''] }), WITH_VALIDATION), finding: /empty on every row/,
  },
  { name: 'results_csv_no_validation_columns', pass: results(csv()), fail: results(csv({ validation: true })), finding: /present only when a validation file was given/ },
  { name: 'results_csv_covers_n_epochs', pass: results(csv({ steps: 8 }), SUCCEEDED, CREATE, { examples: 2 }), fail: results(csv({ steps: 6 }), SUCCEEDED, CREATE, { examples: 2 }), finding: /4 passes over 2 examples/ },
  { name: 'results_csv_no_classification_columns', pass: results(csv()), fail: results(csv({ extra: ['classification/accuracy'] })), finding: /defaults to false/ },
  {
    name: 'results_csv_multiclass_columns',
    pass: results(csv({ validation: true, extra: ['classification/accuracy', 'classification/weighted_f1_score'] }), WITH_VALIDATION, MULTI),
    fail: results(csv({ validation: true, extra: ['classification/accuracy'] }), WITH_VALIDATION, MULTI),
    finding: /weighted F1/,
  },
  {
    name: 'results_csv_binary_columns',
    pass: results(csv({ validation: true, extra: BIN_COLS }), WITH_VALIDATION, BINARY),
    fail: results(csv({ validation: true, extra: BIN_COLS.filter((c) => c !== 'classification/auprc') }), WITH_VALIDATION, BINARY),
    finding: /lacks classification\/auprc/,
  },
  {
    name: 'results_csv_fbeta_columns',
    pass: results(csv({ validation: true, extra: BIN_COLS }), WITH_VALIDATION, BINARY),
    fail: results(csv({ validation: true, extra: BIN_COLS.filter((c) => c !== 'classification/f2.0') }), WITH_VALIDATION, BINARY),
    finding: /no F-beta column for beta 2/,
  },
  {
    name: 'results_csv_betas_binary_only',
    pass: results(csv({ extra: ['classification/accuracy', 'classification/weighted_f1_score'] }), WITH_VALIDATION, { ...MULTI, classification_betas: [2] }),
    fail: results(csv({ extra: ['classification/accuracy', 'classification/f2.0'] }), WITH_VALIDATION, { ...MULTI, classification_betas: [2] }),
    finding: /binary classification only/,
  },
  {
    name: 'results_csv_classification_per_epoch',
    pass: results(csv({ extra: BIN_COLS, fill: perEpoch(BIN_COLS) }), WITH_VALIDATION, BINARY),
    fail: results(csv({ extra: BIN_COLS, fill: (s) => BIN_COLS.map(() => (s === 8 ? '0.9' : '')) }), WITH_VALIDATION, BINARY),
    finding: /filled on 1 rows/,
  },
  // lists and models
  { name: 'ft_list_items_without_events', pass: { exchange: list([ITEM]), ctx: ctxOf() }, fail: { exchange: list([SUCCEEDED]), ctx: ctxOf() }, finding: /omitted in list items/ },
  { name: 'ft_list_items_in_org', pass: { exchange: list([ITEM]), ctx: ctxOf({}, { organization: 'org-a' }) }, fail: { exchange: list([ITEM, { ...ITEM, organization_id: 'org-b' }]), ctx: ctxOf({}, { organization: 'org-a' }) }, finding: /another organization is listed/ },
  { name: 'ft_result_files_filled', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, result_files: [] }), finding: /has its result files/ },
  { name: 'ft_result_file_purpose', pass: later(SUCCEEDED), fail: later({ ...SUCCEEDED, result_files: [fileObj('file-r', 'fine-tune')] }), finding: /another purpose/ },
  { name: 'ft_betas_binary_only_at_create', pass: { exchange: exchangeOf({ error: {} }, { status: 400 }), ctx: ctxOf() }, fail: { exchange: exchangeOf({ error: {} }, { status: 500 }), ctx: ctxOf() }, finding: /neither accepted nor refused/ },
  {
    name: 'ft_long_example_refused_at_upload_or_create',
    pass: { exchange: exchangeOf({ error: {} }, { status: 400 }), ctx: ctxOf({ method: 'POST', path: '/v1/files' }) },
    fail: { exchange: exchangeOf(PENDING, { sent: { training_file: 'file-long' } }), ctx: createCtx({ training_file: 'file-long' }) },
    finding: /was not refused/,
  },
  { name: 'ft_job_id_matches_path', pass: { exchange: exchangeOf(SUCCEEDED), ctx: ctxOf({ path: '/v1/fine-tunes/ft-1' }) }, fail: { exchange: exchangeOf(SUCCEEDED), ctx: ctxOf({ path: '/v1/fine-tunes/ft-2' }) }, finding: /id differs/ },
  { name: 'ft_list_includes_job', pass: { exchange: list([ITEM]), ctx: ctxOf({}, { id: 'ft-1' }) }, fail: { exchange: list([]), ctx: ctxOf({}, { id: 'ft-1' }) }, finding: /is not listed/ },
  { name: 'ft_list_includes_own_org_job', pass: { exchange: list([ITEM]), ctx: ctxOf({}, { id: 'ft-1' }) }, fail: { exchange: list([]), ctx: ctxOf({}, { id: 'ft-1' }) }, finding: /is not listed/ },
  { name: 'ft_list_excludes_other_org_job', pass: { exchange: list([]), ctx: ctxOf({}, { id: 'ft-1' }) }, fail: { exchange: list([ITEM]), ctx: ctxOf({}, { id: 'ft-1' }) }, finding: /is listed/ },
  { name: 'ft_model_retrieved_by_name', pass: { exchange: exchangeOf({ id: MODEL, object: 'model' }), ctx: ctxOf({ path: `/v1/models/${MODEL}` }) }, fail: { exchange: exchangeOf({ id: 'curie', object: 'model' }), ctx: ctxOf({ path: `/v1/models/${MODEL}` }) }, finding: /id differs/ },
  { name: 'ft_model_listed', pass: { exchange: list([{ id: MODEL }]), ctx: ctxOf({}, { id: MODEL }) }, fail: { exchange: list([{ id: 'curie' }]), ctx: ctxOf({}, { id: MODEL }) }, finding: /is not listed/ },
  { name: 'ft_model_owned_by_customer', pass: { exchange: list([{ id: 'curie', owned_by: 'openai' }, { id: MODEL, owned_by: 'user-abc' }]), ctx: ctxOf({}, { id: MODEL }) }, fail: { exchange: list([{ id: 'curie', owned_by: 'openai' }, { id: MODEL, owned_by: 'openai' }]), ctx: ctxOf({}, { id: MODEL }) }, finding: /owner of its base model curie/ },
  { name: 'ft_model_deleted_id_matches', pass: { exchange: exchangeOf({ id: MODEL, object: 'model', deleted: true }), ctx: ctxOf({ path: `/v1/models/${encodeURIComponent(MODEL)}` }) }, fail: { exchange: exchangeOf({ id: 'x', object: 'model', deleted: true }), ctx: ctxOf({ path: `/v1/models/${MODEL}` }) }, finding: /id differs/ },
  { name: 'ft_model_not_listed_after_delete', pass: { exchange: list([{ id: 'curie' }]), ctx: ctxOf({}, { id: MODEL }) }, fail: { exchange: list([{ id: MODEL }]), ctx: ctxOf({}, { id: MODEL }) }, finding: /is listed/ },
];

const check = (name: string): Check => {
  const c = FINETUNES_CHECKS.find((x) => x.name === name);
  if (!c) throw new Error(`no check ${name}`);
  return c;
};

describe('fine-tunes checks', () => {
  it('the stream order check has nothing to compare with after a refused late cancel; a job answered without events still fails', () => {
    const refused = { exchange: streamExchange(), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf({ error: { message: 'already succeeded' } }, { status: 400 }) }), events: EVENTS };
    expect(outcome(check('ft_stream_events_in_order'), refused)).toEqual({ notExercised: expect.stringMatching(/answered no job/) });
    const bare = { exchange: streamExchange(), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf({ ...SUCCEEDED, events: undefined }) }), events: EVENTS };
    expect(outcome(check('ft_stream_events_in_order'), bare)).toEqual({ findings: [expect.objectContaining({ message: expect.stringMatching(/returned no job with events/) })] });
  });

  it('every registered fine-tunes check has a row here', () => {
    expect(FINETUNES_CHECKS.map((c) => c.name).sort()).toEqual(ROWS.map((r) => r.name).sort());
  });

  // The lint of prose: a must judges the meaning the spec states (the model name, a file id, the order of occurrence),
  // never the service's words. Every must check that passes the service's job passes the same job told in other
  // words, at levels other than info after the enqueue event, with its events array newest first.
  it('no must check matches prose: the same life in other words, other levels and another order still passes', () => {
    const retold = REWORDED.map((e, i) => (i < 2 ? e : { ...e, level: 'notice' })).reverse();
    const inputs = [later(SUCCEEDED), later(PENDING), later(CANCELLED), { exchange: streamExchange(), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf(SUCCEEDED) }), events: EVENTS }];
    const retoldInputs = [later({ ...SUCCEEDED, events: retold }), later({ ...PENDING, events: REWORDED.slice(0, 2) }), later({ ...CANCELLED, events: [...REWORDED.slice(0, 2), ev('Job stopped on request', 103)] }),
      { exchange: streamExchange(), ctx: ctxOf({}, { job: 'j' }, { j: exchangeOf({ ...SUCCEEDED, events: retold }) }), events: [...retold].reverse() }];
    const broken: string[] = [];
    for (const c of FINETUNES_CHECKS.filter((x) => x.severity === 'must')) {
      inputs.forEach((input, i) => {
        const safely = (x: Input): Outcome | undefined => { try { return outcome(c, x); } catch { return undefined; } }; // a check needing other params
        const before = safely(input);
        if (!before) return;
        if (!('findings' in before) || before.findings.length > 0) return;
        const after = safely(retoldInputs[i]!);
        if (!after || !('findings' in after) || after.findings.length > 0) broken.push(`${c.name}: ${JSON.stringify(after)}`);
      });
    }
    expect(broken).toEqual([]);
  });

  it.each(ROWS)('$name passes a good input and fails a bad one', (row) => {
    expect(outcome(check(row.name), row.pass)).toEqual({ findings: [] });
    const bad = outcome(check(row.name), row.fail);
    expect('findings' in bad && bad.findings.length > 0, JSON.stringify(bad)).toBe(true);
    expect((bad as { findings: Finding[] }).findings.map((f) => f.message).join('\n')).toMatch(row.finding);
  });

  it('skips where a rule does not apply, instead of passing', () => {
    expect(outcome(check('ft_events_lifecycle_order'), later(PENDING))).toEqual({ skip: expect.stringMatching(/not succeeded/) });
    expect(outcome(check('ft_hyperparam_n_epochs_echo'), atCreate(PENDING))).toEqual({ skip: 'the create request did not set n_epochs' });
    expect(outcome(check('ft_name_has_suffix'), later(SUCCEEDED, { training_file: 'file-t' }))).toEqual({ skip: 'the job was created without a suffix' });
    expect(outcome(check('results_csv_binary_columns'), results(csv()))).toEqual({ skip: 'not a binary job with classification metrics' });
    expect(outcome(check('ft_cancel_final'), { exchange: exchangeOf(PENDING), ctx: ctxOf({}, { cancel: 'c' }, { c: exchangeOf({ error: {} }, { status: 405 }) }) })).toEqual({ skip: expect.stringMatching(/never cancelled/) });
    // A late cancel answered with the job as it was (it had succeeded): the job was never cancelled, so staying
    // succeeded breaks nothing (the spec does not say what a late cancel does).
    expect(outcome(check('ft_cancel_final'), { exchange: exchangeOf(SUCCEEDED), ctx: ctxOf({}, { cancel: 'c' }, { c: exchangeOf(SUCCEEDED) }) })).toEqual({ skip: expect.stringMatching(/never cancelled/) });
    expect(outcome(check('ft_finished_when_stream_done'), { exchange: exchangeOf(PENDING), ctx: ctxOf({}, { stream: 's' }, { s: streamExchange('timeout') }) })).toEqual({ skip: expect.stringMatching(/did not end with \[DONE\]/) });
    expect(outcome(check('results_csv_step'), results('step\n"unterminated\n'))).toEqual({ skip: expect.stringMatching(/not a CSV table/) });
  });

  it('a pass that judged nothing is not a pass: statuses the spec does not name, or no lifecycle event at all', () => {
    // A mock that answers "status": "string" shows no transition, whatever the order.
    const mock = { ...PENDING, status: 'string' };
    expect(outcome(check('ft_status_transitions'), { exchange: exchangeOf(mock), ctx: ctxOf({}, { previous: ['a'] }, { a: exchangeOf(mock) }) })).toEqual({ notExercised: expect.stringMatching(/no two observed statuses/) });
    expect(outcome(check('ft_lifecycle_events_info'), later({ ...SUCCEEDED, events: [{ object: 'fine-tune-event', created_at: 1, level: 'string', message: 'string' }] }))).toEqual({ notExercised: expect.stringMatching(/no event of the job is a lifecycle event/) });
  });

  it('a list whose object is wrong (the schema says so) is still read as a list of jobs', () => {
    const wrongObject = exchangeOf({ object: 'string', data: [{ ...ITEM, status: 'running', fine_tuned_model: null }] });
    expect(outcome(check('ft_fine_tuned_model_matches_status'), { exchange: wrongObject, ctx: ctxOf() })).toEqual({ findings: [] });
  });
});

describe('fine-tuned model names', () => {
  it.each([
    ['ada:ft-personal-2023-02-18-22-17-49', 'ada', undefined, { organization: 'personal', timestamp: '2023-02-18-22-17-49' }],
    ['ada:ft-user-REDACTED-2021-12-11-20-11-52', 'ada', undefined, { organization: 'user-REDACTED', timestamp: '2021-12-11-20-11-52' }],
    ['curie:ft-acme-inc:my-suffix-2023-05-01-10-00-00', 'curie', 'my-suffix', { organization: 'acme-inc', timestamp: '2023-05-01-10-00-00' }],
    // The spec gives no timestamp format: an ISO 8601 one (toISOString) holds colons, with or without a suffix.
    ['curie:ft-acme-2023-05-01T10:00:00.000Z', 'curie', undefined, { organization: 'acme', timestamp: '2023-05-01T10:00:00.000Z' }],
    ['curie:ft-acme:sfx-2023-05-01T10:00:00.000Z', 'curie', 'sfx', { organization: 'acme', timestamp: '2023-05-01T10:00:00.000Z' }],
  ])('%s splits into organization and timestamp', (name, base, suffix, parts) => {
    expect(parseFineTunedName(name, base, suffix)).toMatchObject(parts);
  });

  it.each([
    ['curie:ft-acme-2023-01-01-00-00-00', 'ada', undefined, /does not start/],
    ['curie:ft-acme:sfx-2023-01-01-00-00-00', 'curie', undefined, /although no suffix/],
    ['curie:ft-acme-2023-01-01-00-00-00', 'curie', 'sfx', /no ":sfx-" part/],
    ['curie:ft-acme', 'curie', undefined, /timestamp/],
  ])('%s is refused (base %s, suffix %s)', (name, base, suffix, why) => {
    expect(parseFineTunedName(name, base, suffix)).toMatch(why);
  });
});

describe('parseCsv', () => {
  it('reads quoted fields, CRLF and a missing final newline', () => {
    expect(parseCsv('a,b\r\n"x,1","say ""hi"""\r\n2,')).toEqual({ header: ['a', 'b'], rows: [['x,1', 'say "hi"'], ['2', '']] });
  });
  it('reports an unterminated quote and an empty file', () => {
    expect(parseCsv('a\n"x')).toBe('a quoted field is not closed');
    expect(parseCsv('\n')).toBe('the file is empty');
  });
});
