// Reference-server faults of area plugins → the requirement IDs the plugin suite (`plugins`, a
// programmatic suite selected by `--suite plugins`) must fail on. Verified with
// `npx conformance run --suite plugins --fault <name>`.

export const EXPECTED: Record<string, { suites: string[]; requirements: string[] }> = {
  'manifest-name-for-model-51': { suites: ['plugins'], requirements: ['PLUGIN-NAME-FOR-MODEL-MAX50'] },
  'manifest-missing': { suites: ['plugins'], requirements: ['ERR-PLUGIN-NO-MANIFEST', 'PLUGIN-WELL-KNOWN-MANIFEST'] },
  'openapi-operation-without-operation-id': { suites: ['plugins'], requirements: ['PLUGIN-OPENAPI-OPERATION-ID'] },
  'plugin-auth-oauth-localhost': { suites: ['plugins'], requirements: ['PLUGIN-LOCAL-AUTH-NONE'] },
  // Also a PLUGIN-RESPONSES-RAW-DATA warning (should); the must failure is the undocumented media type
  // (text/plain where the description documents application/json).
  'manifest-description-for-human-121': { suites: ['plugins'], requirements: ['PLUGIN-DESC-FOR-HUMAN-MAX120'] },
  'manifest-logo-url-broken': { suites: ['plugins'], requirements: ['PLUGIN-LOGO-URL'] },
  'plugin-response-missing-field': { suites: ['plugins'], requirements: ['PLUGIN-RESPONSES-SCHEMA'] },
  'plugin-response-id-as-string': { suites: ['plugins'], requirements: ['PLUGIN-RESPONSES-SCHEMA'] },
  'plugin-response-oversized': { suites: ['plugins'], requirements: ['PLUGIN-RESPONSE-MAX-100000'] },
  'plugin-auth-none-demands-key': { suites: ['plugins'], requirements: ['PLUGIN-AUTH-NONE'] },
  'openapi-response-schema-missing': { suites: ['plugins'], requirements: ['PLUGIN-OPENAPI-RESPONSES'] },
};

/**
 * Faults the plugin suite detects only as warnings: every requirement they break has severity should
 * in the catalogue (the description rules are heuristics on free text), so no run can fail on them and
 * they cannot be listed in EXPECTED (which requires exit 1 and a failed must-check).
 */
export const WARNED: Record<string, { suites: string[]; requirements: string[] }> = {
  // Prose instead of data breaks the spec's "should carry raw data", and an undocumented media type is a description
  // that could be better: both are shoulds.
  'plugin-response-not-json': { suites: ['plugins'], requirements: ['PLUGIN-RESPONSES-DOCUMENTED', 'PLUGIN-RESPONSES-RAW-DATA'] },
  // CORS is asked for "when a proxy is used", which is not observable: the reading plugin-no-cors conforms.
  'plugin-no-cors': { suites: ['plugins'], requirements: ['PLUGIN-CORS-HOST-ORIGIN'] },
  'manifest-description-steers-model': { suites: ['plugins'], requirements: ['PLUGIN-DESC-NO-TONE', 'PLUGIN-DESC-NO-PUSH'] },
};
