// multipart/form-data for the reference server: the shared parser (util/multipart-parse.ts), refusing a malformed body.
import { boundaryOf, parseFormData, type FormFile, type FormParts } from '../util/multipart-parse.ts';
import { invalidRequest } from './http-errors.ts';

export { boundaryOf };
export type UploadedFile = FormFile;
export type FormData = FormParts;

export function parseMultipart(body: Buffer, contentType: string | undefined): FormData {
  const boundary = boundaryOf(contentType);
  if (!boundary) {
    throw invalidRequest('This endpoint expects a multipart/form-data request body (Content-Type multipart/form-data; boundary=...).');
  }
  const parsed = parseFormData(body, boundary);
  if (!parsed.ok) throw invalidRequest(parsed.why);
  return parsed.form;
}
