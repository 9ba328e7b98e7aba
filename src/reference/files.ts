// /v1/files: upload (multipart), list, retrieve, content, delete. Files belong to an organization.
import type { Caller } from './accounts.ts';
import type { App, Ctx } from './context.ts';
import { invalidRequest, notFound } from './http-errors.ts';
import { sendBytes } from './http-io.ts';
import { parseMultipart } from './multipart.ts';
import { unixSeconds } from './random.ts';
import { countTokens } from './tokenizer.ts';
import { Fields } from './validate.ts';
import type { FileObject, StoredFile, TrainingExample } from './entities.ts';

export const FINE_TUNE_PURPOSE = 'fine-tune';
export const RESULTS_PURPOSE = 'fine-tune-results';
/** Spec: prompt + completion of one training example must not exceed 2048 tokens. */
export const MAX_EXAMPLE_TOKENS = 2048;


export function storeFile(app: App, orgId: string, filename: string, purpose: string, content: Buffer): StoredFile {
  const file: FileObject = {
    id: app.ids.next('file-'),
    object: 'file',
    bytes: content.length,
    created_at: unixSeconds() * (app.fault('file-created-at-ms') ? 1000 : 1),
    filename,
    purpose,
    status: 'uploaded',
    status_details: null,
  };
  const stored: StoredFile = { file, orgId, content };
  app.state.files.set(file.id, stored);
  return stored;
}

/** A file visible to the caller's organization, or a 404 (another org's file is indistinguishable from none). */
export function fileOfCaller(app: App, caller: Caller, id: string, param = 'id', anyOrg = false): StoredFile {
  const stored = app.state.files.get(id);
  if (!stored || (stored.orgId !== caller.org.id && !anyOrg)) throw notFound(`No such File object: ${id}`, param);
  return stored;
}

/** Faults file-delete-*: files a DELETE answered for but that still linger in one view (content or list). */
const lingering = new WeakMap<App, Map<string, StoredFile>>();
function lingeringFiles(app: App): Map<string, StoredFile> {
  let files = lingering.get(app);
  if (!files) lingering.set(app, (files = new Map()));
  return files;
}

function usedBytes(app: App, orgId: string): number {
  let total = 0;
  for (const f of app.state.files.values()) if (f.orgId === orgId) total += f.file.bytes;
  return total;
}

/** Parses fine-tune JSONL: every non-empty line a JSON object with string prompt and completion. */
export function parseTrainingJsonl(content: Buffer, requireCompletion = true, skipInvalidJson = false): TrainingExample[] {
  const examples: TrainingExample[] = [];
  content
    .toString('utf8')
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const where = `line ${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        if (skipInvalidJson) return;
        throw invalidRequest(`Invalid file format for fine-tune: ${where} is not valid JSON.`, 'file');
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw invalidRequest(`Invalid file format for fine-tune: ${where} is not a JSON object.`, 'file');
      }
      const { prompt, completion } = value as Record<string, unknown>;
      if (typeof prompt !== 'string') throw invalidRequest(`Invalid file format for fine-tune: ${where} has no string 'prompt'.`, 'file');
      if (typeof completion !== 'string' && requireCompletion) {
        throw invalidRequest(`Invalid file format for fine-tune: ${where} has no string 'completion'.`, 'file');
      }
      const text = typeof completion === 'string' ? completion : '';
      if (countTokens(prompt) + countTokens(text) > MAX_EXAMPLE_TOKENS) {
        throw invalidRequest(`Invalid file format for fine-tune: ${where} has more than ${MAX_EXAMPLE_TOKENS} tokens in prompt + completion.`, 'file');
      }
      examples.push({ prompt, completion: text });
    });
  if (examples.length === 0) throw invalidRequest('Invalid file format for fine-tune: the file contains no examples.', 'file');
  return examples;
}

export function uploadFile(ctx: Ctx): unknown {
  const form = parseMultipart(ctx.body, ctx.req.headers['content-type']);
  const fields = new Fields(form.fields, true);
  const upload = form.files.file;
  if (!upload) throw invalidRequest("'file' is a required property", 'file');
  const purpose = fields.string('purpose', { required: true });
  // "values that occur: ... search": occurring is not being accepted at upload (search-upload-refused).
  if (purpose === 'search' && ctx.reading('search-upload-refused')) throw invalidRequest("'search' is not one of ['fine-tune'] - 'purpose'", 'purpose');
  // "makes the service validate the format": at upload, or (file-validation-late) before the file is used.
  if (purpose === FINE_TUNE_PURPOSE && !ctx.reading('file-validation-late')) parseTrainingJsonl(upload.data, !ctx.fault('jsonl-missing-completion-accepted'), ctx.fault('jsonl-invalid-json-accepted'));
  const quota = ctx.app.options.quotaBytes;
  const used = usedBytes(ctx.app, ctx.caller.org.id);
  if (used + upload.data.length > quota && !ctx.fault('file-quota-unchecked')) {
    throw invalidRequest(
      `File storage quota exceeded: the organization uses ${used} of ${quota} bytes and this file has ${upload.data.length} bytes.`,
      'file',
      'quota_exceeded',
    );
  }
  const filename = ctx.fault('file-filename-not-echoed') ? 'file' : upload.filename.split(/[\\/]/).pop() || 'file';
  const stored = storeFile(ctx.app, ctx.caller.org.id, filename, ctx.fault('file-purpose-not-echoed') ? FINE_TUNE_PURPOSE : purpose, upload.data);
  if (ctx.fault('file-bytes-counts-characters')) stored.file.bytes = [...upload.data.toString('utf8')].length;
  const response = { ...stored.file };
  // Processing is instantaneous here: the upload answers "uploaded", later reads see "processed".
  stored.file.status = 'processed';
  return response;
}

export function listFiles(ctx: Ctx): unknown {
  const listed = [...ctx.app.state.files.values(), ...(ctx.fault('file-delete-still-listed') ? lingeringFiles(ctx.app).values() : [])];
  const data = listed
    .filter((f) => ctx.fault('files-list-other-org') || f.orgId === ctx.caller.org.id)
    .map((f) => f.file);
  return { object: 'list', data };
}

export function retrieveFile(ctx: Ctx): unknown {
  return fileOfCaller(ctx.app, ctx.caller, ctx.params.id!, 'id', ctx.fault('file-retrieve-other-org')).file;
}

export function downloadFileContent(ctx: Ctx): undefined {
  const ghost = ctx.fault('file-delete-content-still-served') ? lingeringFiles(ctx.app).get(ctx.params.id!) : undefined;
  const stored = ghost?.orgId === ctx.caller.org.id ? ghost : fileOfCaller(ctx.app, ctx.caller, ctx.params.id!, 'id', ctx.fault('file-content-other-org'));
  const content = ctx.fault('file-content-differs') ? Buffer.from(stored.content.toString('utf8').replace(/\r?\n/g, '\r\n')) : stored.content;
  sendBytes(ctx.res, 200, 'application/octet-stream', content, {
    'Content-Disposition': `attachment; filename="${stored.file.filename.replace(/"/g, '')}"`,
  });
  return undefined;
}

export function deleteFile(ctx: Ctx): unknown {
  const stored = fileOfCaller(ctx.app, ctx.caller, ctx.params.id!, 'id', ctx.fault('file-delete-other-org'));
  if (!ctx.fault('file-delete-not-removed')) ctx.app.state.files.delete(stored.file.id);
  if (ctx.fault('file-delete-content-still-served') || ctx.fault('file-delete-still-listed')) lingeringFiles(ctx.app).set(stored.file.id, stored);
  return { id: stored.file.id, object: 'file', deleted: true };
}
