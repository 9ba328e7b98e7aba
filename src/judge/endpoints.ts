// What an exchange is held to when no suite case designed its request: a user's own traffic, through the proxy or
// in their tests. Method and path give the resource schema of a success and every registered check that is sound on
// any exchange of that endpoint, whatever the request was (a check reads the request as sent, and steps aside when
// it lacks what the rule needs). A check that is sound only on a request a suite designs says why, in DESIGNED.
// test/judge/endpoints.test.ts holds every registered check to one of the two.

import { SCHEMA_RULES } from '../checks/expectations.ts';
import type { PlannedRequestView } from '../checks/types.ts';
import type { CaseSpec } from '../suite/types.ts';
import { isRecord } from '../util/json-type.ts';
import type { CaseIdentity } from './results.ts';

/** The schema of a success, fixed or chosen by a field of the request (`json:stream`, `form:response_format`, `query:stream`). */
export type SchemaChoice = string | null | { field: string; values: Readonly<Record<string, string | null>>; default: string | null };

export interface EndpointExpectation {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path as the spec writes it, parameters in braces. */
  path: string;
  schema: SchemaChoice;
  checks: readonly string[];
}

/** json and absent: {text}; verbose_json: its own schema; text, srt and vtt: no JSON at all (their checks judge them). */
const AUDIO_SCHEMA: SchemaChoice = {
  field: 'form:response_format',
  values: { json: 'resources/transcription-json.schema.json', verbose_json: 'resources/transcription-verbose-json.schema.json', text: null, srt: null, vtt: null },
  default: 'resources/transcription-json.schema.json',
};

