// An exchange no suite made (a client's own request through the proxy, a recording judged offline), read into the
// one Exchange shape: the request body summarised as a run summarises its own (JSON; multipart by fields and file
// hashes, so a boundary never matters), the answer read as the live transport reads it (body-decode.ts), an event
// stream folded as it arrives in constant memory (StreamTap).

import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { PlannedRequestView } from '../checks/types.ts';
import { isEventStreamType } from '../util/content-type.ts';
import { boundaryOf, parseFormData } from '../util/multipart-parse.ts';
import { SseParser } from './sse.ts';
import type { HttpMethod, RequestBodySummary, SseEvent, StreamSummary } from './types.ts';

/** Small text uploads (JSONL, text) are kept whole, as a run keeps its own: a differential run can send them again. */
const TEXT_KEPT_BYTES = 64 * 1024;
const SAMPLE_HEAD = 20;
const SAMPLE_TAIL = 5;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The request body as a run would summarise it: JSON parsed, multipart by fields and files, text as text. */
export function summariseBody(contentType: string | undefined, body: Buffer): RequestBodySummary {
  if (body.length === 0) return { kind: 'none' };
  const boundary = boundaryOf(contentType);
  if (boundary !== undefined) {
    const parsed = parseFormData(body, boundary);
    if (parsed.ok) {
      return {
        kind: 'multipart',
        fields: { ...parsed.form.fields },
        files: Object.entries(parsed.form.files).map(([field, f]) => ({
          field, filename: f.filename, contentType: f.contentType ?? 'application/octet-stream', size: f.data.length, sha256: sha256(f.data),
          // Whatever its declared type (clients send JSONL as application/octet-stream), a small UTF-8 upload is
          // kept whole, so a differential run can send it again; an image or a recording never is.
          ...(f.data.length <= TEXT_KEPT_BYTES && isUtf8(f.data) && !/^(image|audio|video)\//i.test(f.contentType ?? '') ? { text: f.data.toString('utf8') } : {}),
        })),
      };
    }
  }
  const text = body.toString('utf8');
  if (/json/i.test(contentType ?? '') || /^\s*[{[]/.test(text)) {
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch {
      // not JSON after all: kept as text
    }
  }
  return { kind: 'text', value: text };
}

/** What a check reads of a request: its path, query, JSON or form fields, and whether it asked for a stream. */
export function requestView(method: HttpMethod, url: string, body: RequestBodySummary): PlannedRequestView {
  const u = new URL(url);
  const json = body.kind === 'json' ? body.value : undefined;
  const fields = body.kind === 'multipart' ? body.fields : undefined;
  const query = Object.fromEntries(u.searchParams);
  const asked = (json !== null && typeof json === 'object' && (json as Record<string, unknown>).stream === true) || query.stream === 'true' || fields?.stream === 'true';
  return { method, path: u.pathname, query, ...(json !== undefined ? { json } : {}), ...(fields ? { multipartFields: fields } : {}), stream: asked };
}

/** Whether an answer is read as events: it says it is an event stream. */
export function isStreamAnswer(headers: Record<string, string>): boolean {
  return isEventStreamType(headers['content-type']);
}

/** An event stream folded as its bytes pass: events to a callback, a bounded sample, and how it ended. */
export class StreamTap {
  readonly #parser: SseParser;
  readonly #head: SseEvent[] = [];
  readonly #tail: SseEvent[] = [];
  #tailAt = 0;
  #count = 0;

  constructor(onEvent: (event: SseEvent, index: number) => void = () => {}) {
    this.#parser = new SseParser((event) => {
      const index = this.#count++;
      if (index < SAMPLE_HEAD) this.#head.push(event);
      else if (this.#tail.length < SAMPLE_TAIL) this.#tail.push(event);
      else {
        this.#tail[this.#tailAt] = event;
        this.#tailAt = (this.#tailAt + 1) % SAMPLE_TAIL;
      }
      onEvent(event, index);
    });
  }

  feed(chunk: Uint8Array): void {
    this.#parser.feed(chunk);
  }

  /** The stream's summary once its body ended (`error`: how the transfer broke off, if it did). */
  finish(error?: string): StreamSummary {
    const parser = this.#parser;
    parser.end();
    const done = parser.doneSeen;
    const events = `${this.#count} event${this.#count === 1 ? '' : 's'}`;
    const summary: StreamSummary = {
      sample: this.#tail.length === 0 ? this.#head : this.#head.concat(this.#tail.slice(this.#tailAt), this.#tail.slice(0, this.#tailAt)),
      eventCount: this.#count, end: done ? 'done' : error !== undefined ? 'error' : 'eof', afterDone: parser.afterDone, bytes: parser.bytes,
    };
    if (error !== undefined) summary.detail = `${error} (after ${events})`;
    else if (!done) summary.detail = `stream ended without data: [DONE] after ${events}${parser.incomplete !== '' ? ` (incomplete final event discarded: ${parser.incomplete})` : ''}`;
    return summary;
  }
}
