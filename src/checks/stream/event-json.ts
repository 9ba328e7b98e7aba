// One JSON parse per streamed event, shared by every check that folds the stream: a long stream is parsed once,
// not once per check (less work, and far less garbage for the collector to catch up with).

import type { SseEvent } from '../../transport/types.ts';

const NOT_JSON: unique symbol = Symbol('not JSON');
const parsed = new WeakMap<SseEvent, unknown>();

/** The event's data parsed as JSON; throws a SyntaxError when it is not JSON (as JSON.parse would). */
export function eventJson(event: SseEvent): unknown {
  let value = parsed.get(event);
  if (value === undefined && !parsed.has(event)) {
    try {
      value = JSON.parse(event.data) as unknown;
    } catch {
      value = NOT_JSON;
    }
    parsed.set(event, value);
  }
  if (value === NOT_JSON) throw new SyntaxError(`event data is not JSON: ${event.data.slice(0, 60)}`);
  return value;
}
