// Fine-tunes: hyperparams as the create body's table states them (defaults and echoes).
// Spec: Create fine-tune body — n_epochs default 4; batch_size default null ("about 0.2% of the
// number of training examples, capped at 256"); learning_rate_multiplier default null ("0.05, 0.1 or
// 0.2 depending on the final batch_size"); prompt_loss_weight default 0.01.

import type { Exchange } from '../../transport/types.ts';
import { notExercised, type CheckContext, type ParamSpecs, type ResponseCheck, type Severity } from '../types.ts';
import { CREATE_CASE, EXAMPLES } from '../params.ts';
import { isRecord } from '../../util/json-type.ts';
import { bodyOf, finding, unlessOkJson } from '../files/support.ts';
import { createRequestOf, unlessCreateKnown } from './jobs.ts';

type Param = 'n_epochs' | 'batch_size' | 'learning_rate_multiplier' | 'prompt_loss_weight';

interface Rule {
  name: string;
  param: Param;
  requirements: string[];
  severity?: Severity;
  /** Which requests the rule is about. */
  when: 'given' | 'omitted' | 'both';
  summary: string;
  /** Parameters the judge reads beyond `create`. */
  params?: ParamSpecs;
  /**
   * A default the job reports as null is not shown: its bound cannot be judged (a pass there would be a pass that
   * exercised nothing, and a server that never resolves its defaults would pass every run).
   */
  nullIsUnjudged?: true;
  /** Judge the value reported in hyperparams; `given` is the requested value (undefined when omitted). */
  judge(value: unknown, given: unknown, ctx: CheckContext): string | undefined;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

const RULES: Rule[] = [
  {
    name: 'ft_hyperparam_n_epochs_default', param: 'n_epochs', requirements: ['FT-N-EPOCHS-DEFAULT'], when: 'omitted',
    summary: 'without n_epochs, hyperparams.n_epochs is 4',
    judge: (v) => (v === 4 ? undefined : 'the default n_epochs is 4'),
  },
  {
    name: 'ft_hyperparam_n_epochs_echo', param: 'n_epochs', requirements: ['FT-N-EPOCHS-ECHO'], when: 'given',
    summary: 'with n_epochs k, hyperparams.n_epochs is k',
    judge: (v, given) => (v === given ? undefined : 'hyperparams.n_epochs is not the requested n_epochs'),
  },
  {
    name: 'ft_hyperparam_prompt_loss_weight', param: 'prompt_loss_weight', requirements: ['FT-PLW-DEFAULT'], when: 'both',
    summary: 'hyperparams.prompt_loss_weight is the requested value, 0.01 when omitted',
    judge: (v, given) => (v === (given ?? 0.01) ? undefined : given === undefined ? 'the default prompt_loss_weight is 0.01' : 'hyperparams.prompt_loss_weight is not the requested value'),
  },
  {
    name: 'ft_hyperparam_batch_size', param: 'batch_size', requirements: ['FT-BATCH-SIZE-ECHO'], when: 'both',
    summary: 'hyperparams.batch_size is the requested value; null or an integer when omitted',
    judge: (v, given) => (given !== undefined ? (v === given ? undefined : 'hyperparams.batch_size is not the requested batch_size') : v === null || isInt(v) ? undefined : 'without batch_size the value is null ("null means about 0.2%…") or the integer chosen'),
  },
  {
    name: 'ft_hyperparam_learning_rate_multiplier', param: 'learning_rate_multiplier', requirements: ['FT-LRM-ECHO'], when: 'both',
    summary: 'hyperparams.learning_rate_multiplier is the requested value; null or a number when omitted',
    judge: (v, given) => (given !== undefined ? (v === given ? undefined : 'hyperparams.learning_rate_multiplier is not the requested value') : v === null || typeof v === 'number' ? undefined : 'without learning_rate_multiplier the value is null or the number chosen'),
  },
  {
    name: 'ft_default_batch_size_capped', param: 'batch_size', requirements: ['FT-BATCH-SIZE-DEFAULT-CAP'], when: 'omitted', nullIsUnjudged: true,
    summary: 'without batch_size, the batch size chosen (once set) is an integer from 1 to 256',
    judge: (v) => (v === null ? undefined : isInt(v) && v >= 1 && v <= 256 ? undefined : 'the default batch size is capped at 256 (and is a positive integer)'),
  },
  {
    name: 'ft_default_learning_rate_multiplier', param: 'learning_rate_multiplier', requirements: ['FT-LRM-DEFAULT'], when: 'omitted', nullIsUnjudged: true,
    summary: 'without learning_rate_multiplier, the value chosen (once set) is 0.05, 0.1 or 0.2',
    judge: (v) => (v === null || v === 0.05 || v === 0.1 || v === 0.2 ? undefined : '"null means 0.05, 0.1 or 0.2 depending on the final batch_size"'),
  },
  {
    name: 'ft_default_batch_size_approx', param: 'batch_size', requirements: ['FT-BATCH-SIZE-DEFAULT-APPROX'], severity: 'should', when: 'omitted', nullIsUnjudged: true,
    summary: 'without batch_size, the batch size chosen is about 0.2% of the training examples (with: examples)',
    params: EXAMPLES,
    judge: (v, _given, ctx) => {
      if (v === null) return undefined;
      const n = Number(ctx.params.examples);
      if (!Number.isInteger(n) || n < 1) throw new Error('needs `with: { examples: <number of training examples> }`');
      const target = Math.max(1, Math.round(n * 0.002));
      const high = Math.max(2, Math.ceil(target * 2));
      return isInt(v) && v >= 1 && v <= Math.min(256, high) ? undefined : `about 0.2% of ${n} examples is ${target} (tolerated 1..${Math.min(256, high)})`;
    },
  },
];

function hyperparamCheck(rule: Rule): ResponseCheck {
  const skip = (exchange: Exchange, ctx: CheckContext): string | undefined => {
    const why = unlessOkJson(exchange) ?? unlessCreateKnown(ctx);
    if (why) return why;
    const given = createRequestOf(ctx)![rule.param];
    const isGiven = given !== undefined && given !== null;
    if (rule.when === 'given' && !isGiven) return `the create request did not set ${rule.param}`;
    if (rule.when === 'omitted' && isGiven) return `the create request set ${rule.param}`;
    return undefined;
  };
  return {
    kind: 'response',
    name: rule.name,
    requirements: rule.requirements,
    severity: rule.severity ?? 'must',
    summary: `${rule.summary} (with: create, when not the create response)`,
    params: { ...CREATE_CASE, ...rule.params },
    skipWhen: skip,
    run: (exchange, ctx) => {
      const given = createRequestOf(ctx)![rule.param];
      const hyperparams = bodyOf(exchange)!.hyperparams;
      if (!isRecord(hyperparams)) return [finding('/hyperparams', 'the job has no hyperparams object', 'an object', hyperparams ?? 'absent')];
      if (!(rule.param in hyperparams)) return [finding(`/hyperparams/${rule.param}`, `hyperparams has no ${rule.param}`, 'present', 'absent')];
      const value = hyperparams[rule.param];
      if (value === null && rule.nullIsUnjudged) return notExercised(`hyperparams.${rule.param} is null: the value the job used is not shown`);
      const why = rule.judge(value, given ?? undefined, ctx);
      return why ? [finding(`/hyperparams/${rule.param}`, why, given ?? undefined, value)] : [];
    },
  };
}

export const HYPERPARAM_CHECKS: readonly ResponseCheck[] = RULES.map(hyperparamCheck);
