// /v1/fine-tunes: create, list, retrieve, cancel (POST), events (JSON or SSE).
import type { Ctx } from './context.ts';
import { keyReaches } from './accounts.ts';
import { FINE_TUNE_PURPOSE, fileOfCaller, parseTrainingJsonl } from './files.ts';
import { TERMINAL_STATUSES, cancelJob, fineTunedModelName, jobObject, record, startLifecycle } from './fine-tune-jobs.ts';
import { invalidRequest, notFound, invalidUrl } from './http-errors.ts';
import { LIMITS } from './limits.ts';
import { liveFineTunedModel } from './models.ts';
import { unixSeconds } from './random.ts';
import { SseStream } from './sse.ts';
import { Fields, parseJsonObject } from './validate.ts';
import type { FineTuneEvent, Classification, FineTuneJob, StoredFile, TrainingExample } from './entities.ts';

function trainingData(ctx: Ctx, fields: Fields, param: 'training_file' | 'validation_file'): { file: StoredFile; examples: TrainingExample[] } | null {
  const id = param === 'training_file' ? fields.string(param, { required: true }) : fields.string(param);
  if (id === undefined) return null;
  const file = ctx.app.state.files.get(id);
  if ((!file || file.orgId !== ctx.caller.org.id) && ctx.fault('fine-tune-unknown-file-accepted')) return { file: phantomFile(ctx, id), examples: [{ prompt: 'a', completion: ' b' }] };
  if (!file || file.orgId !== ctx.caller.org.id) throw invalidRequest(`No file with ID: ${id}`, param);
  if (file.file.purpose !== FINE_TUNE_PURPOSE && ctx.fault('fine-tune-wrong-purpose-file-accepted')) {
    try {
      return { file, examples: parseTrainingJsonl(file.content, false) };
    } catch {
      return { file, examples: [{ prompt: 'a', completion: ' b' }] };
    }
  }
  if (file.file.purpose !== FINE_TUNE_PURPOSE) {
    throw invalidRequest(`File ${id} has purpose '${file.file.purpose}'; fine-tuning requires purpose '${FINE_TUNE_PURPOSE}'.`, param);
  }
  return { file, examples: parseTrainingJsonl(file.content, ctx.reading('file-validation-late'), ctx.fault('jsonl-invalid-json-accepted')) };
}

/** Fault fine-tune-unknown-file-accepted: a file object made up for an id that names no file. */
function phantomFile(ctx: Ctx, id: string): StoredFile {
  const file = { id, object: 'file' as const, bytes: 0, created_at: unixSeconds(), filename: 'unknown.jsonl', purpose: FINE_TUNE_PURPOSE, status: 'processed' as const, status_details: null };
  return { file, orgId: ctx.caller.org.id, content: Buffer.alloc(0) };
}

/** Base model: ada/babbage/curie/davinci or a live fine-tuned model of the org (whose root is the base). */
function baseModelOf(ctx: Ctx, model: string): string {
  if ((LIMITS.fineTuneBaseModels as readonly string[]).includes(model)) return model;
  const tuned = liveFineTunedModel(ctx.app, ctx.caller, model);
  if (tuned) return tuned.root;
  throw invalidRequest(`Invalid base model: ${model} (model must be one of ${LIMITS.fineTuneBaseModels.join(', ')} or a fine-tuned model of your organization).`, 'model');
}

function readClassification(ctx: Ctx, fields: Fields, hasValidation: boolean): Classification | null {
  const enabled = fields.boolean('compute_classification_metrics') ?? false;
  const nClasses = fields.integer('classification_n_classes', { min: 2 }) ?? null;
  const positiveClass = fields.string('classification_positive_class', { allowEmpty: true }) ?? null;
  const betasValue = fields.raw('classification_betas');
  let betas: number[] | null = null;
  if (betasValue !== undefined && betasValue !== null) {
    if (!Array.isArray(betasValue) || betasValue.some((b) => typeof b !== 'number' || !(b > 0))) {
      throw invalidRequest(`${JSON.stringify(betasValue)} is not an array of positive numbers - 'classification_betas'`, 'classification_betas');
    }
    betas = betasValue as number[];
    // F-beta scores exist only for binary classification.
    if (positiveClass === null) {
      throw invalidRequest('classification_betas is only supported for binary classification; set classification_positive_class.', 'classification_betas');
    }
  }
  if (positiveClass !== null && nClasses !== null && nClasses !== 2) {
    throw invalidRequest('classification_positive_class implies binary classification; classification_n_classes must then be 2.', 'classification_n_classes');
  }
  if (!enabled) return null;
  // "requires ..." says what the metrics need, not when it is enforced: refused here, or (ccm-checked-late) the job
  // is accepted and computes no metrics.
  if ((!hasValidation || (nClasses === null && positiveClass === null)) && ctx.reading('ccm-checked-late')) return null;
  if (!hasValidation && !ctx.fault('classification-metrics-without-validation-accepted')) {
    throw invalidRequest('compute_classification_metrics requires a validation_file.', 'validation_file');
  }
  if (nClasses === null && positiveClass === null) {
    throw invalidRequest('compute_classification_metrics requires classification_n_classes (multiclass) or classification_positive_class (binary).', 'compute_classification_metrics');
  }
  return { nClasses, positiveClass, betas };
}

