// Fault injection: each fault is ONE rule of the spec broken the way a plausible, almost-compatible
// server would break it. Handlers check `ctx.fault('name')` at the exact place the rule is enforced.
import { nearest } from '../util/nearest.ts';

export type FaultArea =
  | 'auth' | 'models' | 'engines' | 'completions' | 'streaming' | 'chat' | 'edits' | 'images'
  | 'embeddings' | 'audio' | 'files' | 'fine-tunes' | 'moderations' | 'plugins';

export interface FaultSpec {
  name: string;
  area: FaultArea;
  description: string;
}

export const FAULTS = [
  // auth
  { name: 'missing-authorization-accepted', area: 'auth', description: 'Requests without an Authorization header are served as the default owner instead of answering 401.' },
  { name: 'invalid-api-key-accepted', area: 'auth', description: 'Any bearer token is accepted as a valid API key.' },
  { name: 'foreign-organization-accepted', area: 'auth', description: 'A Service-Organization header naming an organization the key is not a member of is ignored (default org used) instead of 401.' },
  { name: 'auth-scheme-ignored', area: 'auth', description: 'The key is read under any Authorization scheme (Token sk-..., Basic sk-...), not only Bearer.' },
  { name: 'auth-error-not-wrapped', area: 'auth', description: '401 bodies are {"message": ...} without the {"error": {message,type,param,code}} wrapper.' },
  { name: 'api-key-prefix-match', area: 'auth', description: "The API key is compared on its first 8 characters only, so an altered key with the same prefix is accepted." },
  { name: 'post-without-authorization-accepted', area: 'auth', description: "POST requests without an Authorization header are served (only GET requests are authenticated)." },
  // models
  { name: 'member-may-delete-model', area: 'models', description: 'A member without the owner role may delete a fine-tuned model.' },
  { name: 'model-list-object-wrong', area: 'models', description: 'GET /v1/models answers {"object": "models"} instead of "list".' },
  { name: 'deleted-model-still-listed', area: 'models', description: 'DELETE /v1/models/{model} answers deleted:true but the model stays retrievable and listed.' },
  { name: 'model-created-not-integer', area: 'models', description: 'Model `created` is an ISO date string instead of a Unix integer.' },
  { name: 'fine-tuned-model-not-listed', area: 'models', description: 'Succeeded fine-tuned models are missing from GET /v1/models.' },
  { name: 'model-retrieve-owner-differs', area: 'models', description: "GET /v1/models/{model} reports owned_by \"openai\" for every base model, while the list reports the real owner." },
  { name: 'model-retrieve-stale-subset', area: 'models', description: "GET /v1/models/{model} serves only the first 12 models of the list (a stale cache) and answers 404 for the others." },
  { name: 'model-retrieve-unknown-200', area: 'models', description: "Retrieving an unknown model answers 200 with a model object for the requested id." },
  { name: 'base-model-delete-accepted', area: 'models', description: "Deleting a base model answers deleted:true (and nothing changes)." },
  { name: 'deleted-model-still-usable', area: 'models', description: "A deleted fine-tuned model is gone from retrieve and list, but completions still accept it." },
  // engines
  { name: 'engine-ready-missing', area: 'engines', description: 'Engine objects have no `ready` field.' },
  { name: 'engine-object-wrong', area: 'engines', description: 'Engine objects carry object "model" instead of "engine".' },
  { name: 'engines-include-fine-tuned', area: 'engines', description: 'GET /v1/engines also lists fine-tuned models.' },
  { name: 'engine-retrieve-unknown-200', area: 'engines', description: "Retrieving an unknown engine answers 200 with an engine object." },
  { name: 'engine-retrieve-wrong-id', area: 'engines', description: "GET /v1/engines/{id} answers the first engine of the list whatever the id." },
  { name: 'engine-owner-missing', area: 'engines', description: "Engine objects have no `owner` field." },
  // completions
  { name: 'stop-allows-5', area: 'completions', description: 'Five stop sequences are accepted (limit is 4).' },
  { name: 'stop-sequence-in-text', area: 'completions', description: 'The returned text still contains the stop sequence that ended it.' },
  { name: 'max-tokens-default-32', area: 'completions', description: 'Without max_tokens, 32 tokens are generated instead of the default 16.' },
  { name: 'usage-total-not-sum', area: 'completions', description: 'usage.total_tokens is not prompt_tokens + completion_tokens (off by one).' },
  { name: 'n-ignored', area: 'completions', description: 'n is ignored: one choice per prompt.' },
  { name: 'echo-missing-prompt', area: 'completions', description: 'echo:true returns only the completion, without the prompt.' },
  { name: 'top-logprobs-extra-entries', area: 'completions', description: 'top_logprobs maps carry logprobs+2 entries.' },
  { name: 'temperature-2.5-accepted', area: 'completions', description: 'temperature above 2 (e.g. 2.5) is accepted.' },
  { name: 'context-length-unchecked', area: 'completions', description: 'prompt tokens + max_tokens above the context length is accepted.' },
  { name: 'best-of-below-n-accepted', area: 'completions', description: 'best_of smaller than n is accepted.' },
  { name: 'logprobs-not-null', area: 'completions', description: 'choices[].logprobs is an empty object instead of null when logprobs was not requested.' },
  { name: 'finish-reason-length-on-stop', area: 'completions', description: 'finish_reason is "length" even when a stop sequence ended the text.' },
  { name: 'choice-index-per-prompt', area: 'completions', description: 'With several prompts, choice indexes restart at 0 for every prompt.' },
  { name: 'max-tokens-plus-one', area: 'completions', description: "One token more than max_tokens is generated when the limit is hit (usage counts it)." },
  { name: 'max-tokens-exceeded-usage-capped', area: 'completions', description: "max_tokens is exceeded by 3 tokens while usage.completion_tokens reports at most max_tokens." },
  { name: 'n-duplicates-first-choice', area: 'completions', description: "At temperature above 0 the n choices of a prompt are copies of one sample instead of n samples." },
  { name: 'n-extra-choice', area: 'completions', description: "One choice more than n is returned per prompt." },
  { name: 'stop-array-first-only', area: 'completions', description: "Of an array of stop sequences only the first is honoured." },
  { name: 'logprobs-6-accepted', area: 'completions', description: "logprobs above 5 (e.g. 6) is accepted." },
  { name: 'presence-penalty-2.5-accepted', area: 'completions', description: "presence_penalty above 2 (e.g. 2.5) is accepted." },
  { name: 'logit-bias-101-accepted', area: 'completions', description: "logit_bias values above 100 are accepted." },
  { name: 'temperature-negative-accepted', area: 'completions', description: "Negative temperatures are accepted." },
  { name: 'completion-object-wrong', area: 'completions', description: "Completion results carry object \"completion\" instead of \"text_completion\"." },
  { name: 'finish-reason-null', area: 'completions', description: "finish_reason is null in non-streamed completions." },
  { name: 'echo-logprobs-misaligned', area: 'completions', description: "With echo and logprobs, text_offset of the completion tokens counts from the start of the completion, not of the returned text." },
  { name: 'logprobs-never-computed', area: 'completions', description: "token_logprobs and top_logprobs are all null (the server never computes them), which the resource schema's null for the first token under echo let through." },
  { name: 'text-offset-off-by-one', area: 'completions', description: "logprobs.text_offset is shifted by one character." },
  { name: 'token-prompt-rejected', area: 'completions', description: "Prompts given as arrays of token ids are rejected." },
  { name: 'prompt-array-first-only', area: 'completions', description: "With an array of prompts, choices are generated for the first prompt only." },
  // streaming
  { name: 'stream-missing-done', area: 'streaming', description: 'Event streams end without the final `data: [DONE]`.' },
  { name: 'stream-event-lines', area: 'streaming', description: 'Event streams carry `event:` and `id:` lines (not data-only).' },
  { name: 'stream-hangs', area: 'streaming', description: 'After the last chunk and [DONE] the response never ends (socket held open).' },
  { name: 'stream-best-of-accepted', area: 'streaming', description: 'stream:true together with best_of > 1 is accepted.' },
  { name: 'stream-json-content-type', area: 'streaming', description: 'Event streams are labelled Content-Type application/json.' },
  { name: 'stream-chat-no-finish-chunk', area: 'streaming', description: 'Chat streams never send the final chunk with delta {} and finish_reason.' },
  { name: 'stream-chunk-after-done', area: 'streaming', description: "A further chunk is sent after `data: [DONE]`." },
  { name: 'stream-single-chunk', area: 'streaming', description: "The whole completion arrives in one chunk, not token by token as it becomes available." },
  { name: 'stream-n-ignored', area: 'streaming', description: "Streams with n > 1 carry only the choice of index 0." },
  // chat
  { name: 'chat-role-bot', area: 'chat', description: 'Assistant messages come back with role "bot".' },
  { name: 'chat-object-wrong', area: 'chat', description: 'Chat results carry object "chat.completions" instead of "chat.completion".' },
  { name: 'chat-empty-messages-accepted', area: 'chat', description: 'An empty messages array is accepted.' },
  { name: 'chat-accepts-completion-model', area: 'chat', description: 'Completion-only models (e.g. davinci) are accepted on /chat/completions.' },
  { name: 'chat-stop-ignored', area: 'chat', description: 'Chat ignores stop sequences.' },
  { name: 'chat-n-ignored', area: 'chat', description: "Chat ignores n: one choice." },
  { name: 'chat-n-duplicates', area: 'chat', description: "At temperature above 0 the n chat choices are copies of one sample instead of n samples." },
  { name: 'chat-index-all-zero', area: 'chat', description: "All chat choices carry index 0." },
  { name: 'chat-max-tokens-ignored', area: 'chat', description: "Chat ignores max_tokens." },
  { name: 'chat-usage-total-not-sum', area: 'chat', description: "Chat usage.total_tokens is not prompt_tokens + completion_tokens." },
  { name: 'chat-temperature-2.5-accepted', area: 'chat', description: "Chat temperature above 2 (e.g. 2.5) is accepted." },
  { name: 'chat-finish-reason-null', area: 'chat', description: "Chat choices carry finish_reason null." },
  // edits
  { name: 'edit-accepts-any-model', area: 'edits', description: 'Any model name is accepted on /edits.' },
  { name: 'edit-instruction-optional', area: 'edits', description: 'A missing instruction is accepted.' },
  { name: 'edit-object-wrong', area: 'edits', description: 'Edit results carry object "text_edit" instead of "edit".' },
  { name: 'edit-n-ignored', area: 'edits', description: "Edits ignore n: one choice." },
  { name: 'edit-input-required', area: 'edits', description: "A missing input is rejected (input is optional, default empty)." },
  { name: 'edit-usage-total-not-sum', area: 'edits', description: "Edit usage.total_tokens is not prompt_tokens + completion_tokens." },
  { name: 'edit-temperature-2.5-accepted', area: 'edits', description: "Edit temperature above 2 (e.g. 2.5) is accepted." },
  // images
  { name: 'image-n-11-accepted', area: 'images', description: 'n above 10 (e.g. 11) is accepted.' },
  { name: 'image-size-ignored', area: 'images', description: 'The size parameter is ignored: every image is 512x512.' },
  { name: 'b64-json-returns-url', area: 'images', description: 'response_format b64_json returns {url} items.' },
  { name: 'image-edit-accepts-non-square', area: 'images', description: 'Non-square PNGs are accepted for edits and variations.' },
  { name: 'image-prompt-1001-accepted', area: 'images', description: 'Prompts longer than 1000 characters are accepted.' },
  { name: 'image-edit-opaque-without-mask', area: 'images', description: 'An edit of a fully opaque image without a mask is accepted.' },
  { name: 'image-item-both-fields', area: 'images', description: 'Data items carry both url and b64_json.' },
  { name: 'image-url-404', area: 'images', description: "Image URLs point at paths that answer 404." },
  { name: 'image-b64-not-png', area: 'images', description: "b64_json decodes to bytes that are not a PNG (a JPEG header)." },
  { name: 'image-b64-size-ignored', area: 'images', description: "b64_json images are always 256x256 whatever the size (URL images are right)." },
  { name: 'image-edit-accepts-jpeg', area: 'images', description: "Edit and variation images are not checked for the PNG format (only for size)." },
  { name: 'image-edit-size-unchecked', area: 'images', description: "Edit and variation images of 4 MB or more are accepted (only the PNG format is checked)." },
  { name: 'image-mask-size-unchecked', area: 'images', description: "Masks of 4 MB or more are accepted." },
  { name: 'image-mask-dimension-mismatch-accepted', area: 'images', description: "A mask with other dimensions than the image is accepted." },
  { name: 'image-variation-n-ignored', area: 'images', description: "Variations ignore n: one image." },
  { name: 'image-edit-prompt-optional', area: 'images', description: "An edit without prompt is accepted." },
  { name: 'image-edit-format-ignored', area: 'images', description: "Edits and variations ignore response_format: always url." },
  // embeddings
  { name: 'embeddings-1535-dims', area: 'embeddings', description: 'text-embedding-ada-002 vectors have 1535 floats instead of 1536.' },
  { name: 'embeddings-reversed-order', area: 'embeddings', description: 'The vectors come back in reverse input order while the index labels count up by position: the item labelled 0 embeds the last input (a batch numbered in the order it finished).' },
  { name: 'embeddings-input-too-long-accepted', area: 'embeddings', description: 'Inputs longer than 8192 tokens are accepted.' },
  { name: 'embeddings-index-from-one', area: 'embeddings', description: 'Embedding indexes start at 1.' },
  { name: 'embeddings-usage-total-differs', area: 'embeddings', description: "Embedding usage.total_tokens differs from prompt_tokens (counted twice)." },
  { name: 'embeddings-item-object-wrong', area: 'embeddings', description: "Embedding items carry object \"embeddings\" instead of \"embedding\"." },
  { name: 'embeddings-token-array-rejected', area: 'embeddings', description: "Inputs given as arrays of token ids are rejected." },
  { name: 'embeddings-array-first-only', area: 'embeddings', description: "An array input yields one embedding (for the first element)." },
  { name: 'embeddings-model-missing', area: 'embeddings', description: "The embeddings list has no `model` field." },
  // audio
  { name: 'audio-temperature-1.5-accepted', area: 'audio', description: 'Audio temperature above 1 (e.g. 1.5) is accepted.' },
  { name: 'srt-malformed-timestamps', area: 'audio', description: 'SRT cues use `HH:MM:SS.mmm` (a dot, as VTT) instead of `HH:MM:SS,mmm`.' },
  { name: 'verbose-json-missing-segments', area: 'audio', description: 'verbose_json has no segments array.' },
  { name: 'whisper-2-accepted', area: 'audio', description: 'Any model name (e.g. whisper-2) is accepted for audio.' },
  { name: 'audio-wav-only', area: 'audio', description: 'Only wav files are accepted; the other listed types (mp3, mp4, mpeg, mpga, m4a, webm) are refused.' },
  { name: 'audio-any-extension-accepted', area: 'audio', description: 'Files with unsupported extensions (e.g. .txt) are accepted.' },
  { name: 'vtt-missing-header', area: 'audio', description: 'VTT output lacks the WEBVTT header.' },
  { name: 'audio-text-format-json', area: 'audio', description: "response_format text answers the JSON object {\"text\": ...}." },
  { name: 'srt-json-content-type', area: 'audio', description: "SRT output is labelled application/json." },
  { name: 'vtt-returns-srt', area: 'audio', description: "response_format vtt answers SRT (numbered cues, comma timestamps, no header)." },
  { name: 'verbose-json-missing-language', area: 'audio', description: "verbose_json has no language field." },
  { name: 'verbose-json-missing-duration', area: 'audio', description: "verbose_json has no duration field." },
  { name: 'audio-language-invalid-accepted', area: 'audio', description: "A language that is not an ISO-639-1 code (e.g. \"english\") is accepted." },
  { name: 'audio-default-format-text', area: 'audio', description: "Without response_format the transcript is plain text instead of JSON." },
  { name: 'audio-prompt-rejected', area: 'audio', description: "The optional prompt field is rejected." },
  // files
  { name: 'files-list-other-org', area: 'files', description: 'GET /v1/files also lists files of other organizations.' },
  { name: 'file-content-differs', area: 'files', description: 'GET /v1/files/{id}/content returns bytes that differ from the upload (line endings normalised to CRLF).' },
  { name: 'file-delete-not-removed', area: 'files', description: 'DELETE /v1/files/{id} answers deleted:true but the file stays retrievable.' },
  { name: 'jsonl-missing-completion-accepted', area: 'files', description: 'fine-tune JSONL lines without `completion` are accepted.' },
  { name: 'file-quota-unchecked', area: 'files', description: 'Uploads beyond the per-organization storage quota are accepted.' },
  { name: 'file-bytes-counts-characters', area: 'files', description: "`bytes` counts UTF-8 characters instead of bytes." },
  { name: 'file-filename-not-echoed', area: 'files', description: "Uploaded files are named \"file\" instead of the uploaded filename." },
  { name: 'file-purpose-not-echoed', area: 'files', description: "The file object's purpose is always \"fine-tune\", whatever was uploaded." },
  { name: 'file-delete-content-still-served', area: 'files', description: "After DELETE the file is gone from retrieve and list, but its content is still downloadable." },
  { name: 'file-delete-still-listed', area: 'files', description: "After DELETE retrieve answers 404 but the list still contains the file." },
  { name: 'file-retrieve-other-org', area: 'files', description: "Files of another organization can be retrieved by id." },
  { name: 'file-content-other-org', area: 'files', description: "The content of another organization's file can be downloaded by id." },
  { name: 'file-delete-other-org', area: 'files', description: "Another organization's file can be deleted by id." },
  { name: 'jsonl-invalid-json-accepted', area: 'files', description: "fine-tune JSONL with a line that is not JSON is accepted." },
  { name: 'file-created-at-ms', area: 'files', description: "created_at is in milliseconds." },
  // fine-tunes
  { name: 'fine-tune-suffix-41-accepted', area: 'fine-tunes', description: 'Suffixes longer than 40 characters are accepted.' },
  { name: 'fine-tuned-model-set-while-pending', area: 'fine-tunes', description: 'fine_tuned_model is set already at creation (status pending).' },
  { name: 'results-csv-missing-elapsed-examples', area: 'fine-tunes', description: 'The results CSV has no elapsed_examples column.' },
  { name: 'results-csv-validation-columns-always', area: 'fine-tunes', description: 'The results CSV carries validation_* columns even without a validation file.' },
  { name: 'fine-tune-events-out-of-order', area: 'fine-tunes', description: 'Events are returned newest first.' },
  { name: 'fine-tune-event-stream-missing-done', area: 'fine-tunes', description: 'The fine-tune event stream ends without `data: [DONE]`.' },
  { name: 'cancel-leaves-running', area: 'fine-tunes', description: 'Cancel answers but the job keeps its status (pending/running) and later succeeds.' },
  { name: 'fine-tune-list-includes-events', area: 'fine-tunes', description: 'List items include the events array.' },
  { name: 'classification-metrics-without-validation-accepted', area: 'fine-tunes', description: 'compute_classification_metrics without validation_file is accepted.' },
  { name: 'cancel-terminal-accepted', area: 'fine-tunes', description: 'Cancelling a succeeded job answers 200 and flips it to cancelled.' },
  { name: 'fine-tune-hyperparams-not-echoed', area: 'fine-tunes', description: "hyperparams.n_epochs is always the default 4, whatever was requested." },
  { name: 'fine-tune-suffix-ignored', area: 'fine-tunes', description: "The suffix is not part of fine_tuned_model." },
  { name: 'fine-tune-model-not-echoed', area: 'fine-tunes', description: "The job's model is always \"curie\", whatever base model was requested." },
  { name: 'fine-tune-training-files-empty', area: 'fine-tunes', description: "training_files is an empty array." },
  { name: 'fine-tune-validation-files-empty', area: 'fine-tunes', description: "validation_files stays empty even when a validation file was given." },
  { name: 'fine-tune-result-files-empty', area: 'fine-tunes', description: "result_files stays empty after the job succeeded." },
  { name: 'fine-tune-result-file-purpose-wrong', area: 'fine-tunes', description: "The result file carries purpose \"fine-tune\" instead of \"fine-tune-results\"." },
  { name: 'fine-tune-events-of-other-job', area: 'fine-tunes', description: "GET /v1/fine-tunes/{id}/events answers the events of the organization's first job." },
  { name: 'fine-tune-retrieve-other-org', area: 'fine-tunes', description: "Jobs of another organization can be retrieved by id." },
  { name: 'fine-tune-list-other-org', area: 'fine-tunes', description: "GET /v1/fine-tunes also lists jobs of other organizations." },
  { name: 'cancel-sets-fine-tuned-model', area: 'fine-tunes', description: "A cancelled job names a fine_tuned_model." },
  { name: 'fine-tune-wrong-purpose-file-accepted', area: 'fine-tunes', description: "A training file uploaded with another purpose than fine-tune is accepted." },
  { name: 'fine-tune-unknown-file-accepted', area: 'fine-tunes', description: "An unknown training file id is accepted." },
  // moderations
  { name: 'moderation-6-categories', area: 'moderations', description: 'Results have 6 categories (violence/graphic missing).' },
  { name: 'moderation-score-above-1', area: 'moderations', description: 'Flagged category scores exceed 1 (scaled to 0..100 internally and not normalised).' },
  { name: 'moderation-flagged-inconsistent', area: 'moderations', description: 'flagged stays false even when a category is true.' },
  { name: 'moderation-array-first-only', area: 'moderations', description: 'An array input yields a single result (for the first element).' },
  { name: 'moderation-any-model-accepted', area: 'moderations', description: 'Any model name is accepted for moderations.' },
  { name: 'moderation-scores-missing-key', area: 'moderations', description: "category_scores lacks self-harm while categories has it." },
  { name: 'moderation-id-missing', area: 'moderations', description: "Moderation results have no id." },
  { name: 'moderation-category-underscore', area: 'moderations', description: "The category self-harm is named self_harm." },
  { name: 'moderation-flagged-always-true', area: 'moderations', description: "flagged is true even when no category is true." },
  { name: 'moderation-scores-as-strings', area: 'moderations', description: "category_scores are strings (\"0.000123\") instead of numbers." },
  // plugins
  { name: 'manifest-name-for-model-51', area: 'plugins', description: 'Manifest name_for_model is 51 characters long.' },
  { name: 'manifest-missing', area: 'plugins', description: '/.well-known/ai-plugin.json answers 404.' },
  { name: 'openapi-operation-without-operation-id', area: 'plugins', description: 'One OpenAPI operation has no operationId.' },
  { name: 'plugin-auth-oauth-localhost', area: 'plugins', description: 'The local (http://127.0.0.1) plugin declares auth type oauth, which local development does not support.' },
  { name: 'plugin-response-not-json', area: 'plugins', description: 'Plugin operations answer natural-language text/plain instead of JSON.' },
  { name: 'plugin-no-cors', area: 'plugins', description: 'The plugin host sends no CORS headers and does not answer preflights.' },
  { name: 'manifest-description-for-human-121', area: 'plugins', description: 'Manifest description_for_human is 121 characters long.' },
  { name: 'manifest-logo-url-broken', area: 'plugins', description: 'Manifest logo_url points at a path that answers 404.' },
  { name: 'manifest-description-steers-model', area: 'plugins', description: 'description_for_model tells the model to always use the plugin and to answer enthusiastically.' },
  { name: 'manifest-schema-version-v2', area: 'plugins', description: "Manifest schema_version is \"v2\"." },
  { name: 'manifest-contact-email-missing', area: 'plugins', description: "Manifest has no contact_email." },
  { name: 'manifest-name-for-human-51', area: 'plugins', description: "Manifest name_for_human is 51 characters long." },
  { name: 'openapi-url-404', area: 'plugins', description: "The manifest's api.url answers 404." },
  { name: 'openapi-description-201', area: 'plugins', description: "One OpenAPI operation description is 201 characters long." },
  { name: 'plugin-response-missing-field', area: 'plugins', description: "GET /todos/{id} answers a TODO without its title, which the documented Todo schema requires." },
  { name: 'plugin-response-id-as-string', area: 'plugins', description: "Plugin operations give TODO ids as strings (\"1\"), where the documented Todo schema says integer." },
  { name: 'plugin-response-oversized', area: 'plugins', description: "GET /todos answers more than 100,000 characters (a long notes field)." },
  { name: 'plugin-auth-none-demands-key', area: 'plugins', description: "The manifest says auth none, but the operations answer 401 to a call without an Authorization header." },
  { name: 'openapi-response-schema-missing', area: 'plugins', description: "The description documents getTodo's 200 answer as application/json without a schema." },
] as const satisfies readonly FaultSpec[];

export type FaultName = (typeof FAULTS)[number]['name'];

const FAULT_NAMES: ReadonlySet<string> = new Set(FAULTS.map((f) => f.name));

/** Validates requested fault names; unknown names are a programming error in the caller's suite. */
export class UnknownFaultError extends Error {}

export function resolveFaults(requested: readonly string[] = []): ReadonlySet<FaultName> {
  const unknown = requested.filter((n) => !FAULT_NAMES.has(n));
  if (unknown.length > 0) {
    const guesses = unknown.map((u) => nearest(u, FAULT_NAMES)).filter((g): g is string => g !== undefined);
    throw new UnknownFaultError(`unknown fault ${unknown.map((u) => `"${u}"`).join(', ')}${guesses.length ? ` — did you mean ${guesses.map((g) => `"${g}"`).join(', ')}?` : ''} (conformance serve --list-faults lists the ${FAULT_NAMES.size} faults, one per line)`);
  }
  return new Set(requested as FaultName[]);
}
