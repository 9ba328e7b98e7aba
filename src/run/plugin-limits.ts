// `plugin_limits` of a config file: read by `run` (for the plugin suites) and by `plugin`.

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { DEFAULT_PLUGIN_LIMITS, type PluginLimits } from '../schema/plugin-limits.ts';
import { UsageError } from './usage-error.ts';

/** `plugin_limits` from a config file (the rest of the file is the target profile, not read here). */
export function readPluginLimits(path: string): Partial<PluginLimits> {
  let data: unknown;
  try {
    data = YAML.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read config ${path}: ${(e as Error).message}`);
  }
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