function checkDisjoint(training: readonly TrainingExample[], validation: readonly TrainingExample[]): void {
  const seen = new Set(training.map((e) => JSON.stringify([e.prompt, e.completion])));
  const shared = validation.find((e) => seen.has(JSON.stringify([e.prompt, e.completion])));
  if (shared) throw invalidRequest('Training and validation data must be disjoint; an example occurs in both files.', 'validation_file');
}

export function createFineTune(ctx: Ctx): unknown {
  const fields = new Fields(parseJsonObject(ctx.body));
  const training = trainingData(ctx, fields, 'training_file')!;
  const validation = trainingData(ctx, fields, 'validation_file');
  if (validation) checkDisjoint(training.examples, validation.examples);
  const model = fields.string('model') ?? LIMITS.fineTuneDefaultModel;
  const root = baseModelOf(ctx, model);
  const requestedEpochs = fields.integer('n_epochs', { min: 1 }) ?? LIMITS.fineTuneDefaultEpochs;
  const nEpochs = ctx.fault('fine-tune-hyperparams-not-echoed') ? LIMITS.fineTuneDefaultEpochs : requestedEpochs;
  const batchSize = fields.integer('batch_size', { min: 1 }) ?? null;
  const learningRate = fields.number('learning_rate_multiplier', { min: 0 }) ?? null;
  if (learningRate === 0) throw invalidRequest("0 is less than or equal to the minimum of 0 - 'learning_rate_multiplier'", 'learning_rate_multiplier');
  const promptLossWeight = fields.number('prompt_loss_weight', { min: 0 }) ?? LIMITS.fineTuneDefaultPromptLossWeight;
  const classification = readClassification(ctx, fields, validation !== null);
  const requestedSuffix = fields.string('suffix', { maxLength: ctx.fault('fine-tune-suffix-41-accepted') ? undefined : LIMITS.fineTuneSuffixChars, allowEmpty: true }) || null;

  const now = unixSeconds();
  const job: FineTuneJob = {
    id: ctx.app.ids.next('ft-'),
    orgId: ctx.caller.org.id,
    orgName: ctx.caller.org.name,
    model: ctx.fault('fine-tune-model-not-echoed') ? LIMITS.fineTuneDefaultModel : model,
    root,
    suffix: ctx.fault('fine-tune-suffix-ignored') ? null : requestedSuffix,
    createdAt: now,
    updatedAt: now,
    status: 'pending',
    fineTunedModel: null,
    modelName: null,
    nEpochs,
    requestedBatchSize: batchSize,
    requestedLearningRate: learningRate,
    // Resolved when the job starts, as the real service shows null at creation.
    batchSize: null,
    learningRateMultiplier: null,
    promptLossWeight,
    classification,
    trainingFile: training.file,
    validationFile: validation?.file ?? null,
    resultFiles: [],
    examples: training.examples,
    events: [],
    listeners: new Set(),
    timers: [],
    fault: ctx.fault,
    voice: { reworded: ctx.reading('event-messages-reworded'), otherLevels: ctx.reading('event-levels-other') },
  };
  ctx.app.state.jobs.set(job.id, job);
  record(job, `Created fine-tune: ${job.id}`);
  record(job, 'Fine-tune enqueued. Queue number: 0');
  if (ctx.fault('fine-tuned-model-set-while-pending')) {
    job.modelName = fineTunedModelName(ctx.app, job, Date.now());
    job.fineTunedModel = job.modelName;
  }
  startLifecycle(ctx.app, job);
  return jobObject(job, { withEvents: true, eventsNewestFirst: ctx.fault('fine-tune-events-out-of-order') });
}

