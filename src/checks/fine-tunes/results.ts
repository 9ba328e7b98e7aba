// Fine-tune results file (CSV, one row per training step) — Spec, "Fine-tune results file":
// step; elapsed_tokens (repeats included); elapsed_examples (batch_size added per step);
// training_loss; training_sequence_accuracy; training_token_accuracy; validation_* only with a
// validation file; classification columns only with compute_classification_metrics.
// Checks read the body of GET /v1/files/{result file}/content; `with: { job }` names the case that
// retrieved the succeeded job, `with: { create }` the case that created it.

import type { Exchange } from '../../transport/types.ts';
import { notExercised, type CheckContext, type CheckVerdict, type Finding, type ParamSpecs, type ResponseCheck, type Severity } from '../types.ts';

/** Steps below which a job may end before its first periodic validation (a period of 10 steps is plausible). */
const MIN_STEPS_FOR_A_PERIOD = 10;
import { caseParam, EXAMPLES } from '../params.ts';
import { isRecord } from '../../util/json-type.ts';
import { finding, historyParam, sentJson, unlessOk } from '../files/support.ts';
import { parseCsv, num, type Csv } from './csv.ts';
import { jobIn, type Job } from './jobs.ts';

export const BASE_COLUMNS = ['step', 'elapsed_tokens', 'elapsed_examples', 'training_loss', 'training_sequence_accuracy', 'training_token_accuracy'] as const;
export const VALIDATION_COLUMNS = ['validation_loss', 'validation_sequence_accuracy', 'validation_token_accuracy'] as const;
const KNOWN = new Set<string>([...BASE_COLUMNS, ...VALIDATION_COLUMNS]);

export function csvText(exchange: Exchange): string | undefined {
  const r = exchange.response;
  if (!r) return undefined;
  if (r.text !== undefined) return r.text;
  return r.bytes ? new TextDecoder('utf-8').decode(r.bytes) : undefined;
}

function csvOf(exchange: Exchange): Csv | string {
  const text = csvText(exchange);
  return text === undefined ? 'the response has no text body' : parseCsv(text);
}

/** Column → cell of each row. */
const column = (csv: Csv, name: string): Array<string | undefined> => {
  const i = csv.header.indexOf(name);
  return i < 0 ? [] : csv.rows.map((r) => r[i]);
};

/** Row r of the table is line r + 2 of the file (the header is line 1). */
const at = (row: number, name: string) => `/rows/${row}/${name}`;

interface Inputs {
  csv: Csv;
  job?: Job;
  create?: Record<string, unknown>;
  ctx: CheckContext;
}

interface Rule {
  name: string;
  requirements: string[];
  severity?: Severity;
  summary: string;
  /** Which params it reads: the job retrieval and/or the create request. */
  needs?: Array<'job' | 'create'>;
  /** Checks of the same answer it builds on (blocked when one of them fails). */
  after?: readonly string[];
  /** Parameters its rule reads beyond those. */
  params?: ParamSpecs;
  /** Does not apply to this job (a reason), e.g. classification columns of a job without metrics. */
  appliesNot?(inputs: Inputs): string | undefined;
  run(inputs: Inputs): CheckVerdict;
}

const createOf = (i: Inputs) => i.create ?? {};
const hasValidation = (i: Inputs): boolean =>
  (Array.isArray(i.job?.validation_files) && i.job.validation_files.length > 0) || typeof createOf(i).validation_file === 'string';
const metricsOn = (i: Inputs) => createOf(i).compute_classification_metrics === true;
const positiveClass = (i: Inputs) => createOf(i).classification_positive_class;
const isBinary = (i: Inputs) => metricsOn(i) && typeof positiveClass(i) === 'string';
const isMulticlass = (i: Inputs) => metricsOn(i) && !isBinary(i) && createOf(i).classification_n_classes != null;
const betasOf = (i: Inputs): number[] => (Array.isArray(createOf(i).classification_betas) ? (createOf(i).classification_betas as unknown[]).filter((b): b is number => typeof b === 'number') : []);
const extraColumns = (csv: Csv) => csv.header.filter((c) => !KNOWN.has(c));
/** A classification metric column named for `word` (accuracy, precision, …), not a training_/validation_ column. */
const metricColumn = (csv: Csv, word: string) => extraColumns(csv).find((c) => c.toLowerCase().includes(word));
/** `classification/f{beta}`: the service writes Python floats (f1.0, f0.5); f1 / f2 are accepted too. */
const fbetaNames = (b: number) => [...new Set([`classification/f${String(b)}`, `classification/f${Number.isInteger(b) ? b.toFixed(1) : String(b)}`])];
const nEpochsOf = (i: Inputs): number | undefined => {
  const h = i.job?.hyperparams;
  return isRecord(h) && typeof h.n_epochs === 'number' ? h.n_epochs : undefined;
};