export const ENDPOINT_EXPECTATIONS: readonly EndpointExpectation[] = [
  {
    method: 'GET', path: '/v1/models', schema: 'resources/model-list.schema.json',
    checks: ['error_body_shape', 'model_retrieve_matches_list', 'model_retrieve_same_details', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case'],
  },
  {
    method: 'GET', path: '/v1/models/{model}', schema: 'resources/model.schema.json',
    checks: ['error_body_shape', 'model_id_matches_path', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case'],
  },
  {
    method: 'DELETE', path: '/v1/models/{model}', schema: 'resources/model-deleted.schema.json',
    checks: ['error_body_shape', 'error_code_snake_case', 'ft_model_deleted_id_matches'],
  },
  {
    method: 'POST', path: '/v1/completions', schema: { field: 'json:stream', values: { true: null }, default: 'resources/completion.schema.json' },
    checks: ['sse_content_type', 'sse_data_only', 'sse_nothing_after_done', 'sse_completion_ends_with_done', 'sse_completion_chunks_are_json', 'error_body_shape', 'completion_usage_total_is_sum', 'completion_choices_per_prompt', 'completion_max_tokens_bound', 'completion_logprobs_within_max_tokens', 'completion_logprobs_null_by_default', 'completion_logprobs_present', 'completion_logprobs_aligned', 'completion_logprobs_offsets', 'completion_top_logprobs_count', 'completion_logprobs_computed', 'completion_logprobs_are_probabilities', 'completion_stop_excluded', 'completion_finish_reason_known', 'completion_finish_reason_meaning', 'completion_echo_prompt_first', 'completion_model_named', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'completion_stream_choices_complete', 'completion_stream_stop_excluded'],
  },
  {
    method: 'POST', path: '/v1/chat/completions', schema: { field: 'json:stream', values: { true: null }, default: 'resources/chat-completion.schema.json' },
    checks: ['sse_content_type', 'sse_data_only', 'sse_nothing_after_done', 'sse_chat_ends_with_done', 'sse_chat_chunks_are_json', 'error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'chat_stream_choices_complete', 'chat_stream_stop_excluded', 'chat_stream_deltas_assemble', 'chat_stream_choices_finish', 'chat_usage_total_is_sum', 'chat_role_assistant', 'chat_choices_n', 'chat_max_tokens_bound', 'chat_within_context', 'chat_stop_excluded', 'chat_finish_reason_meaning'],
  },
  {
    method: 'POST', path: '/v1/edits', schema: 'resources/edit.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'edit_usage_total_is_sum', 'edit_choices_n'],
  },
  {
    method: 'POST', path: '/v1/images/generations', schema: 'resources/image-result.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'image_item_matches_format', 'image_item_only_requested_format', 'image_generation_count_is_n', 'image_generation_size_matches', 'image_b64_decodes', 'image_url_fetchable', 'image_output_png'],
  },
  {
    method: 'POST', path: '/v1/images/edits', schema: 'resources/image-result.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'image_item_matches_format', 'image_item_only_requested_format', 'image_edit_count_is_n', 'image_edit_size_matches', 'image_b64_decodes', 'image_url_fetchable', 'image_output_png'],
  },
  {
    method: 'POST', path: '/v1/images/variations', schema: 'resources/image-result.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'image_item_matches_format', 'image_item_only_requested_format', 'image_variation_count_is_n', 'image_variation_size_matches', 'image_b64_decodes', 'image_url_fetchable', 'image_output_png'],
  },
  {
    method: 'POST', path: '/v1/embeddings', schema: 'resources/embedding-result.schema.json',
    checks: ['error_body_shape', 'error_code_snake_case', 'embedding_one_per_input', 'embedding_data_in_input_order', 'embedding_ada_002_has_1536_floats', 'embedding_usage_fields', 'embedding_usage_total_is_prompt'],
  },
  {
    method: 'POST', path: '/v1/audio/transcriptions', schema: AUDIO_SCHEMA,
    checks: ['error_body_shape', 'error_code_snake_case', 'audio_json_has_text', 'audio_verbose_json_fields', 'audio_text_format', 'audio_srt_well_formed', 'audio_vtt_well_formed', 'audio_content_type'],
  },
  {
    method: 'POST', path: '/v1/audio/translations', schema: AUDIO_SCHEMA,
    checks: ['error_body_shape', 'error_code_snake_case', 'audio_json_has_text', 'audio_verbose_json_fields', 'audio_text_format', 'audio_srt_well_formed', 'audio_vtt_well_formed', 'audio_content_type', 'audio_translation_language_english'],
  },
  {
    method: 'GET', path: '/v1/files', schema: 'resources/file-list.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case'],
  },
  {
    method: 'POST', path: '/v1/files', schema: 'resources/file.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'file_echoes_upload'],
  },
  {
    method: 'DELETE', path: '/v1/files/{file_id}', schema: 'resources/file-deleted.schema.json',
    checks: ['error_body_shape', 'error_code_snake_case', 'file_deleted_id_matches'],
  },
  {
    method: 'GET', path: '/v1/files/{file_id}', schema: 'resources/file.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case'],
  },
  {
    method: 'GET', path: '/v1/files/{file_id}/content', schema: null,
    checks: ['error_body_shape', 'error_code_snake_case'],
  },
  {
    method: 'POST', path: '/v1/fine-tunes', schema: 'resources/fine-tune-with-events.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'ft_created_pending', 'ft_create_model_null', 'ft_create_no_results', 'ft_training_files_echo', 'ft_validation_files_echo', 'ft_job_model_is_requested', 'ft_hyperparam_n_epochs_default', 'ft_hyperparam_n_epochs_echo', 'ft_hyperparam_prompt_loss_weight', 'ft_hyperparam_batch_size', 'ft_hyperparam_learning_rate_multiplier', 'ft_default_batch_size_capped', 'ft_default_learning_rate_multiplier', 'ft_fine_tuned_model_matches_status', 'ft_lifecycle_events_info'],
  },
  {
    method: 'GET', path: '/v1/fine-tunes', schema: 'resources/fine-tune-list.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'ft_fine_tuned_model_matches_status', 'ft_list_items_without_events'],
  },
  {
    method: 'GET', path: '/v1/fine-tunes/{fine_tune_id}', schema: 'resources/fine-tune-with-events.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'ft_cancel_model_null', 'ft_fine_tuned_model_matches_status', 'ft_events_lifecycle_order', 'ft_event_snapshot_names_model', 'ft_event_result_file_id', 'ft_lifecycle_events_info', 'ft_events_lifecycle_words', 'ft_result_files_filled', 'ft_result_file_purpose', 'ft_job_id_matches_path'],
  },
  {
    method: 'POST', path: '/v1/fine-tunes/{fine_tune_id}/cancel', schema: 'resources/fine-tune-with-events.schema.json',
    checks: ['error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'ft_job_cancelled', 'ft_cancel_model_null', 'ft_fine_tuned_model_matches_status', 'ft_events_lifecycle_order', 'ft_event_snapshot_names_model', 'ft_event_result_file_id', 'ft_lifecycle_events_info', 'ft_events_lifecycle_words', 'ft_result_files_filled', 'ft_result_file_purpose'],
  },
  {
    method: 'GET', path: '/v1/fine-tunes/{fine_tune_id}/events', schema: { field: 'query:stream', values: { true: null }, default: 'resources/fine-tune-event-list.schema.json' },
    checks: ['sse_content_type', 'sse_data_only', 'sse_nothing_after_done', 'sse_fine_tune_events_ends_with_done', 'sse_fine_tune_events_chunks_are_json', 'error_body_shape', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case', 'ft_stream_events_are_events', 'ft_stream_events_in_order'],
  },
  {
    method: 'POST', path: '/v1/moderations', schema: 'resources/moderation.schema.json',
    checks: ['error_body_shape', 'error_code_snake_case', 'moderation_one_result_per_input', 'moderation_categories_seven', 'moderation_categories_no_extra', 'moderation_categories_are_booleans', 'moderation_scores_in_range', 'moderation_flagged_is_boolean', 'moderation_flagged_consistent'],
  },
  {
    method: 'GET', path: '/v1/engines', schema: 'resources/engine-list.schema.json',
    checks: ['error_body_shape', 'engines_not_fine_tuned', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case'],
  },
  {
    method: 'GET', path: '/v1/engines/{engine_id}', schema: 'resources/engine.schema.json',
    checks: ['error_body_shape', 'engine_id_matches_path', 'timestamps_are_integers', 'timestamps_plausible', 'error_code_snake_case'],
  },
];

/** Checks that need a request a suite designs, and why: the rest of the registry is in ENDPOINT_EXPECTATIONS. */
export const DESIGNED: Readonly<Record<string, string>> = {
  ft_enqueue_event_recorded: "needs a job a suite created and waited on: the real service records the enqueue event some time after the job is created, so a job retrieved early may not show it yet",
  answer_not_a_stream: "judges the answer to a chosen input (stream:true with best_of>1): it never reads best_of, so any other streamed completion (appliesTo any) fails it",
  audio_invalid_language_rejected: "judges a refusal of a chosen invalid input (a language that is not ISO-639-1); appliesTo any, never reads the language it names",
  auth_foreign_organization_rejected: "judges a refusal of a chosen invalid input (Service-Organization the key does not belong to); appliesTo any",
  auth_no_resource_data: "judges a refusal of a chosen invalid input (missing/invalid key); with no status expectation it defaults to 2xx (AUTH-* requirements) and fails every successful answer carrying data/object/id",
  chat_n_distinct: "needs a request whose sampling makes identical choices unlikely (the suites choose temperature and prompt)",
  chat_stop_honoured: "compares with a second request (with: observed, the probe without stop)",
  completion_echo_default_off: "needs a designed prompt: whether the answer repeats the prompt is told only for a prompt the model would not write itself",
  completion_suffix_not_returned: "needs a designed request: only a suffix longer than the max_tokens asked for cannot end the text by chance",
  completion_max_tokens_calibrated: "compares with a second request (with: observed, observed_tokens from the probe without the lower max_tokens)",
  completion_n_distinct: "needs a request whose sampling makes identical choices unlikely (the suites choose temperature and prompt)",
  completion_stop_calibrated: "compares with a second request (with: observed, the probe without stop)",
  embedding_same_as_input_alone: "compares with a second request (with: singles - the same inputs embedded alone)",
  engines_listed_as_models: "reads an earlier case (with: models_case)",
  error_status_400: "judges a refusal of a chosen invalid input (which status a refusal should have depends on why the request was refused; on arbitrary 4xx it would call every 404/401/422 wrong)",
  error_status_401: "judges a refusal of a chosen invalid input (missing/invalid key)",
  error_status_403: "judges a refusal of a chosen invalid input (caller without the owner role)",
  error_status_404: "judges a refusal of a chosen invalid input (unknown resource id)",
  file_content_get_accepted: "judges that a designed request is accepted: on any other answer it has nothing to say",
  file_content_matches_upload: "reads an earlier case (with: upload)",
  file_invalid_jsonl_refused: "judges a refusal of a chosen invalid input (a fine-tune file with an invalid line, at upload or create); appliesTo any",
  file_invalid_jsonl_refused_at_upload: "judges a refusal of a chosen invalid input (invalid fine-tune JSONL at upload); appliesTo any",
  file_listed: "needs a parameter the suite gives (with: id)",
  file_listed_in_own_org: "needs a parameter the suite gives (with: id)",
  file_not_listed_after_delete: "needs a parameter the suite gives (with: id)",
  file_not_listed_in_other_org: "needs a parameter the suite gives (with: id)",
  file_same_as_upload: "reads an earlier case (with: upload)",
  file_unknown_id_404: "judges a refusal of a chosen invalid input (an unknown file id); appliesTo any",
  foreign_organization_rejected: "judges a refusal of a chosen invalid input (foreign Service-Organization); appliesTo any",
  ft_betas_binary_only_at_create: "judges a refusal of a chosen invalid input (classification_betas on a multiclass job); appliesTo any",
  ft_cancel_final: "reads an earlier case (with: cancel)",
  ft_cancel_post_accepted: "judges that a designed request is accepted: on any other answer it has nothing to say",
  ft_cancel_served: "reads an earlier case (with: cancel)",
  ft_default_batch_size_approx: "needs a parameter the suite gives (with: examples, the training-file size) - a known input",
  ft_events_list_order: "reads an earlier case (with: job)",
  ft_events_match_job: "reads an earlier case (with: job)",
  ft_fine_tuned_model_name: "reads an earlier case (with: create): without it the create request is the exchange itself, whose answer is never succeeded, so it can only judge a later retrieval",
  ft_finished_when_stream_done: "reads an earlier case (with: stream)",
  ft_job_in_org: "needs a parameter the suite gives (with: organization) - declared optional but skips without it",
  ft_list_excludes_other_org_job: "needs a parameter the suite gives (with: id)",
  ft_list_includes_job: "needs a parameter the suite gives (with: id)",
  ft_list_includes_own_org_job: "needs a parameter the suite gives (with: id)",
  ft_list_items_in_org: "needs a parameter the suite gives (with: organization) - declared optional but skips without it",
  ft_long_example_refused_at_upload_or_create: "judges a refusal of a chosen invalid input (a training example over 2048 tokens); appliesTo any",
  ft_model_listed: "needs a parameter the suite gives (with: id)",
  ft_model_owned_by_customer: "needs a parameter the suite gives (with: id)",
  ft_model_not_listed_after_delete: "needs a parameter the suite gives (with: id)",
  ft_model_retrieved_by_name: "needs a known input: the path must name a job's fine-tuned model (cites FT-RESULT-MODEL-LISTED); on other GET /v1/models/{model} it duplicates model_id_matches_path under the wrong requirement",
  ft_name_has_suffix: "reads an earlier case (with: create) - same as ft_fine_tuned_model_name",
  ft_name_timestamp_format: "reads an earlier case (with: create) - same as ft_fine_tuned_model_name",
  ft_name_without_suffix: "reads an earlier case (with: create) - same as ft_fine_tuned_model_name",
  ft_status_succeeded: "needs a known input (a small valid training file that must train to success): any pending/cancelled/failed job a user retrieves would fail it",
  ft_status_transitions: "reads earlier cases (with: previous)",
  ft_unknown_id_404: "judges a refusal of a chosen invalid input (an unknown fine-tune id); appliesTo any",
  model_delete_base_rejected: "judges a refusal of a chosen invalid input (DELETE of a base model); appliesTo any",
  model_still_listed: "needs a parameter the suite gives (with: model); judges the aftermath of a base-model delete",
  model_still_retrievable: "needs a known input: the path must name a base model a previous case tried to delete (cites MODEL-DELETE-BASE-REJECTED); on other GETs it is model_id_matches_path under the wrong requirement",
  moderation_array_in_input_order: "compares with a second request (with: singles - the same texts moderated alone)",
  moderation_model_same_as: "reads an earlier case (with: same_as) - compares with a second request",
  plugin_cors_host_origin: "plugin manifest / plugin host, not the API",
  plugin_description_no_push: "plugin manifest / plugin host, not the API",
  plugin_description_no_tone: "plugin manifest / plugin host, not the API",
  plugin_description_no_triggers: "plugin manifest / plugin host, not the API",
  plugin_description_plugin_for: "plugin manifest / plugin host, not the API",
  plugin_local_auth_none: "plugin manifest / plugin host, not the API",
  plugin_local_http: "plugin manifest / plugin host, not the API",
  plugin_logo_found: "plugin manifest / plugin host, not the API",
  plugin_logo_served: "plugin manifest / plugin host, not the API",
  plugin_manifest_api: "plugin manifest / plugin host, not the API",
  plugin_manifest_api_is_user_authenticated: "plugin manifest / plugin host, not the API",
  plugin_manifest_api_type: "plugin manifest / plugin host, not the API",
  plugin_manifest_api_url: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_instructions: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_oauth_authorization_url: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_oauth_client_url: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_oauth_content_type: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_oauth_scope: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_oauth_tokens: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_service_http_tokens: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_service_http_type: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_type: "plugin manifest / plugin host, not the API",
  plugin_manifest_auth_user_http: "plugin manifest / plugin host, not the API",
  plugin_manifest_contact_email: "plugin manifest / plugin host, not the API",
  plugin_manifest_description_for_human: "plugin manifest / plugin host, not the API",
  plugin_manifest_description_for_human_length: "plugin manifest / plugin host, not the API",
  plugin_manifest_description_for_model: "plugin manifest / plugin host, not the API",
  plugin_manifest_description_for_model_length: "plugin manifest / plugin host, not the API",
  plugin_manifest_legal_info_url: "plugin manifest / plugin host, not the API",
  plugin_manifest_logo_url: "plugin manifest / plugin host, not the API",
  plugin_manifest_name_for_human: "plugin manifest / plugin host, not the API",
  plugin_manifest_name_for_human_length: "plugin manifest / plugin host, not the API",
  plugin_manifest_name_for_model: "plugin manifest / plugin host, not the API",
  plugin_manifest_name_for_model_length: "plugin manifest / plugin host, not the API",
  plugin_manifest_schema_version: "plugin manifest / plugin host, not the API",
  plugin_manifest_served: "plugin manifest / plugin host, not the API",
  plugin_openapi_components: "plugin manifest / plugin host, not the API",
  plugin_openapi_description_length: "plugin manifest / plugin host, not the API",
  plugin_openapi_enum: "plugin manifest / plugin host, not the API",
  plugin_openapi_info: "plugin manifest / plugin host, not the API",
  plugin_openapi_info_version: "plugin manifest / plugin host, not the API",
  plugin_openapi_operation_id: "plugin manifest / plugin host, not the API",
  plugin_openapi_parameter_description_length: "plugin manifest / plugin host, not the API",
  plugin_openapi_paths: "plugin manifest / plugin host, not the API",
  plugin_openapi_responses: "plugin manifest / plugin host, not the API",
  plugin_openapi_schema: "plugin manifest / plugin host, not the API",
  plugin_openapi_served: "plugin manifest / plugin host, not the API",
  plugin_openapi_servers: "plugin manifest / plugin host, not the API",
  plugin_openapi_summary: "plugin manifest / plugin host, not the API",
  plugin_openapi_summary_length: "plugin manifest / plugin host, not the API",
  plugin_openapi_version: "plugin manifest / plugin host, not the API",
  plugin_operation_described: "plugin manifest / plugin host, not the API",
  plugin_operation_auth_none: "plugin manifest / plugin host, not the API",
  plugin_operation_documented_response: "plugin manifest / plugin host, not the API",
  plugin_operation_body_schema: "plugin manifest / plugin host, not the API",
  plugin_operation_body_schema_strict: "plugin manifest / plugin host, not the API",
  plugin_operation_raw_data: "plugin manifest / plugin host, not the API",
  plugin_operation_response_size: "plugin manifest / plugin host, not the API",
  plugin_remote_https: "plugin manifest / plugin host, not the API",
  results_csv_accuracy_range: "needs a known input: the file id must be a fine-tune results file (GET /v1/files/{id}/content serves any file; a user JSONL would fail CSV parsing)",
  results_csv_base_columns: "needs a known input: the file id must be a fine-tune results file (GET /v1/files/{id}/content serves any file; a user JSONL would fail CSV parsing)",
  results_csv_betas_binary_only: "reads an earlier case (with: create); also a known input (a results file)",
  results_csv_binary_columns: "reads an earlier case (with: create); also a known input (a results file)",
  results_csv_classification_per_epoch: "reads an earlier case (with: job, create); also a known input (a results file)",
  results_csv_covers_n_epochs: "reads an earlier case (with: job, examples); also a known input (a results file)",
  results_csv_elapsed_examples: "reads an earlier case (with: job); also a known input (a results file)",
  results_csv_default_batch_capped: "reads an earlier case (with: job); also a known input (a results file)",
  results_csv_elapsed_tokens: "needs a known input: the file id must be a fine-tune results file (GET /v1/files/{id}/content serves any file; a user JSONL would fail CSV parsing)",
  results_csv_fbeta_columns: "reads an earlier case (with: create); also a known input (a results file)",
  results_csv_multiclass_columns: "reads an earlier case (with: create); also a known input (a results file)",
  results_csv_no_classification_columns: "reads an earlier case (with: create); also a known input (a results file)",
  results_csv_no_validation_columns: "reads an earlier case (with: job); also a known input (a results file)",
  results_csv_parses: "needs a known input: the file id must be a fine-tune results file (GET /v1/files/{id}/content serves any file; a user JSONL would fail CSV parsing)",
  results_csv_step: "needs a known input: the file id must be a fine-tune results file (GET /v1/files/{id}/content serves any file; a user JSONL would fail CSV parsing)",
  results_csv_training_loss: "needs a known input: the file id must be a fine-tune results file (GET /v1/files/{id}/content serves any file; a user JSONL would fail CSV parsing)",
  results_csv_validation_columns: "reads an earlier case (with: job); also a known input (a results file)",
  results_csv_validation_filled: "reads an earlier case (with: job); also a known input (a results file)",
  sse_chunk_schema: "needs a parameter the suite gives (with: schema) - a per-endpoint constant (completion-chunk / chat-completion-chunk), so A if the table supplied it",
  stream_several_events: "needs a request that asks for more than one token: a one-token answer is one event",
  wrong_type_rejected: "judges a refusal of a chosen invalid input (a wrongly typed field); appliesTo any",
};
/** The endpoint a request's method and path belong to (any base path before `/v1`, any query), if the table has it. */
export function endpointFor(method: string, path: string): EndpointExpectation | undefined {
  const bare = path.split('?')[0]!;
  const at = bare.indexOf('/v1/');
  const rest = at >= 0 ? bare.slice(at) : bare;
  const segments = rest.split('/');
  return ENDPOINT_EXPECTATIONS.find((e) => {
    if (e.method !== method.toUpperCase()) return false;
    const want = e.path.split('/');
    return want.length === segments.length && want.every((w, i) => (w.startsWith('{') ? segments[i] !== '' : w === segments[i]));
  });
}

/** What the request as sent says about the schema: a field of its JSON body, its form, or its query. */
export function schemaOf(endpoint: EndpointExpectation, request: Pick<PlannedRequestView, 'json' | 'multipartFields' | 'query'>): string | undefined {
  const s = endpoint.schema;
  if (s === null) return undefined;
  if (typeof s === 'string') return s;
  const [where, name] = s.field.split(':') as [string, string];
  const from = where === 'json' ? (isRecord(request.json) ? request.json : {}) : where === 'form' ? request.multipartFields ?? {} : request.query;
  const raw = from[name];
  if (raw === undefined || raw === false || raw === 'false') return s.default ?? undefined;
  const chosen = s.values[String(raw)];
  return (chosen === undefined ? s.default : chosen) ?? undefined;
}

/**
 * The expectations of an exchange no suite designed: the endpoint's schema for a success, cited by its resource
 * rule, and its checks. No status is expected (a refusal is an answer too): each check judges the status class it
 * is written for, and the schema judges a success only.
 */
export function endpointExpectations(endpoint: EndpointExpectation, request: PlannedRequestView, at: { suite: string; source: string; reproduce: string }): CaseIdentity {
  const schema = schemaOf(endpoint, request);
  const rules = schema ? SCHEMA_RULES[schema] ?? [] : [];
  const name = `${endpoint.method} ${endpoint.path}`;
  const spec: CaseSpec = {
    id: name, title: `${request.method} ${request.path}`, requirements: [...rules],
    request: { method: endpoint.method, path: endpoint.path },
    expect: { ...(schema ? { schema } : {}), checks: [...endpoint.checks] },
  };
  return { ...at, case: spec };
}
