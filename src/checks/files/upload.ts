// Files: the upload response describes the uploaded file; later retrievals describe the same file.

import type { ResponseCheck } from '../types.ts';
import { bodyOf, finding, historyParam, unlessHistoryOk, unlessOkJson, uploadedFile } from './support.ts';
import { caseParam } from '../params.ts';

/** Spec, Resources / File: bytes | integer | size; filename; purpose. */
export const fileEchoesUpload: ResponseCheck = {
  kind: 'response',
  name: 'file_echoes_upload',
  requirements: ['FILE-UPLOAD-FIELDS-ECHO'],
  severity: 'must',
  summary: 'the File has bytes = the uploaded size, the uploaded filename and the requested purpose',
  skipWhen: unlessOkJson,
  run: (exchange, ctx) => {
    const sent = uploadedFile(exchange);
    if (!sent) throw new Error('file_echoes_upload applies to a multipart upload with a `file` part');
    const purpose = ctx.request.multipartFields?.purpose;
    const body = bodyOf(exchange)!;
    const out = [];
    if (body.bytes !== sent.size) out.push(finding('/bytes', 'bytes is not the size of the uploaded file', sent.size, body.bytes));
    if (body.filename !== sent.filename) out.push(finding('/filename', 'filename is not the uploaded file name', sent.filename, body.filename));
    if (purpose !== undefined && body.purpose !== purpose) out.push(finding('/purpose', 'purpose is not the requested purpose', purpose, body.purpose));
    return out;
  },
};

const SAME_FIELDS = ['id', 'bytes', 'filename', 'purpose'] as const;

/** Spec, Files: Retrieve file → File (the same file the upload returned). Params: upload (case id). */
export const fileSameAsUpload: ResponseCheck = {
  kind: 'response',
  name: 'file_same_as_upload',
  requirements: ['FILE-RETRIEVE'],
  severity: 'must',
  summary: 'the retrieved File has the id, bytes, filename and purpose of the upload response',
  params: { upload: caseParam('the case that uploaded the file') },
  skipWhen: (exchange, ctx) => unlessOkJson(exchange) ?? unlessHistoryOk(ctx, 'upload'),
  run: (exchange, ctx) => {
    const uploaded = bodyOf(historyParam(ctx, 'upload').exchange!)!;
    const body = bodyOf(exchange)!;
    return SAME_FIELDS.filter((k) => body[k] !== uploaded[k]).map((k) => finding(`/${k}`, `${k} differs from the upload response`, uploaded[k], body[k]));
  },
};
