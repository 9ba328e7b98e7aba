// Whether a selected case may send its request: credentials, context lengths, captures it needs.

import type { TargetProfile } from '../profile/types.ts';
import { holdsTemplate, referencedNames, type Scope } from '../suite/template.ts';
import type { CaseSpec, NEEDS } from '../suite/types.ts';
import { type Root } from '../judge/results.ts';

/** Whether a case's request is fixed by its plan alone: nothing rendered from captures, no poll, follow or stream. */
export function independentRequest(c: CaseSpec): boolean {
  return factsOf(c) === NO_FACTS && !c.poll && !c.follow && !c.request.stream;
}

/**
 * Whether a case can run: a reason to skip it (credentials the run lacks, a capture an earlier case did not
 * make without failing), or the root that blocks it (a capture whose case failed). Its request is never sent.
 */
export function dependencyOf(c: CaseSpec, profile: TargetProfile, suite: { scope: Scope; captureRoots: ReadonlyMap<string, Root> }): { skip: string; blocked?: undefined } | { blocked: Root; skip?: undefined } | undefined {
  const { scope, captureRoots } = suite;
  const skip = skipReason(c, profile, scope);
  if (!skip) return undefined;
  const missing = factsOf(c).names.filter((n) => !(n in scope));
  const root = missing.map((n) => captureRoots.get(n)).find((r) => r !== undefined);
  return root && !c.skip && !(c.needs ?? []).some((n) => needUnmet(n, profile)) ? { blocked: root } : { skip };
}

/** What a case's templates refer to, found once per case (plans are never mutated). */
export interface CaseFacts { contextRoles: string[]; namesNonChat: boolean; names: string[] }

export const caseFacts = new WeakMap<CaseSpec, CaseFacts>();

export const NO_FACTS: CaseFacts = { contextRoles: [], namesNonChat: false, names: [] };

export function factsOf(c: CaseSpec): CaseFacts {
  let facts = caseFacts.get(c);
  if (facts) return facts;
  // Names, context lengths and models are read only through templates: a case without one refers to nothing.
  if (!holdsTemplate(c.request) && !holdsTemplate(c.expect) && !holdsTemplate(c.poll)) facts = NO_FACTS;
  else {
    const withPoll = JSON.stringify([c.request, c.expect ?? {}, c.poll ?? {}]);
    facts = {
      contextRoles: [...withPoll.matchAll(/\bcontext\.([a-z_]+)/g)].map((m) => m[1]!),
      namesNonChat: /\bmodels\.non_chat\b/.test(JSON.stringify([c.request, c.expect ?? {}])),
      names: referencedNames([c.request, c.expect ?? {}, c.poll ?? {}]),
    };
  }
  caseFacts.set(c, facts);
  return facts;
}

/** What each `needs:` entry asks of the profile, and what to pass when it is missing. */
export const NEED_RULES: Readonly<Record<(typeof NEEDS)[number], { met: (p: TargetProfile) => boolean; hint: string }>> = {
  member_api_key: { met: (p) => !!p.credentials.memberApiKey, hint: 'needs --member-api-key or CONFORMANCE_MEMBER_API_KEY (a key of the same organization without the owner role)' },
  organization: { met: (p) => !!p.credentials.organization, hint: 'needs --organization or CONFORMANCE_ORGANIZATION (without it no Service-Organization header is sent)' },
  other_organization: { met: (p) => !!p.credentials.otherOrganization, hint: 'needs --other-organization or CONFORMANCE_OTHER_ORGANIZATION (a second organization of the key)' },
  api_key: { met: (p) => !!p.credentials.apiKey, hint: 'needs --api-key or CONFORMANCE_API_KEY' },
  plugin_url: { met: (p) => !!p.pluginUrl, hint: 'needs --plugin-url' },
};

export function needUnmet(need: string, profile: TargetProfile): boolean {
  const rule = NEED_RULES[need as keyof typeof NEED_RULES];
  return rule !== undefined && !rule.met(profile);
}

export function skipReason(c: CaseSpec, profile: TargetProfile, scope: Scope): string | undefined {
  if (c.skip) return c.skip;
  const unmet = (c.needs ?? []).find((need) => needUnmet(need, profile));
  if (unmet) return NEED_RULES[unmet as keyof typeof NEED_RULES].hint;
  const facts = factsOf(c);
  const context = scope['context'] as Record<string, number | null> | undefined;
  for (const role of facts.contextRoles) {
    if (context?.[role] === null) return `the context length of ${profile.models[role as keyof typeof profile.models] ?? role} (the ${role} model) is not known: add it to context_lengths in the config file`;
  }
  if (facts.namesNonChat && !profile.optionalModels.non_chat) return 'needs a model the target serves without chat support: --model non_chat=NAME (or models.non_chat in the config file)';
  const missing = facts.names.filter((n) => !(n in scope));
  if (missing.length) return `depends on ${missing.map((m) => `"${m}"`).join(', ')}, which an earlier case did not capture`;
  return undefined;
}
