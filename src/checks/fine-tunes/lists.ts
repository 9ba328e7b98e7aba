// Fine-tunes: lists of jobs (organization scope, events omitted), result files, and the resulting
// model's presence in GET /v1/models before and after deletion.

import { notExercised, type ResponseCheck } from '../types.ts';
import { LISTED_ID, ORGANIZATION } from '../params.ts';
import { isRecord } from '../../util/json-type.ts';
import { idMatchesPath, listMembership } from '../files/list-membership.ts';
import { bodyOf, finding, stringParam, unlessOkJson } from '../files/support.ts';
import { isSuccess } from '../../util/status.ts';

/** "events ... omitted in list items". */
export const ftListItemsWithoutEvents: ResponseCheck = {
  kind: 'response',
  name: 'ft_list_items_without_events',
  over: '/data/*',
  requirements: ['RES-FT-EVENTS-OMITTED-IN-LIST'],
  severity: 'must',
  summary: 'items of GET /v1/fine-tunes carry no events field',
  skipWhen: unlessOkJson,
  run: (exchange) => {
    const data = bodyOf(exchange)!.data;
    if (!Array.isArray(data)) return [finding('/data', 'the list has no data array', 'an array', data ?? 'absent')];
    const at = data.findIndex((j) => isRecord(j) && 'events' in j);
    return at < 0 ? [] : [finding(`/data/${at}/events`, 'events are omitted in list items', 'absent', 'present')];
  },
};

/** "list of Fine-tune job of the organization": every item belongs to the chosen organization (with: organization). */
export const ftListItemsInOrg: ResponseCheck = {
  kind: 'response',
  name: 'ft_list_items_in_org',
  params: ORGANIZATION,
  over: '/data/*',
  requirements: ['FT-LIST-ORG-SCOPED'],
  severity: 'must',
  summary: 'every listed job has the organization_id of the chosen organization (with: organization)',
  skipWhen: (exchange, ctx) => unlessOkJson(exchange) ?? (typeof ctx.params.organization === 'string' && ctx.params.organization !== '' ? undefined : 'no organization id is configured to compare with'),
  run: (exchange, ctx) => {
    const data = bodyOf(exchange)!.data;
    if (!Array.isArray(data)) return [finding('/data', 'the list has no data array', 'an array', data ?? 'absent')];
    const at = data.findIndex((j) => isRecord(j) && j.organization_id !== ctx.params.organization);
    return at < 0 ? [] : [finding(`/data/${at}/organization_id`, 'a job of another organization is listed', ctx.params.organization, (data[at] as Record<string, unknown>).organization_id)];
  },
};

/** "result_files is filled" once the job succeeded. */
export const ftResultFilesFilled: ResponseCheck = {
  kind: 'response',
  name: 'ft_result_files_filled',
  requirements: ['FT-STATE-SUCCEEDED-RESULT-FILES'],
  severity: 'must',
  summary: 'a succeeded job has at least one File in result_files',
  skipWhen: (exchange) => unlessOkJson(exchange) ?? (bodyOf(exchange)!.status === 'succeeded' ? undefined : 'the job has not succeeded'),
  run: (exchange) => {
    const files = bodyOf(exchange)!.result_files;
    return Array.isArray(files) && files.some((f) => isRecord(f) && typeof f.id === 'string') ? [] : [finding('/result_files', 'a succeeded job has its result files', 'at least one File', files ?? 'absent')];
  },
};

/** The purpose value `fine-tune-results` occurs in the spec; that result files carry it is the service's convention. */
export const ftResultFilePurpose: ResponseCheck = {
  kind: 'response',
  name: 'ft_result_file_purpose',
  over: '/result_files/*',
  requirements: ['FT-RESULT-FILE-PURPOSE'],
  severity: 'should',
  summary: 'result files have purpose fine-tune-results',
  skipWhen: (exchange) => unlessOkJson(exchange) ?? (Array.isArray(bodyOf(exchange)!.result_files) && (bodyOf(exchange)!.result_files as unknown[]).length > 0 ? undefined : 'the job has no result files'),
  run: (exchange) =>
    (bodyOf(exchange)!.result_files as unknown[]).flatMap((f, i) => (isRecord(f) && f.purpose !== 'fine-tune-results' ? [finding(`/result_files/${i}/purpose`, 'a result file has another purpose', 'fine-tune-results', f.purpose)] : [])),
};

/** Betas are for "binary classification only": given to a multiclass job they are refused, or ignored (see results_csv_betas_binary_only). */
export const ftBetasBinaryOnlyAtCreate: ResponseCheck = {
  kind: 'response',
  name: 'ft_betas_binary_only_at_create',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['FT-CLASSIFICATION-BETAS-BINARY-ONLY'],
  severity: 'should',
  summary: 'classification_betas on a multiclass job are refused (4xx) or accepted and ignored',
  skipWhen: (exchange) => {
    const status = exchange.response?.status;
    return isSuccess(status) ? 'accepted: results_csv_betas_binary_only checks that no F-beta columns appear' : undefined;
  },
  run: (exchange) => {
    const status = exchange.response?.status;
    return status !== undefined && status >= 400 && status < 500 ? [] : [finding('', 'the request was neither accepted nor refused with 4xx', '2xx or 4xx', status ?? 'no response')];
  },
};


