// One Exchange shape for every transport (live, record, replay): checks only ever see this.

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH' | 'OPTIONS' | 'HEAD';

/** What was sent, in a form fit for reports and cassettes: secrets already redacted. */
export type RequestBodySummary =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; value: string }
  | { kind: 'multipart'; fields: Record<string, string>; files: MultipartFileSummary[] };

export interface MultipartFileSummary {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  /** Human description of the fixture the file was built from, e.g. "png 256x256 alpha=transparent-region". */
  fixture?: string;
  /**
   * The content of a small text file (JSONL, text; at most 64 KiB), kept so a differential run can send it again.
   * Image and audio fixtures are rebuilt from their description instead; their bytes are never stored.
   */
  text?: string;
}

export interface OutgoingRequest {
  method: HttpMethod;
  /** Absolute URL including query string. */
  url: string;
  /** Headers as sent (may hold secrets; never stored as-is). */
  headers: Record<string, string>;
  body?: Uint8Array;
  /** The redacted, readable form of the body. */
  bodySummary: RequestBodySummary;
  /** Read the body as server-sent events. */
  stream: boolean;
}

export interface ExchangeRequest {
  method: HttpMethod;
  url: string;
  /** Redacted headers (lower-case names). */
  headers: Record<string, string>;
  body: RequestBodySummary;
}

export interface SseEvent {
  /** The joined `data:` lines of the event. */
  data: string;
  /** Field names other than `data` that the event carried (`event`, `id`, `retry`): the spec wants data-only events. */
  otherFields: string[];
  /** Byte offset of the event's first byte in the stream, for messages. */
  offset: number;
}

/** How a stream ended: after `data: [DONE]`, at end of body without it, by stalling, or by a transport error. */
export type StreamEnd = 'done' | 'eof' | 'timeout' | 'error';

export interface StreamSummary {
  /** Events kept for reports: the first and last few, so long streams stay in constant memory. */
  sample: SseEvent[];
  eventCount: number;
  end: StreamEnd;
  /** Non-blank bytes received after `data: [DONE]` (should be empty), capped. */
  afterDone: string;
  bytes: number;
  /** Why the stream ended as it did, for messages. */
  detail?: string;
  /** The body stayed open after `data: [DONE]` (reading stopped after the idle timeout). */
  openAfterDone?: boolean;
}

/** `not-sent`: the run stopped the suite (a problem of the run) before this request went; the target saw nothing. */
export type TransportErrorKind = 'timeout' | 'network' | 'too-large' | 'stall' | 'unmatched' | 'aborted' | 'rate-limited' | 'not-sent';

export interface TransportError {
  kind: TransportErrorKind;
  message: string;
}

export interface ExchangeResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Raw body bytes (absent for streams: those are folded event by event). */
  bytes?: Uint8Array;
  /** Body decoded as UTF-8, when it is text. */
  text?: string;
  /** Parsed JSON when the body parses as JSON (`undefined` otherwise). */
  json?: unknown;
  /** True when the body hit the response size cap and was cut. */
  truncated: boolean;
  /** Set when a textual body is not valid UTF-8: it is then not parsed as JSON (`text` is its lenient decoding). */
  invalidUtf8?: string;
}

export interface Exchange {
  request: ExchangeRequest;
  response?: ExchangeResponse;
  stream?: StreamSummary;
  error?: TransportError;
  /** Bytes of URLs the case asked to follow (e.g. image URLs), by URL. */
  attachments: Record<string, Attachment>;
  /** Answers to the requests a case sent for each selected item (`follow.each`), in item order. */
  followed?: FollowedItems;
  timing: { startedAt: number; durationMs: number };
  /**
   * Sent a second time, on a new connection: the first went out on a connection the target closed before the
   * answer's headers came whole (a keep-alive race, or an upload answered early and its connection dropped).
   */
  resent?: 'connection reset';
}

export interface FollowedItems {
  /** How many items the pointer selected; `answers` may hold fewer (the budget). */
  selected: number;
  answers: FollowedAnswer[];
}

export interface FollowedAnswer {
  /** Where the item sits in the case's answer, e.g. /data/3/id. */
  at: string;
  item: unknown;
  status: number;
  json?: unknown;
  error?: string;
  /**
   * Answered 404, and no longer in a fresh copy of the case's answer: deleted between the list and its
   * retrieval (by another suite of a --jobs run, or by anyone sharing the organization), not a fault.
   */
  gone?: true;
}

export interface Attachment {
  status: number;
  contentType: string;
  bytes?: Uint8Array;
  error?: string;
}

export interface SendOptions {
  /** The whole exchange (for streams: a stream that keeps sending, `stream_total_ms`). */
  timeoutMs: number;
  /** Until the response headers arrive (default `timeoutMs`): `--timeout` bounds it for streams too. */
  headersTimeoutMs?: number;
  /**
   * The whole exchange when the answer turns out to be no event stream (a stream was asked for, a JSON body came):
   * what the response is decides how it is bounded, not what was asked for. Default `timeoutMs`.
   */
  wholeTimeoutMs?: number;
  /** For streams: the longest quiet gap tolerated between bytes. */
  idleTimeoutMs?: number;
  /** Called for each SSE event as it arrives (streams are checked incrementally). */
  onEvent?: (event: SseEvent, index: number) => void;
  signal?: AbortSignal;
  /**
   * false: a 429/503 answer is the answer (the case is about that status); 'rate-limit': only a 429 is retried (a
   * poll waits for a 503 on its own terms, a model loading); default true.
   */
  retry?: boolean | 'rate-limit';
  /**
   * A request whose connection the target closed before the answer's headers came whole is sent once more on a
   * new connection: by default only with a safe method (GET, HEAD, OPTIONS); true for a request the caller knows
   * would be answered the same if sent twice, false never (it creates a resource, or undoes one).
   */
  resendOnReset?: boolean;
  /**
   * Awaited before such a request is sent once more: the second sending is a request like any other, and takes its
   * token of the run's rate limit (--rate-limit) first.
   */
  beforeResend?: () => Promise<void>;
  /**
   * Called once the whole body of an answer that is not an event stream has been read, before it is decoded and
   * parsed, with its status and headers. Return true when the caller sent a request from it: the transport then
   * lets one turn of the event loop pass (see next-turn.ts), so that request is on the wire while this answer is
   * decoded, parsed and judged. Not called for an answer the transport will not return as it is (a retried 429),
   * nor by transports that send nothing (replay).
   */
  onBody?: (head: AnswerHead) => boolean;
  /**
   * The URL came from an answer (an image URL to follow), not from --base-url: that it cannot be reached is a finding
   * on the target, never a problem of the run.
   */
  pointedTo?: true;
}

/** An answer's status and (lower-cased) headers, before its body is decoded. */
export interface AnswerHead {
  status: number;
  headers: Record<string, string>;
}

export interface Transport {
  readonly name: 'live' | 'record' | 'replay';
  send(request: OutgoingRequest, options: SendOptions): Promise<Exchange>;
  /** Called after each suite: recorders flush that suite's cassette here. */
  endSuite?(suite: string, meta: Record<string, unknown>): Promise<void>;
  /** Called before each suite: replay loads that suite's cassette here. */
  beginSuite?(suite: string): Promise<void>;
  /**
   * The transport as one suite sends through it, when that matters: a replay serves each suite from its own
   * cassette, so suites may be replayed at once (--jobs). Its beginSuite and endSuite are that suite's.
   */
  forSuite?(suite: string): Transport;
  /** `complete: false` when the run did not finish (interrupted, crashed): a recorder then replaces nothing. */
  close(outcome?: { complete: boolean }): Promise<void>;
}
