/**
 * No false positives on the real service: every response-only check of the files and fine-tunes
 * areas (and the fine-tuned model's deletion) runs over each real recording it applies to, read at
 * test time from ../shared/real-responses (never copied into the repo). All must pass.
 *
 * Checks that compare with an earlier exchange (an upload, a create request, a job) get that exchange
 * built from what the recording shows, and say so; a check that cannot apply to a recording is
 * skipped with the reason, and every skip is printed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES_CHECKS } from '../../src/checks/files/index.ts';
import { FINETUNES_CHECKS } from '../../src/checks/fine-tunes/index.ts';
import { findingsOf, type Check, type CheckContext, type Finding, type PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange, ExchangeRequest } from '../../src/transport/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { repoRoot } from '../../src/util/paths.ts';
import { sharedPresent } from '../shared.ts';

const corpus = path.resolve(repoRoot, '../shared/real-responses');
const FOLDERS = ['files', 'fine-tunes', 'fine-tuning-jobs', 'models'];
const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'http://127.0.0.1:1' });
const ALL: Check[] = [...FILES_CHECKS, ...FINETUNES_CHECKS];

interface Recording {
  tier: string;
  endpoint: string;
  note?: string;
  request: { method: string; path: string; body?: unknown };
  response: { status: number; headers: Record<string, string | string[]>; body: unknown };
}

type Use = { check: string; params?: Record<string, unknown>; history?: Record<string, Exchange>; exchange?: Exchange; label?: string };
type Skip = { check: string; reason: string };
interface Plan { uses: Use[]; skips: Skip[] }

const isObj = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function requestBody(rec: Recording): ExchangeRequest['body'] {
  const b = rec.request.body;
  if (isObj(b) && isObj(b.multipart_form_data)) {
    const m = b.multipart_form_data;
    return {
      kind: 'multipart',
      fields: m.fields ?? {},
      files: (m.files ?? []).map((f: any) => ({ field: f.field, filename: f.filename, contentType: f.content_type ?? '', size: f.size_bytes, sha256: '' })),
    };
  }
  return isObj(b) ? { kind: 'json', value: b } : { kind: 'none' };
}

function exchangeOf(rec: Recording, body: unknown = rec.response.body): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = Object.fromEntries(Object.entries(rec.response.headers ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
  return {
    request: { method: rec.request.method as any, url: `https://api.example${rec.request.path}`, headers: {}, body: requestBody(rec) },
    response: { status: rec.response.status, headers, text, ...(typeof body === 'string' ? {} : { json: body }), bytes: Buffer.from(text), truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}

function viewOf(rec: Recording): PlannedRequestView {
  const [p, q] = rec.request.path.split('?');
  const body = rec.request.body;
  const multipart = isObj(body) && isObj(body.multipart_form_data) ? body.multipart_form_data : undefined;
  return {
    method: rec.request.method,
    path: p!,
    query: Object.fromEntries(new URLSearchParams(q ?? '')),
    ...(isObj(body) && !multipart ? { json: body } : {}),
    ...(multipart ? { multipartFields: multipart.fields ?? {} } : {}),
    stream: false,
  };
}

/** An exchange that only carries a request body (a create request the recording does not include). */
function sentOnly(json: Record<string, unknown>): Exchange {
  return { request: { method: 'POST', url: 'https://api.example/v1/fine-tunes', headers: {}, body: { kind: 'json', value: json } }, attachments: {}, timing: { startedAt: 0, durationMs: 0 } };
}
function bodyOnly(json: unknown): Exchange {
  return { request: { method: 'GET', url: 'https://api.example/v1/fine-tunes/x', headers: {}, body: { kind: 'none' } }, response: { status: 200, headers: {}, json, text: JSON.stringify(json), truncated: false }, attachments: {}, timing: { startedAt: 0, durationMs: 0 } };
}

/** The create request a succeeded job's name implies: its base model and the suffix between the second colon and the timestamp. */
function impliedCreate(job: Record<string, any>): Record<string, unknown> {
  const name = String(job.fine_tuned_model ?? '');
  const m = /^[^:]+:ft-[^:]+:(.+)-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$/.exec(name);
  return { training_file: job.training_files?.[0]?.id, model: job.model, ...(m ? { suffix: m[1] } : {}) };
}

const SUCCEEDED_JOB_CHECKS = ['ft_status_succeeded', 'ft_events_lifecycle_order', 'ft_enqueue_event_recorded', 'ft_event_snapshot_names_model', 'ft_event_result_file_id', 'ft_lifecycle_events_info', 'ft_result_files_filled', 'ft_result_file_purpose'];
const NAME_CHECKS = ['ft_fine_tuned_model_name', 'ft_name_has_suffix', 'ft_name_without_suffix', 'ft_name_timestamp_format'];
const CREATE_NOT_RECORDED = 'the create request of this job is not recorded (defaults cannot be told from values that were sent)';