/**
 * "Prompt plus completion must not exceed 2048 tokens": the spec does not say where the limit is
 * enforced, so refusing the file at upload satisfies it; a file accepted at upload must then be
 * refused by create (the next case).
 */
export const ftLongExampleRefusedAtUpload: ResponseCheck = {
  kind: 'response',
  name: 'ft_long_example_refused_at_upload_or_create',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['FTDATA-EXAMPLE-MAX-2048'],
  // A convention: the spec does not say where the limit is enforced, and a job that fails later conforms too.
  severity: 'should',
  summary: 'a training example over 2048 tokens is refused (4xx) at upload, or else at create',
  skipWhen: (exchange) => {
    const status = exchange.response?.status;
    if (isSuccess(status)) {
      return (exchange.request.method === 'POST' && exchange.request.url.endsWith('/v1/files'))
        ? 'accepted at upload: the create request that names the file must refuse it'
        : undefined;
    }
    return undefined;
  },
  run: (exchange) => {
    const status = exchange.response?.status;
    return status !== undefined && status >= 400 && status < 500 ? [] : [finding('', 'an example longer than 2048 tokens was not refused', '4xx', status ?? 'no response')];
  },
};

/**
 * owned_by is the "owner organization": a fine-tuned model belongs to the organization that trained it, not to
 * whoever owns its base model (the real service: "datadog-4" or "user-…" beside "openai" for the base).
 * The base is the name's first part (`<base_model>:ft-<organization>:…`).
 */
export const ftModelOwnedByCustomer: ResponseCheck = {
  kind: 'response',
  name: 'ft_model_owned_by_customer',
  requirements: ['FT-MODEL-OWNER'],
  // Which string names the organization is the server's (the real service writes a user id on personal
  // accounts, not the job's organization_id): only "not the base model's owner" is judged, and as a should.
  severity: 'should',
  summary: "the fine-tuned model's owned_by is not its base model's owner (with: id)",
  params: LISTED_ID,
  skipWhen: unlessOkJson,
  run: (exchange, ctx) => {
    const id = stringParam(ctx, 'id');
    const data = bodyOf(exchange)!.data;
    if (!Array.isArray(data)) return notExercised('the list has no data array');
    const byId = (want: string) => data.findIndex((m) => isRecord(m) && m.id === want);
    const base = /^([^:]+):ft-/.exec(id)?.[1];
    const at = byId(id);
    if (base === undefined || at < 0) return notExercised(base === undefined ? `${id} does not name its base model (<base_model>:ft-…)` : `${id} is not listed`);
    const baseAt = byId(base);
    if (baseAt < 0) return notExercised(`its base model ${base} is not listed`);
    const owner = (data[at] as Record<string, unknown>).owned_by;
    const baseOwner = (data[baseAt] as Record<string, unknown>).owned_by;
    return typeof owner === 'string' && owner === baseOwner
      ? [finding(`/data/${at}/owned_by`, `${id} is owned by ${owner}, the owner of its base model ${base}; it belongs to the organization that trained it`, 'the owner organization of the job', owner)]
      : [];
  },
};

export const LIST_CHECKS: readonly ResponseCheck[] = [
  ftModelOwnedByCustomer,
  ftListItemsWithoutEvents,
  ftListItemsInOrg,
  ftResultFilesFilled,
  ftResultFilePurpose,
  ftBetasBinaryOnlyAtCreate,
  idMatchesPath('ft_job_id_matches_path', ['FT-RETRIEVE'], 'the retrieved job is the one requested'),
  listMembership({ name: 'ft_list_includes_job', requirements: ['FT-LIST'], listed: true, what: 'the job just created', summary: 'GET /v1/fine-tunes lists a job just created (with: id)' }),
  listMembership({ name: 'ft_list_includes_own_org_job', requirements: ['FT-LIST-ORG-SCOPED', 'AUTH-ORG-HEADER'], listed: true, what: "the organization's own job", summary: 'a job created under an organization is listed for it (with: id)' }),
  listMembership({ name: 'ft_list_excludes_other_org_job', requirements: ['FT-LIST-ORG-SCOPED', 'AUTH-ORG-HEADER'], listed: false, what: "another organization's job", summary: "another organization's job is not listed (with: id)" }),
  idMatchesPath('ft_model_retrieved_by_name', ['FT-RESULT-MODEL-LISTED'], 'GET /v1/models/{fine_tuned_model} returns that model'),
  listMembership({ name: 'ft_model_listed', requirements: ['FT-RESULT-MODEL-LISTED'], listed: true, what: 'the fine-tuned model', summary: 'GET /v1/models lists the fine-tuned model (with: id)' }),
  idMatchesPath('ft_model_deleted_id_matches', ['MODEL-DELETE', 'FT-RESULT-MODEL-DELETABLE'], 'the deleted-model result names the model that was deleted'),
  ftLongExampleRefusedAtUpload,
  listMembership({ name: 'ft_model_not_listed_after_delete', requirements: ['MODEL-DELETE-GONE'], listed: false, what: 'the deleted model', summary: 'a deleted model is no longer listed (with: id)' }),
];
