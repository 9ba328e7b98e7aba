// Fixed accounts of the reference server: which API key belongs to which organizations, with which role.
import type { IncomingMessage } from 'node:http';
import { ApiError, unauthorized } from './http-errors.ts';

export type Role = 'owner' | 'member';

export interface Organization {
  id: string;
  /** Slug used inside fine-tuned model names (`curie:ft-<name>:...`). */
  name: string;
}

export interface Membership {
  org: Organization;
  role: Role;
}

export interface Caller {
  apiKey: string;
  org: Organization;
  role: Role;
}

/**
 * Whether the caller's key belongs to an organization. The spec scopes lists to "the caller's organization", not
 * access by id: with the reading jobs-by-id-open, a key reaches by id the jobs any of its organizations holds.
 */
export function keyReaches(caller: Caller, orgId: string): boolean {
  return (API_KEYS[caller.apiKey] ?? []).some((m) => m.org.id === orgId);
}

export const ORGANIZATIONS = {
  main: { id: 'org-ref-main', name: 'ref-main' },
  other: { id: 'org-ref-other', name: 'ref-other' },
} as const satisfies Record<string, Organization>;

/** Memberships per key; the first entry is the key's default organization. */
export const API_KEYS: Readonly<Record<string, readonly Membership[]>> = {
  'sk-ref-owner': [
    { org: ORGANIZATIONS.main, role: 'owner' },
    { org: ORGANIZATIONS.other, role: 'member' },
  ],
  'sk-ref-member': [{ org: ORGANIZATIONS.main, role: 'member' }],
};

export const CREDENTIALS = {
  apiKey: 'sk-ref-owner',
  memberApiKey: 'sk-ref-member',
  organization: ORGANIZATIONS.main.id,
  otherOrganization: ORGANIZATIONS.other.id,
} as const;

export const ORGANIZATION_HEADER = 'service-organization';

export interface AuthFaults {
  missingKeyAccepted: boolean;
  invalidKeyAccepted: boolean;
  foreignOrganizationAccepted: boolean;
  /** Fault: keys compared on their first 8 characters only. */
  keyPrefixMatch: boolean;
  /** Fault: the token is read under any scheme (Token, Basic…), not only Bearer. */
  anyScheme?: boolean;
}

/** Masks a key the way the real service echoes it: first 8 chars, ****, last 4. */
function maskKey(key: string): string {
  return key.length <= 12 ? `${key.slice(0, 3)}****` : `${key.slice(0, 8)}****${key.slice(-4)}`;
}

export function authenticate(req: IncomingMessage, faults: AuthFaults): Caller {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? (faults.anyScheme ? /^\S+\s+(\S+)\s*$/ : /^Bearer\s+(\S+)\s*$/i).exec(header) : null;
  let apiKey = match?.[1];
  if (apiKey === undefined) {
    if (!faults.missingKeyAccepted) {
      throw unauthorized(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      );
    }
    apiKey = CREDENTIALS.apiKey;
  }
  let memberships = API_KEYS[apiKey];
  if (!memberships && faults.keyPrefixMatch) memberships = Object.entries(API_KEYS).find(([k]) => k.slice(0, 8) === apiKey!.slice(0, 8))?.[1];
  if (!memberships) {
    if (!faults.invalidKeyAccepted) {
      throw unauthorized(`Incorrect API key provided: ${maskKey(apiKey)}. You can find your API key in your account settings.`);
    }
    memberships = API_KEYS[CREDENTIALS.apiKey]!;
  }
  return { apiKey, ...selectOrganization(req, memberships, faults) };
}

function selectOrganization(req: IncomingMessage, memberships: readonly Membership[], faults: AuthFaults): Membership {
  const requested = req.headers[ORGANIZATION_HEADER];
  const fallback = memberships[0]!;
  if (typeof requested !== 'string' || requested.trim() === '') return fallback;
  const found = memberships.find((m) => m.org.id === requested.trim());
  if (found) return found;
  if (faults.foreignOrganizationAccepted) return fallback;
  throw new ApiError(401, `No such organization: ${requested.trim()}, or you are not a member of it.`, 'invalid_request_error', null, 'invalid_organization');
}