function planFor(file: string, rec: Recording): Plan | string {
  const { method } = rec.request;
  const p = rec.request.path.split('?')[0]!;
  const body = rec.response.body;
  if (file.startsWith('fine-tuning-jobs/')) return 'endpoint outside the spec (/v1/fine_tuning/jobs, the later fine-tuning API)';
  if (rec.tier === 'docs-example' && typeof body === 'string') return 'documentation example whose body is not valid JSON (not a real body)';
  if (rec.response.status < 200 || rec.response.status >= 300) return 'not a success response (error recordings are checked by the error conventions)';
  const placeholder = /\{[a-z_]+\}/.test(p);
  const uses: Use[] = [];
  const skips: Skip[] = [];
  const pathChecks = (name: string) => (placeholder ? skips.push({ check: name, reason: 'the recorded path has a placeholder instead of an id' }) : uses.push({ check: name }));

  // ---- files
  if (method === 'POST' && p === '/v1/files') {
    if (requestBody(rec).kind === 'multipart') uses.push({ check: 'file_echoes_upload' });
    else skips.push({ check: 'file_echoes_upload', reason: 'the upload request is not recorded' });
    return { uses, skips };
  }
  if (method === 'DELETE' && p.startsWith('/v1/files/')) { pathChecks('file_deleted_id_matches'); return { uses, skips }; }
  if (method === 'GET' && /^\/v1\/files\/[^/]+\/content$/.test(p) && file.startsWith('files/')) {
    uses.push({ check: 'file_content_get_accepted' });
    skips.push({ check: 'file_content_matches_upload', reason: 'the uploaded bytes are not recorded' });
    return { uses, skips };
  }
  if (method === 'GET' && (p === '/v1/files' || /^\/v1\/files\/[^/]+$/.test(p))) {
    skips.push({ check: p === '/v1/files' ? 'file_listed' : 'file_same_as_upload', reason: 'compares with an upload of the same run' });
    return { uses, skips };
  }

  // ---- results CSV
  if (/\/content$/.test(p) && file.startsWith('fine-tunes/')) {
    const withValidation = typeof body === 'string' && body.split('\n')[0]!.includes('validation_loss');
    // The job is not recorded: batch_size unknown (the check then takes it from the first row), validation as the header and the note say.
    const job = bodyOnly({ object: 'fine-tune', status: 'succeeded', hyperparams: { batch_size: null }, validation_files: withValidation ? [{ id: 'file-validation' }] : [] });
    const history = { job, create: sentOnly({ training_file: 'file-training' }) };
    for (const name of ['results_csv_parses', 'results_csv_base_columns', 'results_csv_step', 'results_csv_elapsed_tokens', 'results_csv_training_loss', 'results_csv_accuracy_range']) uses.push({ check: name });
    for (const name of ['results_csv_elapsed_examples', withValidation ? 'results_csv_validation_columns' : 'results_csv_no_validation_columns', 'results_csv_no_classification_columns']) uses.push({ check: name, params: { job: 'job', create: 'create' }, history });
    skips.push({ check: 'results_csv_covers_n_epochs', reason: 'the number of training examples and n_epochs are not recorded' });
    return { uses, skips };
  }

  // ---- fine-tunes
  if (!isObj(body)) return 'no JSON body';
  if (method === 'POST' && p === '/v1/fine-tunes') {
    const sent = isObj(rec.request.body) ? rec.request.body : undefined;
    if (!sent) return 'the create request is not recorded';
    for (const name of ['ft_created_pending', 'ft_create_model_null', 'ft_create_no_results', 'ft_training_files_echo', 'ft_validation_files_echo', 'ft_job_model_is_requested', 'ft_hyperparam_prompt_loss_weight', 'ft_hyperparam_batch_size', 'ft_hyperparam_learning_rate_multiplier', 'ft_fine_tuned_model_matches_status']) uses.push({ check: name });
    uses.push({ check: sent.n_epochs === undefined ? 'ft_hyperparam_n_epochs_default' : 'ft_hyperparam_n_epochs_echo' });
    skips.push({ check: 'ft_enqueue_event_recorded', reason: 'the real service records the enqueue event after the create response (which holds only "Created fine-tune"); the catalogue reads the rule as "shortly after create" (FT-STATE-CREATE-ENQUEUE-EVENT), so the suites check it on later retrievals' });
    return { uses, skips };
  }
  if (method === 'GET' && p === '/v1/fine-tunes') {
    uses.push({ check: 'ft_list_items_without_events' }, { check: 'ft_fine_tuned_model_matches_status' });
    const orgs = new Set((body.data as any[]).map((j) => j.organization_id));
    uses.push({ check: 'ft_list_items_in_org', params: { organization: [...orgs][0] } });
    // Every succeeded item's model name, against the create request its name implies.
    (body.data as any[]).forEach((job, i) => {
      if (job.status !== 'succeeded') return;
      const history = { create: sentOnly(impliedCreate(job)) };
      for (const name of ['ft_fine_tuned_model_name', 'ft_name_timestamp_format']) uses.push({ check: name, params: { create: 'create' }, history, exchange: exchangeOf(rec, job), label: `data/${i}` });
    });
    return { uses, skips };
  }
  if (method === 'GET' && /^\/v1\/fine-tunes\/[^/]+$/.test(p)) {
    pathChecks('ft_job_id_matches_path');
    uses.push({ check: 'ft_fine_tuned_model_matches_status' });
    if (body.status === 'succeeded') {
      for (const name of SUCCEEDED_JOB_CHECKS) uses.push({ check: name });
      const history = { create: sentOnly(impliedCreate(body)) };
      for (const name of NAME_CHECKS) uses.push({ check: name, params: { create: 'create' }, history });
    }
    if (body.status === 'cancelled') uses.push({ check: 'ft_cancel_model_null' });
    for (const name of ['ft_hyperparam_n_epochs_default', 'ft_default_batch_size_capped', 'ft_default_learning_rate_multiplier']) skips.push({ check: name, reason: CREATE_NOT_RECORDED });
    return { uses, skips };
  }
  if (method === 'POST' && /\/cancel$/.test(p)) {
    for (const name of ['ft_cancel_post_accepted', 'ft_job_cancelled', 'ft_cancel_model_null', 'ft_fine_tuned_model_matches_status']) uses.push({ check: name });
    return { uses, skips };
  }
  if (method === 'GET' && /\/events$/.test(p)) {
    const messages = (body.data as any[]).map((e) => String(e.message));
    if (messages.length === 1) skips.push({ check: 'ft_enqueue_event_recorded', reason: 'recorded right after create: only "Created fine-tune" so far (the enqueue event comes shortly after)' });
    else if (messages.some((m) => /cancel/i.test(m)) && !messages.some((m) => /enqueue/i.test(m))) skips.push({ check: 'ft_enqueue_event_recorded', reason: 'the job was cancelled before it was enqueued (the real service records the enqueue event after create, not in it)' });
    else uses.push({ check: 'ft_enqueue_event_recorded' });
    skips.push({ check: 'ft_events_match_job', reason: 'the job retrieved at the same time is not recorded' });
    return { uses, skips };
  }

  // ---- models: only the fine-tuned model's deletion is this group's
  if (method === 'DELETE' && p.startsWith('/v1/models/')) { pathChecks('ft_model_deleted_id_matches'); return { uses, skips }; }
  return 'not a files / fine-tunes / fine-tuned model deletion recording';
}