function jobOfCaller(ctx: Ctx, anyOrg = false): FineTuneJob {
  const id = ctx.params.id!;
  const job = ctx.app.state.jobs.get(id);
  if (!job || (job.orgId !== ctx.caller.org.id && !anyOrg && !(ctx.reading('jobs-by-id-open') && keyReaches(ctx.caller, job.orgId)))) throw notFound(`No such fine-tune: ${id}`, 'fine_tune_id', 'fine_tune_not_found');
  return job;
}

export function listFineTunes(ctx: Ctx): unknown {
  const data = [...ctx.app.state.jobs.values()]
    .filter((j) => j.orgId === ctx.caller.org.id || ctx.fault('fine-tune-list-other-org'))
    .map((j) => jobObject(j, { withEvents: ctx.fault('fine-tune-list-includes-events'), eventsNewestFirst: false }));
  return { object: 'list', data };
}

export function retrieveFineTune(ctx: Ctx): unknown {
  return jobObject(jobOfCaller(ctx, ctx.fault('fine-tune-retrieve-other-org')), { withEvents: true, eventsNewestFirst: ctx.fault('fine-tune-events-out-of-order') });
}

export function cancelFineTune(ctx: Ctx): unknown {
  // Which method serves cancel is not shown: POST by default, PUT under the reading; a server without cancel serves none.
  const served = ctx.reading('cancel-method-put') ? 'PUT' : 'POST';
  if (ctx.fault('fine-tune-cancel-missing') || ctx.method !== served) throw invalidUrl(ctx.method, ctx.path);
  const job = jobOfCaller(ctx);
  // "Cancelling a job that is already in a terminal state: not shown": refused, or (late-cancel-recorded) done.
  if (TERMINAL_STATUSES.has(job.status) && !ctx.fault('cancel-terminal-accepted') && !ctx.reading('late-cancel-recorded')) {
    throw invalidRequest(`Cannot cancel a job ${job.id} that already has status "${job.status}".`);
  }
  if (!ctx.fault('cancel-leaves-running')) {
    cancelJob(ctx.app, job);
    // A terminal job "cancelled" by the fault loses its model like a real cancel would.
    if (job.modelName) ctx.app.state.fineTunedModels.delete(job.modelName);
  }
  if (ctx.fault('cancel-sets-fine-tuned-model') && job.fineTunedModel === null) job.fineTunedModel = fineTunedModelName(ctx.app, job, Date.now());
  return jobObject(job, { withEvents: true, eventsNewestFirst: ctx.fault('fine-tune-events-out-of-order') });
}

export async function listFineTuneEvents(ctx: Ctx): Promise<unknown> {
  const asked = jobOfCaller(ctx);
  const first = [...ctx.app.state.jobs.values()].find((j) => j.orgId === ctx.caller.org.id);
  const job = ctx.fault('fine-tune-events-of-other-job') && first ? first : asked;
  const stream = ctx.query.get('stream');
  if (stream !== 'true') {
    if (stream !== null && stream !== 'false') throw invalidRequest(`'${stream}' is not of type 'boolean' - 'stream'`, 'stream');
    // The spec states no order for a list: newest first is a reading (events-newest-first).
    const data = ctx.fault('fine-tune-events-out-of-order') || ctx.reading('events-newest-first') ? [...job.events].reverse() : [...job.events];
    return { object: 'list', data };
  }
  await streamEvents(ctx, job);
  return undefined;
}

/** Recorded events first, then live ones as they happen; `[DONE]` once the job is terminal. */
async function streamEvents(ctx: Ctx, job: FineTuneJob): Promise<void> {
  const sse = new SseStream(ctx.res, {
    doneMarker: !ctx.fault('fine-tune-event-stream-missing-done'),
    eventLines: false,
    hang: false,
    contentType: 'text/event-stream',
  });
  // "new Fine-tune event objects are sent": the events so far first, or (events-stream-new-only) only later ones.
  const queue: (FineTuneEvent | 'end')[] = ctx.reading('events-stream-new-only') ? [] : [...job.events];
  let wake: (() => void) | undefined;
  const listener = (item: FineTuneEvent | 'end') => {
    queue.push(item);
    wake?.();
  };
  if (TERMINAL_STATUSES.has(job.status)) queue.push('end');
  else job.listeners.add(listener);
  ctx.res.on('close', () => {
    job.listeners.delete(listener);
    wake?.();
  });
  for (;;) {
    while (queue.length > 0) {
      const item = queue.shift()!;
      if (item === 'end') {
        await sse.finish();
        return;
      }
      await sse.send(item);
    }
    if (sse.isClosed) return;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}
