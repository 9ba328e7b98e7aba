/**
 * The response-only plugin checks (manifest, auth, description heuristics, remote-HTTPS from the URLs,
 * OpenAPI description) over the real recorded manifests and OpenAPI documents in
 * ../shared/real-responses/plugins (read at test time, never copied).
 *
 * Every must-check passes except where CONTRADICTIONS names a place a recording contradicts the spec;
 * those are checked both ways (each listed check fails, nothing else fails). SKIPS lists recordings not
 * checked at all, with the reason. Should-check warnings (heuristics) are listed, never required.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { MANIFEST_CHECKS } from '../../src/checks/plugins/manifest.ts';
import { OPENAPI_CHECKS } from '../../src/checks/plugins/openapi.ts';
import { RULE_CHECKS } from '../../src/checks/plugins/rules.ts';
import { findingsOf, type CheckContext, type ResponseCheck } from '../../src/checks/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import type { Exchange } from '../../src/transport/types.ts';
import { sharedDir } from '../../src/util/paths.ts';
import { sharedPresent } from '../shared.ts';

const dir = path.join(sharedDir, 'real-responses', 'plugins');
const schemas = SchemaRegistry.load();

const SKIPS: Record<string, string> = {
  '026-store-canva-openapi.json': 'the recording is an HTML web page (the crawler did not get the OpenAPI document), not a response of api.url',
};

const NO_IS_USER_AUTH = 'api.is_user_authenticated missing (early manifests used has_user_authentication; store copies drop the key)';
/** A should since the manifest table does not say each field of api is required: these warn, and only warn. */
const IUA = { check: 'plugin_manifest_api_is_user_authenticated', why: NO_IS_USER_AUTH };
const LACK_IUA = new Set(['001-wellknown-slack_com.json', '002-wellknown-klarna_com.json', '003-wellknown-zapier_com.json', '004-wellknown-pricerunner_se.json', '005-wellknown-server_shop_app.json', '006-wellknown-wolframalpha_com.json', '007-wellknown-wolframcloud_com.json', '008-store-Zapier.json', '010-store-noteable.json', '012-store-Wolfram.json', '014-store-expedia.json', '015-store-kiwicom_assistant_and_flights_search.json', '017-store-wikipedia.json', '019-store-speak.json', '021-store-KAYAK.json', '023-store-Instacart.json', '025-store-canva.json', '027-openai-plugins-quickstart-todo.json', '029-retrieval-user_http.json', '030-retrieval-example-no-auth.json', '032-retrieval-example-service_http.json', '033-retrieval-example-user_http.json', '034-retrieval-example-memory.json', '031-retrieval-example-oauth.json']);
const LEGAL_NOT_URL = { check: 'plugin_manifest_legal_info_url', why: 'legal_info_url "hello@legal.com" is not a URL' };
/** Not valid against the official OpenAPI 3.0 JSON Schema: a should (PLUGIN-OPENAPI-SCHEMA-VALID), so these warn. */
const NOT_OAS30: Record<string, string> = {
  '009-store-Zapier-openapi.json': 'a parameter schema uses JSON-Schema "examples", which OpenAPI 3.0 Schema objects do not allow',
  '016-store-kiwicom_assistant_and_flights_search-openapi.json': 'paths has a "*" key (paths must start with /)',
  '020-store-speak-openapi.json': 'property schemas use "required: true" (a boolean; OpenAPI 3.0 wants a list on the object)',
  '024-store-Instacart-openapi.json': 'property schemas use "required: true"',
  '028-openai-plugins-quickstart-todo-openapi.json': 'property schemas use "required: true"',
  '035-retrieval-openapi.json': 'servers is nested inside info',
};

/** Where a recording contradicts the spec: these checks fail, and only these. */
const CONTRADICTIONS: Record<string, Array<{ check: string; why: string }>> = {
  '001-wellknown-slack_com.json': [{ check: 'plugin_manifest_contact_email', why: 'contact_email is "TODO"' }, { check: 'plugin_manifest_legal_info_url', why: 'legal_info_url is "TODO"' }],
  '009-store-Zapier-openapi.json': [
    { check: 'plugin_openapi_description_length', why: 'an operation description has 228 characters' },
  ],
  '011-store-noteable-openapi.json': [{ check: 'plugin_openapi_description_length', why: 'an operation description has 231 characters' }],
  '013-store-Wolfram-openapi.json': [
    { check: 'plugin_openapi_version', why: 'OpenAPI 3.1.0, not 3.0.x' },
    { check: 'plugin_openapi_info', why: 'info has no description' },
    { check: 'plugin_openapi_responses', why: 'text/plain responses without schema' },
    { check: 'plugin_openapi_components', why: 'no components' },
  ],
  '016-store-kiwicom_assistant_and_flights_search-openapi.json': [
    { check: 'plugin_openapi_servers', why: 'no servers' },
    { check: 'plugin_openapi_description_length', why: 'an operation description has 226 characters' },
    { check: 'plugin_openapi_parameter_description_length', why: 'parameter descriptions of 269 characters' },
    { check: 'plugin_openapi_components', why: 'no components' },
  ],
  '018-store-wikipedia-openapi.json': [{ check: 'plugin_openapi_summary_length', why: 'a summary has 292 characters' }],
  '022-store-KAYAK-openapi.json': [{ check: 'plugin_openapi_summary_length', why: 'a summary has 262 characters' }],
  '030-retrieval-example-no-auth.json': [LEGAL_NOT_URL],
  '031-retrieval-example-oauth.json': [
    LEGAL_NOT_URL,
    { check: 'plugin_manifest_auth_oauth_client_url', why: 'client_url is the placeholder "e.g. https://<your domain>/oauth/v2/authorize"' },
    { check: 'plugin_manifest_auth_oauth_authorization_url', why: 'authorization_url is a placeholder "e.g. https://<your domain>/…"' },
  ],
  '032-retrieval-example-service_http.json': [LEGAL_NOT_URL],
  '033-retrieval-example-user_http.json': [LEGAL_NOT_URL],
  '034-retrieval-example-memory.json': [LEGAL_NOT_URL],
  '035-retrieval-openapi.json': [
    { check: 'plugin_openapi_servers', why: 'no top-level servers (they are inside info)' },
    { check: 'plugin_openapi_description_length', why: 'an operation description has 236 characters' },
  ],
};

