// The JSON request fields the spec defines, per endpoint (its request tables, section Endpoints). A client's own
// request may carry others (an SDK's `encoding_format`, `functions`, `tools`, `response_format`...): the spec does
// not say what the answer to such a request is, so a rule it breaks then is a stricter reading, not a must.

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  'POST /v1/completions': ['model', 'prompt', 'suffix', 'max_tokens', 'temperature', 'top_p', 'n', 'stream', 'logprobs', 'echo', 'stop', 'presence_penalty', 'frequency_penalty', 'best_of', 'logit_bias', 'user'],
  'POST /v1/chat/completions': ['model', 'messages', 'temperature', 'top_p', 'n', 'stream', 'stop', 'max_tokens', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'user'],
  'POST /v1/edits': ['model', 'input', 'instruction', 'n', 'temperature', 'top_p'],
  'POST /v1/images/generations': ['prompt', 'n', 'size', 'response_format', 'user'],
  'POST /v1/embeddings': ['model', 'input', 'user'],
  'POST /v1/fine-tunes': ['training_file', 'validation_file', 'model', 'n_epochs', 'batch_size', 'learning_rate_multiplier', 'prompt_loss_weight', 'compute_classification_metrics', 'classification_n_classes', 'classification_positive_class', 'classification_betas', 'suffix'],
  'POST /v1/moderations': ['input', 'model'],
};

/** Fields outside the spec set to a value that asks for the answer the spec describes (floats, as the spec shows). */
const NEUTRAL: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>> = {
  'POST /v1/embeddings': { encoding_format: ['float'] },
};

const KNOWN = new Map(Object.entries(FIELDS).map(([endpoint, names]) => [endpoint, new Set(names)]));

/** The top-level fields of a JSON request body the spec does not define for `endpoint` ("POST /v1/embeddings"). */
export function fieldsOutsideSpec(endpoint: string, json: unknown): string[] {
  const known = KNOWN.get(endpoint);
  if (known === undefined || json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const neutral = NEUTRAL[endpoint] ?? {};
  const body = json as Record<string, unknown>;
  return Object.keys(body).filter((name) => !known.has(name) && !(neutral[name]?.includes(body[name]) ?? false));
}
