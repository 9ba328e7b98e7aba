// How a polling case waits: from the case's interval, doubling up to a ceiling, never sooner than the server's
// Retry-After, and never more than a bounded number of requests (a poll must not hammer a live service).
import { retryAfterMs } from '../../util/retry-after.ts';

/** Requests one poll may send by default; a case can lower or raise it with `poll.max_requests`. */
export const POLL_MAX_REQUESTS = 60;
/** The longest wait between two attempts when the server does not ask for longer. */
export const POLL_MAX_INTERVAL_MS = 5_000;
/** A Retry-After beyond this is not honoured as is: the deadline decides instead. */
const RETRY_AFTER_CAP_MS = 120_000;

/** Milliseconds to wait before attempt `attempt + 1` (attempt counts from 0). */
export function pollDelay(intervalMs: number, attempt: number, answer: { retryAfter: string | undefined; now?: number }): number {
  const { retryAfter, now = Date.now() } = answer;
  const backoff = Math.min(POLL_MAX_INTERVAL_MS, Math.max(0, intervalMs) * 2 ** Math.min(attempt, 20));
  const asked = retryAfterMs(retryAfter, now);
  return Math.max(backoff, Math.min(asked ?? 0, RETRY_AFTER_CAP_MS));
}

