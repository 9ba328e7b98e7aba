// Stream framing for completions and chat, with the streaming-area faults applied in one place.
import type { Ctx } from './context.ts';
import type { SseBehaviour } from './sse.ts';

export function streamBehaviour(ctx: Ctx): SseBehaviour {
  return {
    doneMarker: !ctx.fault('stream-missing-done'),
    eventLines: ctx.fault('stream-event-lines'),
    hang: ctx.fault('stream-hangs'),
    contentType: ctx.fault('stream-json-content-type') ? 'application/json' : 'text/event-stream',
    ...(ctx.fault('stream-chunk-after-done') ? { chunkAfterDone: { object: 'text_completion', choices: [{ text: '', index: 0, logprobs: null, finish_reason: null }] } } : {}),
  };
}

/**
 * The `index` field of a chunk's choice. The chunk shape is "not shown" (Events 5): with the reading
 * `stream-chunks-without-index`, a stream of one choice leaves the index out (there is nothing to tell apart).
 */
export function chunkIndex(ctx: Ctx, choices: number, index: number): { index?: number } {
  return choices === 1 && ctx.reading('stream-chunks-without-index') ? {} : { index };
}
