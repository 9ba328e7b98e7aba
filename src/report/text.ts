// Small text helpers shared by the reporters: ANSI styling, truncation, sanitising untrusted text.

export interface Style {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const identity = (s: string) => s;

export function style(color: boolean): Style {
  if (!color) return { red: identity, yellow: identity, green: identity, cyan: identity, dim: identity, bold: identity };
  return { red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), cyan: wrap(36, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

/** Cut `s` to at most `max` UTF-16 units (never splitting a surrogate pair), noting how much was dropped. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = max;
  const code = s.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${s.slice(0, cut)}… (+${s.length - cut} chars)`;
}

/**
 * Make untrusted text (server responses, messages) safe to print: control characters other than
 * newline and tab become visible escapes, so a response can never emit ANSI sequences or reset the terminal.
 */
export function sanitize(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, (c) => {
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Compact JSON for humans; values JSON cannot express fall back to String(). */
export function compactJson(value: unknown, max: number): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    s = undefined;
  }
  if (s === undefined) s = String(value);
  return truncate(s, max);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} min ${s} s`;
}

export function indent(s: string, prefix: string): string {
  return s
    .split('\n')
    .map((line) => (line.length > 0 ? prefix + line : line))
    .join('\n');
}

/**
 * Retries and waits, one sentence for the console and summary.md: never a verdict. Waits are summed over the
 * suites that ran at once, so they may add up to more than the run took.
 */
export function retriesSentence(retries: { count: number; waitedMs: number; byStatus: Record<string, number> }): string {
  const waited = `${formatDuration(retries.waitedMs)} waited in all (summed over suites running at once)`;
  if (retries.count === 0) return `no request retried; ${waited} for the rate limit — never a verdict`;
  const statuses = Object.keys(retries.byStatus).sort().join(' or ');
  return `${retries.count} ${retries.count === 1 ? 'request' : 'requests'} retried after ${statuses}; ${waited} for retries and the rate limit — never a verdict`;
}
