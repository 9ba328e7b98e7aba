// `plugin_limits` of a config file already parsed. Without a YAML parser of its own: a run that reads its config
// once, for the profile, takes these from the same parse.

import { DEFAULT_PLUGIN_LIMITS, type PluginLimits } from '../schema/plugin-limits.ts';
import { UsageError } from './usage-error.ts';
import { nearest } from '../util/nearest.ts';

/**
 * The config file's names of the limits: snake_case, as every key of the file is (and as the manifest's own fields
 * are named). The camelCase names of the library's options are still read, for files written before.
 */
const CONFIG_NAMES: Readonly<Record<string, keyof PluginLimits>> = {
  ...Object.fromEntries(Object.keys(DEFAULT_PLUGIN_LIMITS).map((k) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), k as keyof PluginLimits])),
  ...Object.fromEntries(Object.keys(DEFAULT_PLUGIN_LIMITS).map((k) => [k, k as keyof PluginLimits])),
};
const SHOWN = Object.keys(DEFAULT_PLUGIN_LIMITS).map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** `plugin_limits` of a config file already read (`run` reads the file once, for the profile and for these). */
export function pluginLimitsOf(data: unknown, path: string): Partial<PluginLimits> {
  const raw = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)['plugin_limits'] : undefined;
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${path}: plugin_limits must be a mapping`);
  const out: Partial<PluginLimits> = {};
  for (const [k, v] of Object.entries(raw)) {
    const key = Object.hasOwn(CONFIG_NAMES, k) ? CONFIG_NAMES[k]! : undefined;
    if (key === undefined) {
      const guess = nearest(k, SHOWN);
      throw new UsageError(`${path}: unknown plugin limit "${k}"${guess ? ` — did you mean "${guess}"?` : ''} (known: ${SHOWN.join(', ')})`);
    }
    if (!Number.isInteger(v) || (v as number) < 1) throw new UsageError(`${path}: plugin_limits.${k} must be an integer ≥ 1`);
    out[key] = v as number;
  }
  return out;
}
