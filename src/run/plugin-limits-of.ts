// `plugin_limits` of a config file already parsed. Without a YAML parser of its own: a run that reads its config
// once, for the profile, takes these from the same parse.

import { DEFAULT_PLUGIN_LIMITS, type PluginLimits } from '../schema/plugin-limits.ts';
import { UsageError } from './usage-error.ts';

/** `plugin_limits` of a config file already read (`run` reads the file once, for the profile and for these). */
export function pluginLimitsOf(data: unknown, path: string): Partial<PluginLimits> {
  const raw = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)['plugin_limits'] : undefined;
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${path}: plugin_limits must be a mapping`);
  const out: Partial<PluginLimits> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!(k in DEFAULT_PLUGIN_LIMITS)) throw new UsageError(`${path}: unknown plugin limit "${k}" (known: ${Object.keys(DEFAULT_PLUGIN_LIMITS).join(', ')})`);
    if (!Number.isInteger(v) || (v as number) < 1) throw new UsageError(`${path}: plugin_limits.${k} must be an integer ≥ 1`);
    out[k as keyof PluginLimits] = v as number;
  }
  return out;
}