interface Recording {
  file: string;
  endpoint: string;
  tier: string;
  exchange: Exchange;
}

function load(file: string): Recording {
  const rec = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const body = rec.response.body;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const url = `https://${rec.request.headers?.host ?? 'plugin.example'}${rec.request.path}`;
  return {
    file, endpoint: rec.endpoint, tier: rec.tier,
    exchange: {
      request: { method: 'GET', url, headers: {}, body: { kind: 'none' } },
      response: { status: rec.response.status, headers: rec.response.headers ?? {}, text, truncated: false, ...(typeof body === 'object' && body !== null ? { json: body } : {}) },
      attachments: {}, timing: { startedAt: 0, durationMs: 0 },
    },
  };
}

const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
const MANIFEST_ONLY = [...MANIFEST_CHECKS.filter((c) => c.name !== 'plugin_logo_served'), ...RULE_CHECKS.filter((c) => c.name.startsWith('plugin_description_') || c.name === 'plugin_remote_https')];

function evaluate(rec: Recording): { failed: string[]; warned: string[]; passed: number } {
  const isManifest = rec.endpoint.includes('ai-plugin.json');
  const checks: ResponseCheck[] = isManifest ? MANIFEST_ONLY : OPENAPI_CHECKS;
  const ctx: CheckContext = {
    request: { method: 'GET', path: new URL(rec.exchange.request.url).pathname, query: {}, stream: false },
    profile: buildProfile({}, { baseUrl: rec.exchange.request.url }), vars: {}, schemas, params: {}, history: new Map(),
  };
  const failed: string[] = [];
  const warned: string[] = [];
  let passed = 0;
  for (const c of checks) {
    if (c.skipWhen?.(rec.exchange, ctx)) continue;
    const findings = findingsOf(c.run(rec.exchange, ctx));
    if (findings.length === 0) passed++;
    else (c.severity === 'must' ? failed : warned).push(c.name);
  }
  return { failed, warned, passed };
}

describe.skipIf(!sharedPresent('real-responses/plugins'))('plugin checks over the real recorded manifests and OpenAPI documents', () => {
  it('every recording is listed as clean, contradicting or skipped', () => {
    expect(files.length).toBeGreaterThan(30);
    for (const name of [...Object.keys(SKIPS), ...Object.keys(CONTRADICTIONS)]) expect(files, name).toContain(name);
  });

  it.each(files.filter((f) => !(f in SKIPS)))('%s', (file) => {
    const rec = load(file);
    const { failed, warned, passed } = evaluate(rec);
    expect(passed).toBeGreaterThan(0);
    const expected = (CONTRADICTIONS[file] ?? []).map((c) => c.check);
    expect([...new Set(failed)].sort()).toEqual([...new Set(expected)].sort());
    expect(warned.includes(IUA.check), `${file}: ${IUA.why}`).toBe(LACK_IUA.has(file));
    expect(warned.includes('plugin_openapi_schema'), `${file}: ${NOT_OAS30[file] ?? 'valid against the OpenAPI 3.0 schema'}`).toBe(file in NOT_OAS30);
  });

  it('lists the skips with reasons and the should-warnings (heuristics) seen', () => {
    const lines: string[] = [];
    for (const [file, reason] of Object.entries(SKIPS)) lines.push(`skip ${file}: ${reason}`);
    for (const file of files.filter((f) => !(f in SKIPS))) {
      const { warned } = evaluate(load(file));
      if (warned.length) lines.push(`warn ${file}: ${warned.join(', ')}`);
    }
    console.log(`\n${lines.join('\n')}`);
    // The one clear tone instruction in the corpus is flagged.
    expect(evaluate(load('014-store-expedia.json')).warned).toContain('plugin_description_no_tone');
    // "Use it whenever a user asks …" is the user asking for the service, not a push.
    expect(evaluate(load('017-store-wikipedia.json')).warned).not.toContain('plugin_description_no_push');
  });

  it('YAML documents parse (by content or by trying)', () => {
    const rec = load('020-store-speak-openapi.json');
    expect(typeof rec.exchange.response!.text).toBe('string');
    expect(YAML.parse(rec.exchange.response!.text!).openapi).toBe('3.0.1');
  });
});
