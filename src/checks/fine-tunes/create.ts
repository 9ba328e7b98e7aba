// Fine-tunes: what the create response (and every later view of the job) says about the request.
// Spec: Endpoints / Fine-tunes (Create fine-tune body); States and transitions (create row).

import type { Exchange } from '../../transport/types.ts';
import type { CheckContext, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { bodyOf, finding, unlessOkJson } from '../files/support.ts';
import { createRequestOf, DEFAULT_BASE_MODEL, unlessCreateKnown } from './jobs.ts';
import { CREATE_CASE, ORGANIZATION } from '../params.ts';

const okJobAndCreate = (exchange: Exchange, ctx: CheckContext): string | undefined => unlessOkJson(exchange) ?? unlessCreateKnown(ctx);

/** "Create fine-tune ... Fine-tune job (status pending)"; "(none) | create fine-tune | ... | pending". */
export const ftCreatedPending: ResponseCheck = {
  kind: 'response',
  name: 'ft_created_pending',
  requirements: ['FT-CREATE', 'FT-STATE-CREATE-PENDING'],
  severity: 'must',
  summary: 'the create response is the job with status pending',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const status = bodyOf(exchange)!.status;
    return status === 'pending' ? [] : [finding('/status', 'a job just created is pending', 'pending', status ?? 'absent')];
  },
};

/** States and transitions, create row: "fine_tuned_model is null". */
export const ftCreateModelNull: ResponseCheck = {
  kind: 'response',
  name: 'ft_create_model_null',
  requirements: ['FT-STATE-CREATE-MODEL-NULL'],
  severity: 'must',
  summary: 'the create response has fine_tuned_model null',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const body = bodyOf(exchange)!;
    return body.fine_tuned_model === null ? [] : [finding('/fine_tuned_model', 'a job just created has no fine-tuned model yet', null, body.fine_tuned_model ?? 'absent')];
  },
};

/** States and transitions, create row: "result_files is empty". */
export const ftCreateNoResults: ResponseCheck = {
  kind: 'response',
  name: 'ft_create_no_results',
  requirements: ['FT-STATE-CREATE-NO-RESULTS'],
  severity: 'must',
  summary: 'the create response has result_files empty',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const files = bodyOf(exchange)!.result_files;
    return Array.isArray(files) && files.length === 0 ? [] : [finding('/result_files', 'a job just created has no result files', [], files ?? 'absent')];
  },
};

function filesEcho(name: string, field: 'training_files' | 'validation_files', param: 'training_file' | 'validation_file', requirements: string[]): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements,
    severity: 'must',
    summary: `${field} holds the File given as ${param}${param === 'validation_file' ? ' (empty when none was given)' : ''} (with: create, when not the create response)`,
    params: CREATE_CASE,
    skipWhen: okJobAndCreate,
    run: (exchange, ctx) => {
      const requested = createRequestOf(ctx)![param];
      const files = bodyOf(exchange)![field];
      if (!Array.isArray(files)) return [finding(`/${field}`, `${field} is not an array`, 'an array of File', files ?? 'absent')];
      if (typeof requested !== 'string') {
        return files.length === 0 ? [] : [finding(`/${field}`, `no ${param} was given, yet ${field} is not empty`, [], files)];
      }
      return files.some((f) => isRecord(f) && f.id === requested) ? [] : [finding(`/${field}`, `${field} does not hold the file given as ${param}`, `a File with id ${requested}`, files.map((f) => (isRecord(f) ? f.id : f)))];
    },
  };
}

export const ftTrainingFilesEcho = filesEcho('ft_training_files_echo', 'training_files', 'training_file', ['FT-TRAINING-FILES-ECHO']);
export const ftValidationFilesEcho = filesEcho('ft_validation_files_echo', 'validation_files', 'validation_file', ['FT-VALIDATION-FILE-OPTIONAL', 'FT-VALIDATION-FILE']);

/** Job field model is the "base model": the requested one, `curie` when none was requested. */
export const ftJobModelIsRequested: ResponseCheck = {
  kind: 'response',
  name: 'ft_job_model_is_requested',
  requirements: ['RES-FT-JOB-MODEL-BASE', 'FT-MODEL-DEFAULT', 'FT-MODEL-BASE-ALLOWED'],
  severity: 'must',
  summary: 'the job\'s model is the requested model, or curie when none was given (with: create, when not the create response)',
  params: CREATE_CASE,
  skipWhen: okJobAndCreate,
  run: (exchange, ctx) => {
    const requested = createRequestOf(ctx)!.model;
    const expected = typeof requested === 'string' ? requested : DEFAULT_BASE_MODEL;
    const model = bodyOf(exchange)!.model;
    if (model === expected) return [];
    // "model | base model": a job continued from a fine-tuned model may report that model, or the base at its root.
    if (typeof requested === 'string' && requested.includes(':ft-') && model === requested.split(':')[0]) return [];
    return [finding('/model', typeof requested === 'string' ? 'the job does not run on the requested model' : 'without model the job runs on the default base model curie', expected, model ?? 'absent')];
  },
};

/** Authentication 3: the chosen organization serves the request; the job carries its organization_id. */
export const ftJobInOrg: ResponseCheck = {
  kind: 'response',
  name: 'ft_job_in_org',
  requirements: ['AUTH-ORG-HEADER'],
  severity: 'must',
  summary: 'the job belongs to the chosen organization (with: organization)',
  params: ORGANIZATION,
  skipWhen: (exchange, ctx) => unlessOkJson(exchange) ?? (typeof ctx.params.organization === 'string' && ctx.params.organization !== '' ? undefined : 'no organization id is configured (--organization) to compare with'),
  run: (exchange, ctx) => {
    const org = bodyOf(exchange)!.organization_id;
    return org === ctx.params.organization ? [] : [finding('/organization_id', 'the job does not belong to the organization chosen with Service-Organization', ctx.params.organization, org ?? 'absent')];
  },
};
