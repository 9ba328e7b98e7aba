// compiled_results.csv of a fine-tune job: one row per step with deterministic, plausible metrics.
import { hashParts, seededRandom } from './random.ts';
import { countTokens } from './tokenizer.ts';
import type { TrainingExample } from './entities.ts';

export const TRAINING_COLUMNS = ['step', 'elapsed_tokens', 'elapsed_examples', 'training_loss', 'training_sequence_accuracy', 'training_token_accuracy'] as const;
export const VALIDATION_COLUMNS = ['validation_loss', 'validation_sequence_accuracy', 'validation_token_accuracy'] as const;
export const MULTICLASS_COLUMNS = ['classification/accuracy', 'classification/weighted_f1_score'] as const;
/** Validation metrics are computed every this many steps (and on the last step); other rows leave them empty. */
export const VALIDATION_EVERY_STEPS = 8;

export interface ResultsPlan {
  examples: readonly TrainingExample[];
  batchSize: number;
  nEpochs: number;
  withValidation: boolean;
  classification: { kind: 'multiclass' } | { kind: 'binary'; betas: readonly number[] } | null;
  omitElapsedExamples: boolean;
  seed: number;
}

/** Python float repr of a beta, as in the real column name `classification/f1.0`. */
function betaName(beta: number): string {
  return `classification/f${Number.isInteger(beta) ? beta.toFixed(1) : String(beta)}`;
}

export function binaryColumns(betas: readonly number[]): string[] {
  const fColumns = [...new Set([1, ...betas].map(betaName))];
  return ['classification/accuracy', 'classification/precision', 'classification/recall', ...fColumns, 'classification/auroc', 'classification/auprc'];
}

export function resultColumns(plan: Pick<ResultsPlan, 'withValidation' | 'classification' | 'omitElapsedExamples'>): string[] {
  const training = TRAINING_COLUMNS.filter((c) => !(plan.omitElapsedExamples && c === 'elapsed_examples'));
  const validation = plan.withValidation ? VALIDATION_COLUMNS : [];
  const classification =
    plan.classification === null ? [] : plan.classification.kind === 'multiclass' ? MULTICLASS_COLUMNS : binaryColumns(plan.classification.betas);
  return [...training, ...validation, ...classification];
}

export function stepCount(examples: number, batchSize: number, nEpochs: number): number {
  return Math.ceil(examples / batchSize) * nEpochs;
}

export function buildResultsCsv(plan: ResultsPlan): string {
  const columns = resultColumns(plan);
  const rng = seededRandom(hashParts(plan.seed, 'results', plan.examples.length, plan.batchSize));
  const exampleTokens = plan.examples.map((e) => countTokens(e.prompt) + countTokens(e.completion));
  const stepsPerEpoch = Math.ceil(plan.examples.length / plan.batchSize);
  const steps = stepsPerEpoch * plan.nEpochs;
  const fmt = (x: number) => String(Math.round(x * 1e6) / 1e6);
  const lines = [columns.join(',')];
  let elapsedTokens = 0;
  let elapsedExamples = 0;
  for (let step = 1; step <= steps; step++) {
    const progress = step / steps;
    // The batch takes the next batch_size examples, cycling over the file.
    for (let k = 0; k < plan.batchSize; k++) elapsedTokens += exampleTokens[(elapsedExamples + k) % exampleTokens.length]!;
    elapsedExamples += plan.batchSize;
    const loss = 2 * Math.exp(-3 * progress) + rng() * 0.1;
    const tokenAccuracy = Math.min(1, 0.4 + 0.55 * progress + rng() * 0.05);
    const row: Record<string, string> = {
      step: String(step),
      elapsed_tokens: String(elapsedTokens),
      elapsed_examples: String(elapsedExamples),
      training_loss: fmt(loss),
      training_sequence_accuracy: rng() < progress * 0.8 ? '1.0' : '0.0',
      training_token_accuracy: fmt(tokenAccuracy),
    };
    if (step % VALIDATION_EVERY_STEPS === 1 || step === steps) {
      row.validation_loss = fmt(loss * 1.1);
      row.validation_sequence_accuracy = rng() < progress * 0.7 ? '1.0' : '0.0';
      row.validation_token_accuracy = fmt(Math.max(0, tokenAccuracy - 0.03));
    }
    if (plan.classification && step % stepsPerEpoch === 0) {
      const score = Math.min(1, 0.5 + 0.45 * progress + rng() * 0.04);
      for (const c of columns.filter((col) => col.startsWith('classification/'))) row[c] = fmt(Math.min(1, score - rng() * 0.02));
    }
    lines.push(columns.map((c) => row[c] ?? '').join(','));
  }
  return lines.join('\n') + '\n';
}
