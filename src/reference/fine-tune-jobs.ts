// Fine-tune job records and their timer-driven lifecycle:
//   create (pending: "Created fine-tune", "Fine-tune enqueued. Queue number: 0")
//   -> 20% of trainingMs: running ("Fine-tune started"; batch size and learning rate resolved)
//   -> one "Completed epoch e/N" per epoch over the next 60%
//   -> 90%: "Uploaded model: <name>"
//   -> 100%: result file, "Uploaded result file: file-...", "Fine-tune succeeded", model registered.
import type { App } from './context.ts';
import type { FaultName } from './faults.ts';
import { RESULTS_PURPOSE, storeFile } from './files.ts';
import { buildResultsCsv } from './fine-tune-results.ts';
import type { ResultsPlan } from './fine-tune-results.ts';
import { LIMITS } from './limits.ts';
import { hashParts, unixSeconds } from './random.ts';
import type { JobStatus, FineTuneEvent, FineTuneJob, StoredFile, TrainingExample } from './entities.ts';

export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'cancelled']);



const REWORDED: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Created fine-tune: (.*)$/, 'Job $1 created'],
  [/^Fine-tune enqueued\. Queue number: (\d+)$/, 'Waiting in line at position $1'],
  [/^Fine-tune started$/, 'Training began'],
  [/^Completed epoch (\d+)\/(\d+)$/, 'Epoch $1 of $2 done'],
  [/^Uploaded model: (.*)$/, 'Model $1 saved'],
  [/^Uploaded result file: (.*)$/, 'Results written to $1'],
  [/^Fine-tune succeeded$/, 'Job completed'],
  [/^Fine-tune cancelled$/, 'Job stopped on request'],
];

function voiced(job: FineTuneJob, message: string): { message: string; level: string } {
  const first = job.events.length < 2; // created and enqueued: "an info event about enqueueing"
  const level = job.voice.otherLevels && !first ? (/succeeded$/.test(message) ? 'success' : 'notice') : 'info';
  if (!job.voice.reworded) return { message, level };
  const rule = REWORDED.find(([re]) => re.test(message));
  return { message: rule ? message.replace(rule[0], rule[1]) : message, level };
}




/** Lifecycle milestones as shares of trainingMs. */
const SCHEDULE = { start: 0.2, epochsFrom: 0.2, epochsSpan: 0.6, uploadModel: 0.9, succeed: 1 } as const;

export function autoBatchSize(examples: number): number {
  const { share, min, max } = LIMITS.fineTuneAutoBatch;
  return Math.min(max, Math.max(min, Math.round(examples * share)));
}

export function autoLearningRate(batchSize: number): number {
  return LIMITS.fineTuneAutoLearningRate.find((row) => batchSize <= row.maxBatch)!.multiplier;
}

export function record(job: FineTuneJob, said: string): void {
  const { message, level } = voiced(job, said);
  const event: FineTuneEvent = { object: 'fine-tune-event', created_at: unixSeconds(), level, message };
  job.events.push(event);
  job.updatedAt = event.created_at;
  for (const listener of job.listeners) listener(event);
}

function end(job: FineTuneJob): void {
  for (const listener of [...job.listeners]) listener('end');
  job.listeners.clear();
}

/** `2023-02-18-22-17-49` (UTC) */
function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

/** `<base>:ft-<org>[:<suffix>]-<timestamp>`; the timestamp moves on a second if the name is taken. */
export function fineTunedModelName(app: App, job: FineTuneJob, atMs: number): string {
  const taken = new Set<string>(app.state.fineTunedModels.keys());
  for (const other of app.state.jobs.values()) if (other.modelName) taken.add(other.modelName);
  const prefix = `${job.root}:ft-${job.orgName}${job.suffix ? `:${job.suffix}` : ''}`;
  let t = atMs;
  while (taken.has(`${prefix}-${stamp(t)}`)) t += 1000;
  return `${prefix}-${stamp(t)}`;
}

export function startLifecycle(app: App, job: FineTuneJob): void {
  const total = app.options.trainingMs;
  const at = (share: number, step: () => void) => job.timers.push(app.timers.after(Math.round(total * share), step));
  at(SCHEDULE.start, () => begin(job));
  for (let e = 1; e <= job.nEpochs; e++) {
    at(SCHEDULE.epochsFrom + (SCHEDULE.epochsSpan * e) / job.nEpochs, () => record(job, `Completed epoch ${e}/${job.nEpochs}`));
  }
  at(SCHEDULE.uploadModel, () => uploadModel(app, job));
  at(SCHEDULE.succeed, () => succeed(app, job));
}

