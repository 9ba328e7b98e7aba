// What a recording writes in place of the values its own timing and ports chose, so that the same suites,
// seed and target give byte-identical cassettes (the manifest's recorded_at aside):
//   - the origin of the embedded reference server (an ephemeral port) → the same origin on a fixed port of the
//     same number of digits;
//   - Unix timestamps in created/created_at/updated_at within two days of the recording → one fixed instant;
//   - HTTP dates and ISO-8601 instants within two days of the recording → the same fixed instant;
//   - date stamps inside names (fine-tuned models: …-2026-11-24-22-58-12) → fixed instants one second apart,
//     in order of first appearance, so distinct names stay distinct.
// Replacements keep each value's format and length, and are applied to the whole cassette text at once, so a
// value captured from a recorded answer and sent in a later recorded request is replaced the same way in both.
// Values far from the recording's time (model creation dates, a user's own timestamps) are left alone.

export const FIXED_EPOCH = 1_700_000_000; // 2023-11-14T22:13:20Z
const WINDOW_SECONDS = 2 * 24 * 3600;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface PlaceholderContext {
  /** Origins that the run chose (the embedded reference server's), e.g. http://127.0.0.1:35977. */
  origins: readonly string[];
  /** The recording's time, in Unix seconds. */
  nowSeconds: number;
}

/** http://127.0.0.1:35977 → http://127.0.0.1:40000 (same number of port digits, so lengths do not change). */
export function placeholderOrigin(origin: string): string {
  return origin.replace(/:(\d+)$/, (_, port: string) => `:4${'0'.repeat(port.length - 1)}`);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function near(seconds: number, ctx: PlaceholderContext): boolean {
  return Math.abs(seconds - ctx.nowSeconds) <= WINDOW_SECONDS;
}

function stamp(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}-${pad(date.getUTCHours())}-${pad(date.getUTCMinutes())}-${pad(date.getUTCSeconds())}`;
}

function httpDate(date: Date): string {
  return `${DAYS[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} GMT`;
}

const fixed = new Date(FIXED_EPOCH * 1000);

export function withPlaceholders(text: string, ctx: PlaceholderContext): string {
  let out = text;
  for (const origin of ctx.origins) out = out.split(origin).join(placeholderOrigin(origin));
  out = out.replace(/(\\?"(?:created|created_at|updated_at)\\?"\s*:\s*)(\d{9,11})(?!\d)/g, (m, key: string, n: string) => (near(Number(n), ctx) ? `${key}${FIXED_EPOCH}` : m));
  out = out.replace(/(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/g, (m) => (near(Date.parse(m) / 1000, ctx) ? httpDate(fixed) : m));
  out = out.replace(/(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z/g, (m, _d: string, _t: string, frac: string | undefined) => {
    if (!near(Date.parse(m) / 1000, ctx)) return m;
    const iso = fixed.toISOString().slice(0, 19);
    return `${iso}${frac === undefined ? '' : `.${'0'.repeat(frac.length - 1)}`}Z`;
  });
  const stamps = new Map<string, string>();
  out = out.replace(/(?<!\d)(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})(?!\d)/g, (m, y: string, mo: string, d: string, h: string, mi: string, s: string) => {
    if (!near(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) / 1000, ctx)) return m;
    let to = stamps.get(m);
    if (to === undefined) stamps.set(m, (to = stamp(new Date((FIXED_EPOCH + stamps.size) * 1000))));
    return to;
  });
  return out;
}