function monotone(csv: Csv, name: string, judge: (value: number | undefined, previous: number | undefined, row: number) => string | undefined): Finding[] {
  const cells = column(csv, name);
  if (cells.length === 0 && csv.rows.length > 0) return [finding(`/header`, `there is no ${name} column`, name, csv.header)];
  let previous: number | undefined;
  for (let r = 0; r < cells.length; r++) {
    const value = num(cells[r]);
    const why = judge(value, previous, r);
    if (why) return [finding(at(r, name), `row ${r + 1} (line ${r + 2}): ${why}`, undefined, cells[r] ?? 'missing')];
    previous = value;
  }
  return [];
}

const isNonNegInt = (v: number | undefined): v is number => v !== undefined && Number.isInteger(v) && v >= 0;

const RULES: Rule[] = [
  {
    name: 'results_csv_parses', requirements: ['RESULTS-CSV-VIA-CONTENT'],
    summary: 'the result file\'s content is a CSV table: a header row, then one row per step, every row as wide as the header',
    run: ({ csv }) => {
      const out: Finding[] = [];
      if (csv.header.some((h) => h.trim() === '')) out.push(finding('/header', 'a column has no name', 'named columns', csv.header));
      if (new Set(csv.header).size !== csv.header.length) out.push(finding('/header', 'a column name occurs twice', 'unique names', csv.header));
      if (csv.rows.length === 0) out.push(finding('/rows', 'the table has no rows (one row per training step)', 'at least one row', 0));
      const bad = csv.rows.findIndex((r) => r.length !== csv.header.length);
      if (bad >= 0) out.push(finding(`/rows/${bad}`, `row ${bad + 1} has ${csv.rows[bad]!.length} cells for ${csv.header.length} columns`, csv.header.length, csv.rows[bad]!.length));
      return out;
    },
  },
  {
    name: 'results_csv_base_columns', requirements: ['RESULTS-CSV-BASE-COLUMNS'],
    summary: 'the header has step, elapsed_tokens, elapsed_examples, training_loss, training_sequence_accuracy, training_token_accuracy',
    run: ({ csv }) => {
      const missing = BASE_COLUMNS.filter((c) => !csv.header.includes(c));
      return missing.length ? [finding('/header', `the header lacks ${missing.join(', ')}`, [...BASE_COLUMNS], csv.header)] : [];
    },
  },
  {
    name: 'results_csv_step', requirements: ['RESULTS-CSV-STEP'],
    summary: 'step is an integer that increases by 1 from row to row',
    run: ({ csv }) => monotone(csv, 'step', (v, prev) => (!isNonNegInt(v) ? 'step is not an integer' : prev !== undefined && v !== prev + 1 ? `step ${v} does not follow step ${prev}` : undefined)),
  },
  {
    name: 'results_csv_elapsed_tokens', requirements: ['RESULTS-CSV-ELAPSED-TOKENS'],
    summary: 'elapsed_tokens is a non-negative integer that increases on every row',
    run: ({ csv }) => monotone(csv, 'elapsed_tokens', (v, prev) => (!isNonNegInt(v) ? 'elapsed_tokens is not a non-negative integer' : prev !== undefined && v <= prev ? `elapsed_tokens ${v} does not increase (previous row: ${prev})` : undefined)),
  },
  {
    name: 'results_csv_elapsed_examples', requirements: ['RESULTS-CSV-ELAPSED-EXAMPLES'], needs: ['job'],
    summary: 'elapsed_examples grows by the job\'s batch_size on every row (row k = k × batch_size)',
    run: ({ csv, job }) => {
      const h = job?.hyperparams;
      const declared = isRecord(h) && typeof h.batch_size === 'number' ? h.batch_size : undefined;
      const first = num(column(csv, 'elapsed_examples')[0]);
      const batch = declared ?? first;
      const source = declared !== undefined ? `hyperparams.batch_size ${declared}` : `the first row (${String(first)}; hyperparams.batch_size is null)`;
      if (batch === undefined || !Number.isInteger(batch) || batch < 1) return monotone(csv, 'elapsed_examples', (v) => (isNonNegInt(v) ? undefined : 'elapsed_examples is not an integer'));
      return monotone(csv, 'elapsed_examples', (v, _prev, r) => (v === (r + 1) * batch ? undefined : `elapsed_examples is ${String(v)}, expected ${(r + 1) * batch} (${r + 1} × batch size from ${source})`));
    },
  },
  {
    // "null means about 0.2% … capped at 256": a job that leaves hyperparams.batch_size null still used a batch
    // size, and its results file shows it as the elapsed_examples step. A set value is ft_default_batch_size_capped's.
    name: 'results_csv_default_batch_capped', requirements: ['FT-BATCH-SIZE-DEFAULT-CAP'], needs: ['job'],
    summary: 'when hyperparams.batch_size stays null, the batch size the results file shows (the elapsed_examples step) is 1 to 256',
    appliesNot: (i) => {
      const h = i.job?.hyperparams;
      if (createOf(i).batch_size !== undefined && createOf(i).batch_size !== null) return 'the create request gave batch_size';
      return isRecord(h) && h.batch_size === null ? undefined : 'hyperparams.batch_size is set (ft_default_batch_size_capped judges it)';
    },
    run: ({ csv }) => {
      const first = num(column(csv, 'elapsed_examples')[0]);
      if (first === undefined || !Number.isInteger(first)) return notExercised('the first row has no integer elapsed_examples (results_csv_elapsed_examples reports that)');
      return first >= 1 && first <= 256 ? [] : [finding(at(0, 'elapsed_examples'), `the first step took ${first} examples: the default batch size is capped at 256`, '1..256', first)];
    },
  },
  {
    name: 'results_csv_training_loss', requirements: ['RESULTS-CSV-TRAINING-LOSS'],
    summary: 'training_loss is a non-negative number on every row',
    run: ({ csv }) => monotone(csv, 'training_loss', (v) => (v !== undefined && v >= 0 ? undefined : 'training_loss is not a non-negative number')),
  },
  {
    name: 'results_csv_accuracy_range', requirements: ['RESULTS-CSV-ACCURACY-RANGE'],
    summary: 'sequence and token accuracies (training, and validation where filled) are numbers in 0..1',
    run: ({ csv }) => {
      const out: Finding[] = [];
      for (const name of ['training_sequence_accuracy', 'training_token_accuracy', 'validation_sequence_accuracy', 'validation_token_accuracy']) {
        const optional = name.startsWith('validation_');
        if (!csv.header.includes(name)) continue; // presence is the columns checks' business
        out.push(...monotone(csv, name, (v, _p, r) => {
          const cell = column(csv, name)[r];
          if (optional && (cell === undefined || cell.trim() === '')) return undefined;
          return v !== undefined && v >= 0 && v <= 1 ? undefined : `${name} is not a number in 0..1`;
        }));
      }
      return out;
    },
  },
  {
    name: 'results_csv_validation_columns', requirements: ['RESULTS-CSV-VALIDATION-COLUMNS', 'FT-VALIDATION-FILE'], needs: ['job'],
    summary: 'with a validation file, the header has validation_loss, validation_sequence_accuracy, validation_token_accuracy',
    appliesNot: (i) => (hasValidation(i) ? undefined : 'the job has no validation file'),
    run: ({ csv }) => VALIDATION_COLUMNS.filter((name) => !csv.header.includes(name)).map((name) => finding('/header', `the header lacks ${name}`, name, csv.header)),
  },
  {
    // How often validation runs is not given ("periodic"): a server whose period is longer than the job fills none.
    // That every column is filled on some row of a job of 10 steps or more is a plausible period, not the spec's.
    name: 'results_csv_validation_filled', requirements: ['RESULTS-CSV-VALIDATION-FILLED'], severity: 'should', needs: ['job'], after: ['results_csv_validation_columns'],
    summary: 'with a validation file, each validation column is filled on some row (a job of 10 steps or more)',
    appliesNot: (i) => (hasValidation(i) ? undefined : 'the job has no validation file'),
    run: ({ csv }) => {
      const out: Finding[] = [];
      let emptyInShortJob = false;
      for (const name of VALIDATION_COLUMNS) {
        if (!csv.header.includes(name) || column(csv, name).some((c) => num(c) !== undefined)) continue;
        // "periodic validation metrics": a job shorter than a plausible period (a server evaluating every 10 steps)
        // may end before the first, so empty columns say nothing there.
        if (csv.rows.length < MIN_STEPS_FOR_A_PERIOD) emptyInShortJob = true;
        else out.push(finding(`/rows/*/${name}`, `${name} is empty on every row`, 'a value on at least one row', 'empty'));
      }
      if (out.length === 0 && emptyInShortJob) return notExercised(`the validation columns are present but empty in a job of ${csv.rows.length} steps, shorter than a plausible period`);
      return out;
    },
  },
  {
    name: 'results_csv_no_validation_columns', requirements: ['RESULTS-CSV-NO-VALIDATION'], needs: ['job'],
    summary: 'without a validation file, the header has no validation_* column',
    appliesNot: (i) => (hasValidation(i) ? 'the job has a validation file' : undefined),
    run: ({ csv }) => {
      const extra = csv.header.filter((c) => c.startsWith('validation_'));
      return extra.length ? [finding('/header', `validation columns are "present only when a validation file was given": ${extra.join(', ')}`, 'no validation_* columns', csv.header)] : [];
    },
  },
  {
    name: 'results_csv_covers_n_epochs', requirements: ['FT-N-EPOCHS-ECHO'], needs: ['job'],
    summary: 'the last elapsed_examples covers n_epochs passes over the training examples (with: examples)',
    params: EXAMPLES,
    run: ({ csv, job, ctx }) => {
      const examples = Number(ctx.params.examples);
      if (!Number.isInteger(examples) || examples < 1) throw new Error('needs `with: { examples: <number of training examples> }`');
      const h = job?.hyperparams;
      const epochs = isRecord(h) && typeof h.n_epochs === 'number' ? h.n_epochs : undefined;
      const batch = isRecord(h) && typeof h.batch_size === 'number' ? h.batch_size : num(column(csv, 'elapsed_examples')[0]) ?? 1;
      const last = num(column(csv, 'elapsed_examples').at(-1));
      if (epochs === undefined) return [finding('/hyperparams/n_epochs', 'the job does not say n_epochs', 'an integer', h)];
      const low = epochs * examples;
      const high = epochs * (examples + batch - 1);
      return last !== undefined && last >= low && last <= high ? [] : [finding(at(csv.rows.length - 1, 'elapsed_examples'), `${epochs} passes over ${examples} examples in batches of ${batch} end at ${low}..${high} examples`, `${low}..${high}`, last ?? 'missing')];
    },
  },
  {
    name: 'results_csv_no_classification_columns', requirements: ['FT-CCM-DEFAULT'], needs: ['create'],
    summary: 'without compute_classification_metrics, the header has no classification/* column',
    appliesNot: (i) => (metricsOn(i) ? 'the job computes classification metrics' : undefined),
    run: ({ csv }) => {
      const extra = csv.header.filter((c) => c.startsWith('classification/'));
      return extra.length ? [finding('/header', `compute_classification_metrics defaults to false, yet the file has ${extra.join(', ')}`, 'no classification/* columns', csv.header)] : [];
    },
  },
  {
    name: 'results_csv_multiclass_columns', requirements: ['RESULTS-CSV-CLASS-MULTICLASS', 'FT-N-CLASSES'], needs: ['create'],
    summary: 'a multiclass job with metrics adds accuracy and weighted F1 columns',
    appliesNot: (i) => (isMulticlass(i) ? undefined : 'not a multiclass job with classification metrics'),
    run: ({ csv }) => {
      const out: Finding[] = [];
      if (!metricColumn(csv, 'accuracy')) out.push(finding('/header', 'no accuracy column was added (e.g. classification/accuracy)', 'a column for accuracy', csv.header));
      if (!metricColumn(csv, 'f1')) out.push(finding('/header', 'no weighted F1 column was added (e.g. classification/weighted_f1_score)', 'a column for weighted F1', csv.header));
      return out;
    },
  },
  {
    name: 'results_csv_binary_columns', requirements: ['RESULTS-CSV-CLASS-BINARY', 'FT-POSITIVE-CLASS'], needs: ['create'],
    summary: 'a binary job with metrics adds accuracy, precision, recall, classification/auroc and classification/auprc columns',
    appliesNot: (i) => (isBinary(i) ? undefined : 'not a binary job with classification metrics'),
    run: ({ csv }) => {
      const out: Finding[] = [];
      for (const word of ['accuracy', 'precision', 'recall']) if (!metricColumn(csv, word)) out.push(finding('/header', `no ${word} column was added`, `a column for ${word}`, csv.header));
      for (const exact of ['classification/auroc', 'classification/auprc']) if (!csv.header.includes(exact)) out.push(finding('/header', `the header lacks ${exact}`, exact, csv.header));
      return out;
    },
  },
  {
    name: 'results_csv_fbeta_columns', requirements: ['FT-CLASSIFICATION-BETAS'], needs: ['create'],
    summary: 'with classification_betas on a binary job, there is one classification/f{beta} column per beta',
    appliesNot: (i) => (isBinary(i) && betasOf(i).length > 0 ? undefined : 'not a binary job with classification_betas'),
    run: (i) => betasOf(i)
      .filter((b) => !fbetaNames(b).some((n) => i.csv.header.includes(n)))
      .map((b) => finding('/header', `no F-beta column for beta ${b}`, fbetaNames(b).join(' or '), i.csv.header)),
  },
  {
    name: 'results_csv_betas_binary_only', requirements: ['FT-CLASSIFICATION-BETAS-BINARY-ONLY'], severity: 'should', needs: ['create'],
    summary: 'betas given to a multiclass job yield no F-beta columns ("binary classification only")',
    appliesNot: (i) => (metricsOn(i) && !isBinary(i) && betasOf(i).length > 0 ? undefined : 'not a multiclass job given classification_betas'),
    run: ({ csv }) => {
      const f = csv.header.filter((c) => /^classification\/f\d/.test(c));
      return f.length ? [finding('/header', `F-beta scores are for binary classification only, yet the multiclass job has ${f.join(', ')}`, 'no classification/f{beta} columns', csv.header)] : [];
    },
  },
  {
    name: 'results_csv_classification_per_epoch', requirements: ['FT-CCM-PER-EPOCH'], needs: ['job', 'create'],
    summary: 'classification metrics are filled on n_epochs rows, one per epoch end',
    appliesNot: (i) => (metricsOn(i) ? undefined : 'the job computes no classification metrics'),
    run: (i) => {
      // The classification metrics themselves: an extra column filled on every row (epoch, learning_rate) is no metric.
      const classification = extraColumns(i.csv).filter((c) => c.startsWith('classification/'));
      const cols = classification.length > 0 ? classification : extraColumns(i.csv);
      const epochs = nEpochsOf(i);
      if (epochs === undefined) return [finding('/hyperparams/n_epochs', 'the job does not say n_epochs', 'an integer', i.job?.hyperparams)];
      if (cols.length === 0) return [finding('/header', 'there are no classification columns', 'classification metric columns', i.csv.header)];
      const filled = i.csv.rows.filter((r) => cols.some((c) => num(r[i.csv.header.indexOf(c)]) !== undefined)).length;
      return filled === epochs ? [] : [finding('/rows', `classification metrics are filled on ${filled} rows, but "metrics at the end of each epoch" gives ${epochs}`, epochs, filled)];
    },
  },
];

