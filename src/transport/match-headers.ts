// Request headers a recording is matched on: none by default, and only those a user names (an allow-list), so that
// an SDK upgrade (user-agent, x-stainless-*) never breaks a replay. A secret (a key, a cookie) is never one of
// them: it would have to be stored to be matched.


import { SECRET_HEADERS } from '../util/secret-headers.ts';

export class MatchHeaderError extends Error {}

/** The allow-list, lower-cased; a credential header or a malformed name is refused with one clear line. */
export function matchHeaderNames(names: readonly string[] | undefined, secret: readonly string[] = []): string[] {
  const refused = new Set<string>([...SECRET_HEADERS, ...secret.map((s) => s.toLowerCase())]);
  return [...new Set((names ?? []).map((n) => n.trim().toLowerCase()))].map((n) => {
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(n)) throw new MatchHeaderError(`"${n}" is not a header name`);
    if (refused.has(n)) throw new MatchHeaderError(`${n} cannot be matched on: it carries a secret, which a recording never stores`);
    return n;
  }).sort();
}

/** The allowed headers a request carries (lower-case names), or undefined when it carries none of them. */
export function pickHeaders(headers: Readonly<Record<string, string | undefined>>, names: readonly string[]): Record<string, string> | undefined {
  if (names.length === 0) return undefined;
  const out: Record<string, string> = {};
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of names) {
    const v = lower.get(name);
    if (v !== undefined) out[name] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
