// `plugin_limits` of a config file: read by `run` (for the plugin suites) and by `plugin`.

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { PluginLimits } from '../schema/plugin-limits.ts';
import { pluginLimitsOf } from './plugin-limits-of.ts';
import { UsageError } from './usage-error.ts';

/** `plugin_limits` from a config file (the rest of the file is the target profile, not read here). */
export function readPluginLimits(path: string): Partial<PluginLimits> {
  let data: unknown;
  try {
    data = YAML.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read config ${path}: ${(e as Error).message}`);
  }
  return pluginLimitsOf(data, path);
}