function run(check: Check, exchange: Exchange, ctx: CheckContext): { skip: string } | { findings: Finding[] } {
  const skip = check.skipWhen?.(exchange, ctx);
  if (skip) return { skip };
  if (check.kind !== 'response') throw new Error(`${check.name} is a stream check`);
  return { findings: findingsOf(check.run(exchange, ctx)) };
}

const files = existsSync(corpus)
  ? FOLDERS.flatMap((folder) => readdirSync(path.join(corpus, folder)).filter((f) => f.endsWith('.json')).map((f) => `${folder}/${f}`)).sort()
  : [];

describe.skipIf(!sharedPresent('real-responses'))('files and fine-tunes checks on real recordings', () => {
  it('finds the recordings', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  const skipped: string[] = [];
  const ran = new Set<string>();

  it.each(files)('%s', (file) => {
    const rec = JSON.parse(readFileSync(path.join(corpus, file), 'utf8')) as Recording;
    const plan = planFor(file, rec);
    if (typeof plan === 'string') { skipped.push(`${file}: (all) ${plan}`); return; }
    for (const s of plan.skips) skipped.push(`${file}: ${s.check} — ${s.reason}`);
    for (const use of plan.uses) {
      const check = ALL.find((c) => c.name === use.check);
      expect(check, use.check).toBeDefined();
      const exchange = use.exchange ?? exchangeOf(rec);
      const ctx: CheckContext = { request: viewOf(rec), profile, vars: {}, schemas, params: use.params ?? {}, history: new Map(Object.entries(use.history ?? {})) };
      const out = run(check!, exchange, ctx);
      const where = `${file}${use.label ? ` ${use.label}` : ''}: ${use.check}`;
      if ('skip' in out) { skipped.push(`${where} — skipped by the check: ${out.skip}`); continue; }
      ran.add(use.check);
      expect(out.findings, where).toEqual([]);
    }
  });

  it('exercised the response checks on real data, and printed every skip with its reason', () => {
    console.log(`\nreal recordings, state checks — ${ran.size} checks ran; skipped:\n  ${skipped.join('\n  ')}`);
    for (const name of ['file_echoes_upload', 'file_deleted_id_matches', 'ft_created_pending', 'ft_events_lifecycle_order', 'ft_fine_tuned_model_name', 'results_csv_elapsed_examples', 'results_csv_validation_columns', 'ft_job_cancelled', 'ft_model_deleted_id_matches']) {
      expect(ran.has(name), name).toBe(true);
    }
  });
});
