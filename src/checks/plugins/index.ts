// Checks of the plugins area, registered in checks/index.ts. They are pure: the plugin suite
// (src/plugin/suite.ts) fetches the manifest, the OpenAPI description and the operations, then runs
// these over the Exchanges.

import type { Check } from '../types.ts';
import { MANIFEST_CHECKS } from './manifest.ts';
import { OPENAPI_CHECKS } from './openapi.ts';
import { RULE_CHECKS } from './rules.ts';

export const PLUGINS_CHECKS: readonly Check[] = [...MANIFEST_CHECKS, ...OPENAPI_CHECKS, ...RULE_CHECKS];

const byName = new Map(PLUGINS_CHECKS.map((c) => [c.name, c]));

/** A plugin check by name (throws on a typo: the suite's plan is code). */
export function pluginCheck(name: string): Check {
  const c = byName.get(name);
  if (!c) throw new Error(`no plugin check named "${name}"`);
  return c;
}

/** Check names by group: the cases of the plugin suite. */
export const PLUGIN_CHECK_GROUPS = {
  manifest: MANIFEST_CHECKS.filter((c) => c.name.startsWith('plugin_manifest_') && !c.name.startsWith('plugin_manifest_auth')).map((c) => c.name),
  auth: MANIFEST_CHECKS.filter((c) => c.name.startsWith('plugin_manifest_auth')).map((c) => c.name),
  logo: ['plugin_logo_found', 'plugin_logo_served'],
  description: ['plugin_description_no_tone', 'plugin_description_no_push', 'plugin_description_no_triggers', 'plugin_description_plugin_for'],
  openapi: OPENAPI_CHECKS.map((c) => c.name),
  transport: ['plugin_remote_https', 'plugin_local_http', 'plugin_local_auth_none'],
  cors: ['plugin_cors_host_origin'],
  operation: ['plugin_operation_described', 'plugin_operation_auth_none', 'plugin_operation_documented_response', 'plugin_operation_body_schema', 'plugin_operation_body_schema_strict', 'plugin_operation_raw_data', 'plugin_operation_response_size'],
} as const;
