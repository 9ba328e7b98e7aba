// Fault injection: each fault is ONE rule of the spec broken the way a plausible, almost-compatible
// server would break it. Handlers check `ctx.fault('name')` at the exact place the rule is enforced.

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
  { name: 'auth-error-not-wrapped', area: 'auth', description: '401 bodies are {"message": ...} without the {"error": {message,type,param,code}} wrapper.' },
  // models
  { name: 'member-may-delete-model', area: 'models', description: 'A member without the owner role may delete a fine-tuned model.' },
  { name: 'model-list-object-wrong', area: 'models', description: 'GET /v1/models answers {"object": "models"} instead of "list".' },
  { name: 'deleted-model-still-listed', area: 'models', description: 'DELETE /v1/models/{model} answers deleted:true but the model stays retrievable and listed.' },
  { name: 'model-created-not-integer', area: 'models', description: 'Model `created` is an ISO date string instead of a Unix integer.' },
  { name: 'fine-tuned-model-not-listed', area: 'models', description: 'Succeeded fine-tuned models are missing from GET /v1/models.' },
  // engines
  { name: 'engine-ready-missing', area: 'engines', description: 'Engine objects have no `ready` field.' },
  { name: 'engine-object-wrong', area: 'engines', description: 'Engine objects carry object "model" instead of "engine".' },
  { name: 'engines-include-fine-tuned', area: 'engines', description: 'GET /v1/engines also lists fine-tuned models.' },
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
  // streaming
  { name: 'stream-missing-done', area: 'streaming', description: 'Event streams end without the final `data: [DONE]`.' },
  { name: 'stream-event-lines', area: 'streaming', description: 'Event streams carry `event:` and `id:` lines (not data-only).' },
  { name: 'stream-hangs', area: 'streaming', description: 'After the last chunk and [DONE] the response never ends (socket held open).' },
  { name: 'stream-best-of-accepted', area: 'streaming', description: 'stream:true together with best_of > 1 is accepted.' },
  { name: 'stream-json-content-type', area: 'streaming', description: 'Event streams are labelled Content-Type application/json.' },
  { name: 'stream-chat-no-finish-chunk', area: 'streaming', description: 'Chat streams never send the final chunk with delta {} and finish_reason.' },
  // chat
  { name: 'chat-role-bot', area: 'chat', description: 'Assistant messages come back with role "bot".' },
  { name: 'chat-object-wrong', area: 'chat', description: 'Chat results carry object "chat.completions" instead of "chat.completion".' },
  { name: 'chat-empty-messages-accepted', area: 'chat', description: 'An empty messages array is accepted.' },
  { name: 'chat-accepts-completion-model', area: 'chat', description: 'Completion-only models (e.g. davinci) are accepted on /chat/completions.' },
  { name: 'chat-stop-ignored', area: 'chat', description: 'Chat ignores stop sequences.' },
  // edits
  { name: 'edit-accepts-any-model', area: 'edits', description: 'Any model name is accepted on /edits.' },
  { name: 'edit-instruction-optional', area: 'edits', description: 'A missing instruction is accepted.' },
  { name: 'edit-object-wrong', area: 'edits', description: 'Edit results carry object "text_edit" instead of "edit".' },
  // images
  { name: 'image-n-11-accepted', area: 'images', description: 'n above 10 (e.g. 11) is accepted.' },
  { name: 'image-size-ignored', area: 'images', description: 'The size parameter is ignored: every image is 512x512.' },
  { name: 'b64-json-returns-url', area: 'images', description: 'response_format b64_json returns {url} items.' },
  { name: 'image-edit-accepts-non-square', area: 'images', description: 'Non-square PNGs are accepted for edits and variations.' },
  { name: 'image-prompt-1001-accepted', area: 'images', description: 'Prompts longer than 1000 characters are accepted.' },
  { name: 'image-edit-opaque-without-mask', area: 'images', description: 'An edit of a fully opaque image without a mask is accepted.' },
  { name: 'image-item-both-fields', area: 'images', description: 'Data items carry both url and b64_json.' },
  // embeddings
  { name: 'embeddings-1535-dims', area: 'embeddings', description: 'text-embedding-ada-002 vectors have 1535 floats instead of 1536.' },
  { name: 'embeddings-reversed-order', area: 'embeddings', description: 'data items come back in reverse input order (each keeps its own index), so array position no longer matches input order.' },
  { name: 'embeddings-input-too-long-accepted', area: 'embeddings', description: 'Inputs longer than 8192 tokens are accepted.' },
  { name: 'embeddings-index-from-one', area: 'embeddings', description: 'Embedding indexes start at 1.' },
  // audio
  { name: 'audio-temperature-1.5-accepted', area: 'audio', description: 'Audio temperature above 1 (e.g. 1.5) is accepted.' },
  { name: 'srt-malformed-timestamps', area: 'audio', description: 'SRT cues use `HH:MM:SS.mmm` (a dot, as VTT) instead of `HH:MM:SS,mmm`.' },
  { name: 'verbose-json-missing-segments', area: 'audio', description: 'verbose_json has no segments array.' },
  { name: 'whisper-2-accepted', area: 'audio', description: 'Any model name (e.g. whisper-2) is accepted for audio.' },
  { name: 'audio-any-extension-accepted', area: 'audio', description: 'Files with unsupported extensions (e.g. .txt) are accepted.' },
  { name: 'vtt-missing-header', area: 'audio', description: 'VTT output lacks the WEBVTT header.' },
  // files
  { name: 'files-list-other-org', area: 'files', description: 'GET /v1/files also lists files of other organizations.' },
  { name: 'file-content-differs', area: 'files', description: 'GET /v1/files/{id}/content returns bytes that differ from the upload (line endings normalised to CRLF).' },
  { name: 'file-delete-not-removed', area: 'files', description: 'DELETE /v1/files/{id} answers deleted:true but the file stays retrievable.' },
  { name: 'jsonl-missing-completion-accepted', area: 'files', description: 'fine-tune JSONL lines without `completion` are accepted.' },
  { name: 'file-quota-unchecked', area: 'files', description: 'Uploads beyond the per-organization storage quota are accepted.' },
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
  // moderations
  { name: 'moderation-6-categories', area: 'moderations', description: 'Results have 6 categories (violence/graphic missing).' },
  { name: 'moderation-score-above-1', area: 'moderations', description: 'Flagged category scores exceed 1 (scaled to 0..100 internally and not normalised).' },
  { name: 'moderation-flagged-inconsistent', area: 'moderations', description: 'flagged stays false even when a category is true.' },
  { name: 'moderation-array-first-only', area: 'moderations', description: 'An array input yields a single result (for the first element).' },
  { name: 'moderation-any-model-accepted', area: 'moderations', description: 'Any model name is accepted for moderations.' },
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
] as const satisfies readonly FaultSpec[];

export type FaultName = (typeof FAULTS)[number]['name'];

const FAULT_NAMES: ReadonlySet<string> = new Set(FAULTS.map((f) => f.name));

/** Validates requested fault names; unknown names are a programming error in the caller's suite. */
export class UnknownFaultError extends Error {}

export function resolveFaults(requested: readonly string[] = []): ReadonlySet<FaultName> {
  const unknown = requested.filter((n) => !FAULT_NAMES.has(n));
  if (unknown.length > 0) {
    throw new UnknownFaultError(`unknown fault ${unknown.map((u) => `"${u}"`).join(', ')}; the faults are: ${[...FAULT_NAMES].join(', ')}`);
  }
  return new Set(requested as FaultName[]);
}
