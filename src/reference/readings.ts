// Readings: where the spec allows more than one reasonable behaviour, the reference server serves one by default
// and can serve each other one on demand. Every must check has to hold under all of them (the trust tests run the
// suites against each switch and against all of them at once), so a reading is never a way to stop catching a
// fault: it changes what a conformant server may do, not what a broken one does.
//
// Each reading names the register entries (requirements with `readings:` in suites/requirements.yaml) whose other
// reading it serves.

export interface ReadingSpec {
  name: string;
  /** The catalogue entries whose alternative reading this serves. */
  requirements: readonly string[];
  description: string;
}

export const READINGS = [
  { name: 'best-of-stream-json', requirements: ['COMP-BEST-OF-NO-STREAM'], description: 'stream with best_of > 1 is answered with one JSON result, not refused (best_of results cannot be streamed)' },
  { name: 'chat-empty-messages', requirements: ['CHAT-MESSAGES-REQUIRED'], description: 'messages: [] is accepted: it is present, and an array of (zero) chat messages' },
  { name: 'created-201', requirements: ['GEN-METHOD-POST-BODY'], description: 'every POST of the API that succeeds answers 201, not 200 (the spec states no success code)' },
  { name: 'embeddings-unordered', requirements: ['EMB-ONE-PER-INPUT'], description: 'embeddings of an array come in the order they finished (reversed), each with its own index' },
  { name: 'model-retrieve-lean', requirements: ['MODEL-RETRIEVE'], description: 'a retrieved Model has the Model table\'s fields only, created stamped when it answers, no root or parent' },
  { name: 'stream-chunks-without-index', requirements: ['STREAM-CHUNK-SHAPE'], description: 'the chunks of a one-choice stream carry no index (the chunk shape is not shown)' },
  { name: 'transparency-alpha-channel', requirements: ['IMG-EDIT-TRANSPARENCY-NO-MASK'], description: 'an image with an alpha channel counts as transparent for an edit without mask, even when every pixel is opaque' },
  { name: 'plugin-no-cors', requirements: ['PLUGIN-CORS-HOST-ORIGIN'], description: 'the plugin host sends no CORS headers (no proxy is used: the spec asks for CORS only then)' },
  { name: 'events-newest-first', requirements: ['FT-EVENTS-MATCH-JOB'], description: 'GET /v1/fine-tunes/{id}/events lists the newest event first (the spec states no order for a list)' },
  { name: 'event-messages-reworded', requirements: ['FT-EVENTS-ORDER', 'FT-STATE-SUCCEEDED-EVENTS', 'FT-STATE-CREATE-ENQUEUE-EVENT', 'FT-EVENT-STARTED'], description: 'fine-tune events say their meaning in other words ("Waiting in line at position 0", "Model <name> saved", "Job completed")' },
  { name: 'event-levels-other', requirements: ['RES-FT-EVENT-LEVEL'], description: 'fine-tune events after the enqueue event have levels other than info (notice, success)' },
  { name: 'events-stream-new-only', requirements: ['STREAM-FT-EVENTS-SSE'], description: 'the events stream sends only events created after it opened' },
  { name: 'cancel-method-put', requirements: ['FT-CANCEL'], description: 'cancel is served to PUT, and POST answers 404 as an unknown route (the method is not shown)' },
  { name: 'late-cancel-recorded', requirements: ['FT-STATE-TERMINAL-STABLE'], description: 'cancelling a job that already finished is done (status cancelled), not refused' },
  { name: 'jobs-by-id-open', requirements: ['FT-LIST-ORG-SCOPED'], description: 'jobs of any organization the key belongs to are reachable by id (the spec scopes only their list)' },
  { name: 'search-upload-refused', requirements: ['RES-FILE-PURPOSE-VALUES'], description: 'an upload with purpose search is refused (the values that occur need not be accepted at upload)' },
  { name: 'ccm-checked-late', requirements: ['FT-CCM-REQUIRES-VALIDATION', 'FT-CCM-REQUIRES-CLASS'], description: 'compute_classification_metrics without what it requires is accepted at create (and computes no metrics)' },
  { name: 'context-plus-one', requirements: ['COMP-CONTEXT-EXCEEDED'], description: 'a completion may use one token more than the nominal context (the real service reported 2049 for 2048)' },
  { name: 'chat-context-caps', requirements: ['CHAT-CONTEXT-EXCEEDED'], description: 'a chat max_tokens beyond what the context leaves is accepted, and generation stops at the context' },
  { name: 'model-ids-with-slash', requirements: ['MODEL-RETRIEVE'], description: 'the model list also holds an owner/name id (meta-llama/Llama-2-7b-chat-hf), served at /v1/models/{model} percent-encoded' },
  { name: 'moderation-extra-categories', requirements: ['MOD-CATEGORIES-EXACT', 'MOD-SCORES-EXACT'], description: 'moderation results carry four more categories (harassment, harassment/threatening, self-harm/intent, self-harm/instructions), as the upgraded 2023 models did' },
  { name: 'engine-created-null', requirements: ['RES-TIMESTAMPS-INT'], description: 'engines carry created: null, a field the Engine table does not list (the 2022 engines did)' },
  { name: 'embeddings-array-cap', requirements: ['EMB-INPUT-MAX-8192'], description: 'an array in input holds at most 2048 items, so 8192 tokens go only as a string' },
  { name: 'chat-stop-included', requirements: ['CHAT-STOP-HONOURED'], description: 'a chat answer that ends at a stop sequence keeps the sequence (the exclusion is stated for completions only)' },
  { name: 'file-validation-late', requirements: ['FILE-FINE-TUNE-VALIDATION'], description: 'a fine-tune file is validated when a job names it, not at upload: an invalid file is stored, and the job that names it refused' },
  { name: 'refusal-5xx', requirements: ['ERR-4XX-NOT-5XX'], description: 'invalid requests are refused with 500 and an error body, not 400 (the spec states no error codes)' },
] as const satisfies readonly ReadingSpec[];

export type ReadingName = (typeof READINGS)[number]['name'];

const READING_NAMES: ReadonlySet<string> = new Set(READINGS.map((r) => r.name));

export class UnknownReadingError extends Error {}

/** `alt` stands for every reading at once. */
export function resolveReadings(requested: readonly string[] = []): ReadonlySet<ReadingName> {
  if (requested.includes('alt')) return new Set(READINGS.map((r) => r.name));
  const unknown = requested.filter((n) => !READING_NAMES.has(n));
  if (unknown.length > 0) {
    throw new UnknownReadingError(`unknown reading ${unknown.map((u) => `"${u}"`).join(', ')}: \`conformance serve --help\` lists the readings (or --readings alt for all)`);
  }
  return new Set(requested as ReadingName[]);
}
