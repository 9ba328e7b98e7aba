// Data-only server-sent events written chunk by chunk, yielding to the event loop between writes so
// every chunk leaves the socket as its own flush.
import type { ServerResponse } from 'node:http';

export interface SseBehaviour {
  /** Write `data: [DONE]` before ending (spec: streams end with it). */
  doneMarker: boolean;
  /** Fault: add `event:`/`id:` lines. */
  eventLines: boolean;
  /** Fault: never end the response (the server's close() tears the socket down). */
  hang: boolean;
  contentType: string;
  /** Fault: one more chunk after `data: [DONE]`. */
  chunkAfterDone?: unknown;
}

export const CONFORMANT_SSE: SseBehaviour = { doneMarker: true, eventLines: false, hang: false, contentType: 'text/event-stream' };

export class SseStream {
  private eventId = 0;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly behaviour: SseBehaviour = CONFORMANT_SSE,
  ) {
    res.on('close', () => {
      this.closed = true;
    });
    res.writeHead(200, {
      'Content-Type': behaviour.contentType,
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    });
    res.flushHeaders();
  }

  /** True once the client went away; producers stop early. */
  get isClosed(): boolean {
    return this.closed;
  }

  async send(payload: unknown): Promise<void> {
    await this.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  /** Ends the stream: `data: [DONE]` then the end of the response (unless a fault says otherwise). */
  async finish(): Promise<void> {
    if (this.behaviour.doneMarker) await this.write('data: [DONE]\n\n');
    if (this.behaviour.chunkAfterDone !== undefined) await this.send(this.behaviour.chunkAfterDone);
    if (this.behaviour.hang || this.closed) return;
    this.res.end();
  }

  private async write(event: string): Promise<void> {
    if (this.closed) return;
    const framed = this.behaviour.eventLines ? `event: message\nid: ${++this.eventId}\n${event}` : event;
    const flushed = this.res.write(framed);
    if (!flushed) {
      await new Promise<void>((resolve) => {
        this.res.once('drain', resolve);
        this.res.once('close', resolve);
      });
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
