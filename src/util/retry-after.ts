// Retry-After (RFC 9110 §10.2.3), read the same way wherever an answer asks the run to come back later: the
// transport's retries of 429/503 and a poll's waits.

/**
 * The wait a Retry-After asks for, in ms: delay-seconds (digits only) or an HTTP-date; undefined for anything
 * else ("-5", "", "1.5", "soon"), which is no Retry-After at all. V8's Date.parse reads "-5" or "2001" as dates,
 * so a date must name its weekday or month.
 */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[A-Za-z]{3}/.test(v)) return undefined;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
