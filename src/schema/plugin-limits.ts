/**
 * Plugin length / size limits.
 *
 * Source: service-api-and-plugin-spec.md, section "Limits" (rows "manifest name_for_human,
 * name_for_model", "manifest description_for_human", "manifest description_for_model",
 * "plugin API response body", "OpenAPI operation summary/description", "OpenAPI parameter
 * description") and the note under the "Plugin manifest (ai-plugin.json)" table: "These length
 * maxima may change over time; the description_for_model maximum is stated to be decreasing."
 * Section "Versioning" item 6 repeats that plugin limits may change.
 *
 * Because they change, the harness treats them as configuration: these are only the defaults.
 * The maxLength values in schemas/resources/plugin-manifest.schema.json equal the first four
 * entries; SchemaRegistry.load(dir, { pluginLimits }) rewrites them when overridden.
 */
export const DEFAULT_PLUGIN_LIMITS = {
  /** manifest name_for_model: 50 characters */
  name_for_model: 50,
  /** manifest name_for_human: 50 characters */
  name_for_human: 50,
  /** manifest description_for_model: 8000 characters (decreasing over time) */
  description_for_model: 8000,
  /** manifest description_for_human: 120 characters */
  description_for_human: 120,
  /** plugin API response body: 100000 characters (decreasing over time) */
  apiResponseChars: 100000,
  /** OpenAPI operation summary: 200 characters */
  openapiSummary: 200,
  /** OpenAPI operation description: 200 characters */
  openapiDescription: 200,
  /** OpenAPI parameter description: 200 characters */
  openapiParameterDescription: 200,
} as const;

export type PluginLimits = { -readonly [K in keyof typeof DEFAULT_PLUGIN_LIMITS]: number };

/** The manifest fields whose maxLength is a plugin limit. */
export const MANIFEST_LENGTH_FIELDS = [
  'name_for_model',
  'name_for_human',
  'description_for_model',
  'description_for_human',
] as const;

export type ManifestLengthField = (typeof MANIFEST_LENGTH_FIELDS)[number];

/** Merge overrides into the defaults. */
export function resolvePluginLimits(overrides: Partial<PluginLimits> = {}): PluginLimits {
  return { ...DEFAULT_PLUGIN_LIMITS, ...overrides };
}