/**
 * The snapshot upload, once. Timers of different delays can fire out of order when the event loop was busy (Node
 * runs every expired timer of one delay's list before the next list), so success uploads the snapshot first when
 * its own timer has not yet: the events then always name the model, before success, with the name the job keeps.
 */
function uploadModel(app: App, job: FineTuneJob): void {
  if (job.modelUploaded) return;
  job.modelUploaded = true;
  job.modelName ??= fineTunedModelName(app, job, Date.now());
  record(job, `Uploaded model: ${job.modelName}`);
}

function begin(job: FineTuneJob): void {
  job.status = 'running';
  job.batchSize = job.requestedBatchSize ?? (job.fault('default-batch-size-512-unreported') ? 512 : autoBatchSize(job.examples.length));
  job.learningRateMultiplier = job.requestedLearningRate ?? autoLearningRate(job.batchSize);
  record(job, 'Fine-tune started');
}

function succeed(app: App, job: FineTuneJob): void {
  const plan: ResultsPlan = {
    examples: job.examples,
    batchSize: job.batchSize ?? 1,
    nEpochs: job.nEpochs,
    withValidation: job.validationFile !== null || app.fault('results-csv-validation-columns-always'),
    classification:
      job.classification === null
        ? null
        : job.classification.positiveClass !== null
          ? { kind: 'binary', betas: job.classification.betas ?? [] }
          : { kind: 'multiclass' },
    omitElapsedExamples: app.fault('results-csv-missing-elapsed-examples'),
    seed: hashParts(app.options.seed, job.id),
  };
  const results = storeFile(app, job.orgId, 'compiled_results.csv', app.fault('fine-tune-result-file-purpose-wrong') ? 'fine-tune' : RESULTS_PURPOSE, Buffer.from(buildResultsCsv(plan)));
  results.file.status = 'processed';
  job.resultFiles.push(results);
  uploadModel(app, job);
  record(job, `Uploaded result file: ${results.file.id}`);
  const name = job.modelName!;
  job.status = 'succeeded';
  job.fineTunedModel = name;
  app.state.fineTunedModels.set(name, {
    id: name,
    orgId: job.orgId,
    root: job.root,
    created: unixSeconds(),
    readyAtMs: Date.now() + app.options.modelLoadMs,
    deleted: false,
  });
  record(job, 'Fine-tune succeeded');
  end(job);
}

/** Cancels a pending/running job: timers stop, status cancelled, fine_tuned_model stays null. */
export function cancelJob(app: App, job: FineTuneJob): void {
  for (const t of job.timers) app.timers.cancel(t);
  job.timers = [];
  job.status = 'cancelled';
  job.fineTunedModel = null;
  record(job, 'Fine-tune cancelled');
  end(job);
}

export function jobObject(job: FineTuneJob, opts: { withEvents: boolean; eventsNewestFirst: boolean }): Record<string, unknown> {
  const hyperparams: Record<string, unknown> = {
    n_epochs: job.nEpochs,
    batch_size: job.fault('default-batch-size-512-unreported') && job.requestedBatchSize === null ? null : job.batchSize ?? job.requestedBatchSize,
    prompt_loss_weight: job.promptLossWeight,
    learning_rate_multiplier: job.learningRateMultiplier ?? job.requestedLearningRate,
  };
  if (job.classification) {
    hyperparams.compute_classification_metrics = true;
    if (job.classification.nClasses !== null) hyperparams.classification_n_classes = job.classification.nClasses;
    if (job.classification.positiveClass !== null) hyperparams.classification_positive_class = job.classification.positiveClass;
    if (job.classification.betas !== null) hyperparams.classification_betas = job.classification.betas;
  }
  const body: Record<string, unknown> = {
    object: 'fine-tune',
    id: job.id,
    hyperparams,
    organization_id: job.orgId,
    model: job.model,
    training_files: job.fault('fine-tune-training-files-empty') ? [] : [{ ...job.trainingFile.file }],
    validation_files: job.validationFile && !job.fault('fine-tune-validation-files-empty') ? [{ ...job.validationFile.file }] : [],
    result_files: job.fault('fine-tune-result-files-empty') ? [] : job.resultFiles.map((f) => ({ ...f.file })),
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    status: job.status,
    fine_tuned_model: job.fineTunedModel,
  };
  if (opts.withEvents) body.events = opts.eventsNewestFirst ? [...job.events].reverse() : [...job.events];
  return body;
}
