// A response body as it arrives, before it is decoded: what undici hands the live transport chunk by chunk
// (answer-handler.ts), or the bytes of a recorded answer. Not a Node stream: an answer of a run is read whole and
// at once, and a Readable per answer (its construction, its events one tick apart) cost more per request than
// everything the harness adds around it (the peer workload).

/** Where a body's chunks go, then its end or its failure (one of the two, once). */
export interface RawBodySink {
  data(chunk: Buffer): void;
  end(): void;
  error(err: unknown): void;
}

export interface RawBody {
  /** Delivers the body to `sink`: what arrived before at once, then the rest as it comes. Called once. */
  read(sink: RawBodySink): void;
  /** Sees every chunk too, those that arrived before included (a recording keeps the bytes as they came). */
  observe(chunk: (chunk: Buffer) => void): void;
  /** Nothing more is wanted: the request is aborted (its connection closed) if it is still arriving. */
  destroy(): void;
}

type Settled = { kind: 'end' } | { kind: 'error'; err: unknown };

/** A body undici is still delivering: kept until it is read, then passed on as it comes. */
export class ArrivingBody implements RawBody {
  readonly #cancel: () => void;
  #waiting: Buffer[] = [];
  #settled: Settled | undefined;
  #sink: RawBodySink | undefined;
  #observers: Array<(chunk: Buffer) => void> | undefined;
  #destroyed = false;

  /** `cancel`: aborts the request, when the body is no longer wanted before its end. */
  constructor(cancel: () => void) {
    this.#cancel = cancel;
  }

  push(chunk: Buffer): void {
    if (this.#destroyed) return;
    if (this.#observers) for (const observe of this.#observers) observe(chunk);
    if (this.#sink) this.#sink.data(chunk);
    else this.#waiting.push(chunk);
  }

  finish(): void {
    this.#settle({ kind: 'end' });
  }

  fail(err: unknown): void {
    this.#settle({ kind: 'error', err });
  }

  read(sink: RawBodySink): void {
    if (this.#sink) throw new Error('a body is read once');
    this.#sink = sink;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const chunk of waiting) {
      if (this.#destroyed) return;
      sink.data(chunk);
    }
    if (this.#settled && !this.#destroyed) deliverSettled(sink, this.#settled);
  }

  observe(chunk: (chunk: Buffer) => void): void {
    for (const arrived of this.#waiting) chunk(arrived);
    (this.#observers ??= []).push(chunk);
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#waiting = [];
    if (!this.#settled) this.#cancel();
  }

  #settle(settled: Settled): void {
    if (this.#settled || this.#destroyed) return;
    this.#settled = settled;
    if (this.#sink) deliverSettled(this.#sink, settled);
  }
}

function deliverSettled(sink: RawBodySink, settled: Settled): void {
  if (settled.kind === 'end') sink.end();
  else sink.error(settled.err);
}

/** A body whose bytes are all at hand (a recorded answer); no bytes is no chunk at all, as undici gives it. */
export function bodyOfBytes(bytes: Buffer): RawBody {
  let destroyed = false;
  return {
    read(sink) {
      if (bytes.length > 0) sink.data(bytes);
      if (!destroyed) sink.end();
    },
    observe(chunk) {
      if (bytes.length > 0) chunk(bytes);
    },
    destroy() {
      destroyed = true;
    },
  };
}
