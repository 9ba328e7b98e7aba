// Files: GET /v1/files/{id}/content returns the content of the file — exactly what was uploaded.

import { createHash } from 'node:crypto';
import type { ResponseCheck } from '../types.ts';
import { finding, historyParam, unlessOk, uploadedFile } from './support.ts';
import { caseParam } from '../params.ts';
import { isSuccess } from '../../util/status.ts';

/** Spec, Files: "Retrieve file content ... returns the content of the file" (its format not shown). Params: upload (case id). */
export const fileContentMatchesUpload: ResponseCheck = {
  kind: 'response',
  name: 'file_content_matches_upload',
  requirements: ['FILE-CONTENT'],
  severity: 'must',
  summary: 'the content is byte for byte the uploaded file (same size and sha256)',
  params: { upload: caseParam('the case that uploaded the file') },
  skipWhen: (exchange, ctx) => {
    const why = unlessOk(exchange);
    if (why) return `${why}; file_content_get_accepted reports the refusal`;
    const { caseId, exchange: upload } = historyParam(ctx, 'upload');
    if (!upload) return `case "${caseId}" did not run`;
    return uploadedFile(upload) ? undefined : `case "${caseId}" sent no multipart file part`;
  },
  run: (exchange, ctx) => {
    const sent = uploadedFile(historyParam(ctx, 'upload').exchange)!;
    const bytes = exchange.response?.bytes;
    if (!bytes) return [finding('', 'the response has no body bytes', `${sent.size} bytes`, exchange.response?.truncated ? 'truncated' : 'none')];
    if (exchange.response?.truncated) return [finding('', 'the body was cut at the response size limit', `${sent.size} bytes`, 'truncated')];
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length === sent.size && sha === sent.sha256) return [];
    // The body's format is not shown: a JSON string holding the file's text (a web framework returning the
    // text it read) is the content too.
    const json = exchange.response?.json;
    if (typeof json === 'string') {
      const text = Buffer.from(json, 'utf8');
      if (text.length === sent.size && createHash('sha256').update(text).digest('hex') === sent.sha256) return [];
    }
    return [finding('', bytes.length === sent.size ? 'the content has the uploaded size but different bytes' : 'the content size differs from the upload', `${sent.size} bytes, sha256 ${sent.sha256}`, `${bytes.length} bytes, sha256 ${sha}`)];
  },
};

/** The method of the content endpoint is "not shown"; GET is the convention (and what the service uses). */
export const fileContentGetAccepted: ResponseCheck = {
  kind: 'response',
  name: 'file_content_get_accepted',
  requirements: ['FILE-CONTENT-METHOD'],
  severity: 'should',
  summary: 'file content is served to GET (the method is not shown in the spec)',
  run: (exchange) => {
    const status = exchange.response?.status;
    return isSuccess(status) ? [] : [finding('', `GET ${exchange.request.url} was not served`, '2xx', status ?? 'no response')];
  },
};
