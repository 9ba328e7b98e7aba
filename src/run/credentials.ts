// Keys and organization IDs: each from its flag, else from its environment variable. A failure's reproduce
// command never carries them (they are secrets), so a rerun finds them only where the environment has them.
import type { Credentials } from '../profile/types.ts';

/** Each credential: its flag, and the environment variable that stands in for the flag. */
export const CREDENTIAL_SOURCES = [
  { key: 'apiKey', flag: 'api-key', env: 'CONFORMANCE_API_KEY' },
  { key: 'memberApiKey', flag: 'member-api-key', env: 'CONFORMANCE_MEMBER_API_KEY' },
  { key: 'organization', flag: 'organization', env: 'CONFORMANCE_ORGANIZATION' },
  { key: 'otherOrganization', flag: 'other-organization', env: 'CONFORMANCE_OTHER_ORGANIZATION' },
] as const satisfies ReadonlyArray<{ key: keyof Credentials; flag: string; env: string }>;

export type CredentialFlags = { readonly [S in (typeof CREDENTIAL_SOURCES)[number] as S['flag']]?: string | undefined };
type Env = Readonly<Record<string, string | undefined>>;

/**
 * The credentials of a run: a flag (given, even empty) wins, then the environment (an empty variable counts as
 * none), then the fallback (the embedded target's own, or a recording's placeholders).
 */
export function credentialsFrom(flags: CredentialFlags, env: Env, fallback: Credentials = {}): Credentials {
  const out: Credentials = {};
  for (const s of CREDENTIAL_SOURCES) {
    const value = flags[s.flag] ?? (env[s.env] || undefined) ?? fallback[s.key];
    if (value) out[s.key] = value;
  }
  return out;
}

/**
 * Credentials this run got from a flag that the environment does not hold as well: a reproduce command, which
 * never carries them, would rerun without them (a case that needs one is then skipped, not failed again).
 */
export function credentialsOnlyInFlags(flags: CredentialFlags, env: Env): Array<(typeof CREDENTIAL_SOURCES)[number]> {
  return CREDENTIAL_SOURCES.filter((s) => !!flags[s.flag] && env[s.env] !== flags[s.flag]);
}

/** One line for the console, under the failures, when a reproduce command would rerun without a credential. */
export function reproduceCredentialsHint(flags: CredentialFlags, env: Env): string | undefined {
  const missing = credentialsOnlyInFlags(flags, env);
  if (missing.length === 0) return undefined;
  const flagsList = missing.map((s) => `--${s.flag}`).join(', ');
  const envList = missing.map((s) => s.env).join(', ');
  return `The reproduce commands leave keys and organizations out; they read them from the environment. This run got ${flagsList} as ${missing.length === 1 ? 'a flag' : 'flags'}: set ${envList} before rerunning one.`;
}
