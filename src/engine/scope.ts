// The built-in variables every suite's templates can read.

import type { TargetProfile } from '../profile/types.ts';
import { ROLES } from '../profile/types.ts';
import { contextLengthOf } from '../profile/profile.ts';
import { skipReason } from './admission.ts';

export const BUILTIN_VARIABLES = ['models', 'context', 'organization', 'other_organization', 'run_id', 'seed', 'base_url', 'plugin_url'] as const;

export const builtinVariableNames: ReadonlySet<string> = new Set(BUILTIN_VARIABLES);

export function builtinScope(profile: TargetProfile, seed: number): Record<string, unknown> {
  // Unknown context lengths are null: cases at the context boundary are skipped for them (skipReason).
  const context: Record<string, number | null> = {};
  for (const role of ROLES) context[role] = contextLengthOf(profile, profile.models[role]) ?? null;
  return {
    models: { ...profile.models, ...profile.optionalModels },
    context,
    organization: profile.credentials.organization ?? null,
    other_organization: profile.credentials.otherOrganization ?? null,
    run_id: runIdFor(seed),
    seed,
    base_url: profile.baseUrl,
    plugin_url: profile.pluginUrl ?? null,
  };
}

/** Short and deterministic in the seed, so replays send what the recording sent. */
export function runIdFor(seed: number): string {
  return 'r' + (seed >>> 0).toString(36);
}
