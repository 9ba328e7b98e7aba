// RFC 7578 multipart/form-data, parsed from a fully read body. Shared by the reference server (which refuses a
// malformed body) and the traffic judge (which summarises what a client uploaded, boundary aside).

export interface FormFile {
  filename: string;
  contentType: string | undefined;
  data: Buffer;
}

export interface FormParts {
  fields: Record<string, string>;
  files: Record<string, FormFile>;
}

export type FormParse = { ok: true; form: FormParts } | { ok: false; why: string };

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

export function parseFormData(body: Buffer, boundary: string): FormParse {
  const delimiter = Buffer.from(`--${boundary}`);
  // Field names come from the client: no prototype, so `__proto__` or `constructor` are plain names.
  const form: FormParts = { fields: Object.create(null) as FormParts['fields'], files: Object.create(null) as FormParts['files'] };
  let pos = body.indexOf(delimiter);
  if (pos < 0) return { ok: false, why: 'Malformed multipart body: boundary not found.' };
  for (;;) {
    pos += delimiter.length;
    // `--` right after a delimiter closes the body.
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break;
    if (body.subarray(pos, pos + 2).equals(CRLF)) pos += 2;
    const headerEnd = body.indexOf(HEADER_END, pos);
    if (headerEnd < 0) return { ok: false, why: 'Malformed multipart body: part without header terminator.' };
    const next = body.indexOf(delimiter, headerEnd + 4);
    if (next < 0) return { ok: false, why: 'Malformed multipart body: missing closing boundary.' };
    const headers = parsePartHeaders(body.toString('utf8', pos, headerEnd));
    // The part's data ends before the CRLF that precedes the next delimiter.
    addPart(form, headers, body.subarray(headerEnd + 4, next - 2));
    pos = next;
  }
  return { ok: true, form };
}

function parsePartHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function dispositionParam(disposition: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition) ?? new RegExp(`(?:^|;)\\s*${key}=([^;]+)`, 'i').exec(disposition);
  return m?.[1]?.trim();
}

function addPart(form: FormParts, headers: Record<string, string>, data: Buffer): void {
  const disposition = headers['content-disposition'] ?? '';
  const name = dispositionParam(disposition, 'name');
  if (!name) return;
  const filename = dispositionParam(disposition, 'filename');
  if (filename !== undefined) {
    form.files[name] = { filename, contentType: headers['content-type'], data };
  } else {
    form.fields[name] = data.toString('utf8');
  }
}