const NEEDED = {
  job: caseParam('the case that retrieved the succeeded job'),
  create: caseParam('the case that created the job'),
} as const;

function resultsCheck(rule: Rule): ResponseCheck {
  const inputs = (exchange: Exchange, ctx: CheckContext): Inputs | string => {
    const csv = csvOf(exchange);
    if (typeof csv === 'string') return csv;
    const out: Inputs = { csv, ctx };
    for (const need of rule.needs ?? []) {
      const { caseId, exchange: ex } = historyParam(ctx, need);
      if (!ex) return `case "${caseId}" did not run`;
      if (need === 'job') {
        const job = jobIn(ex);
        if (!job) return `case "${caseId}" returned no job`;
        out.job = job;
      } else {
        const create = sentJson(ex);
        if (!create) return `case "${caseId}" sent no JSON body`;
        out.create = create;
      }
    }
    return out;
  };
  return {
    kind: 'response',
    name: rule.name,
    requirements: rule.requirements,
    severity: rule.severity ?? 'must',
    summary: rule.summary,
    ...(rule.after ? { after: rule.after } : {}),
    params: { ...Object.fromEntries((rule.needs ?? []).map((need) => [need, NEEDED[need]])), ...rule.params },
    skipWhen: (exchange, ctx) => {
      const why = unlessOk(exchange);
      if (why) return why;
      const i = inputs(exchange, ctx);
      if (typeof i === 'string') {
        if (i.startsWith('case')) return i;
        return rule.name === 'results_csv_parses' ? undefined : `the content is not a CSV table (${i}); results_csv_parses reports that`;
      }
      return rule.appliesNot?.(i);
    },
    run: (exchange, ctx) => {
      const i = inputs(exchange, ctx);
      if (typeof i === 'string') return [finding('', `the result file is not a CSV table: ${i}`, 'a header row and one row per step', csvText(exchange)?.slice(0, 120) ?? 'no body')];
      return rule.run(i);
    },
  };
}

export const RESULTS_CHECKS: readonly ResponseCheck[] = RULES.map(resultsCheck);
