// The manifest (GET /.well-known/ai-plugin.json): every field of the spec's manifest table and each auth
// variant. Field rules come from schemas/resources/plugin-manifest.schema.json (whose length maxima the
// registry rewrites from the configured plugin limits); each check reports only the schema issues under
// its own field, plus the few rules a schema does not say (non-empty, absolute URLs, media types).

import type { CheckContext, Finding, ResponseCheck, Severity } from '../types.ts';
import type { Exchange } from '../../transport/types.ts';
import { charCount, isAbsoluteHttpUrl, isObject, limitsOf, manifestOf, MANIFEST_REF, ok, show, skipUnlessManifest, type Json } from './shared.ts';
import type { ManifestLengthField } from '../../schema/plugin-limits.ts';
import { PLUGIN_LIMITS } from '../params.ts';

/** Schema issues of the manifest, with `required` issues pointed at the missing property itself. */
function manifestIssues(manifest: Json, ctx: CheckContext): Array<Finding & { keyword: string }> {
  return ctx.schemas.validate(MANIFEST_REF, manifest).map((i) => {
    let pointer = i.pointer === '/' ? '' : i.pointer;
    if (i.keyword === 'required' && typeof i.expected === 'string') pointer = `${pointer}/${i.expected.replace(/^property /, '')}`;
    return { pointer, message: i.message, expected: i.expected, actual: i.actual, keyword: i.keyword };
  });
}

function issuesAt(manifest: Json, ctx: CheckContext, field: string, keep: (keyword: string) => boolean): Finding[] {
  return manifestIssues(manifest, ctx)
    .filter((i) => (i.pointer === field || i.pointer.startsWith(`${field}/`)) && keep(i.keyword))
    .map(({ keyword: _k, ...f }) => f);
}

const notLength = (k: string): boolean => k !== 'maxLength';

function valueAt(manifest: Json, pointer: string): unknown {
  let cur: unknown = manifest;
  for (const t of pointer.slice(1).split('/')) cur = isObject(cur) ? cur[t] : undefined;
  return cur;
}

function authOf(exchange: Exchange): Json | undefined {
  const a = manifestOf(exchange)?.['auth'];
  return isObject(a) ? a : undefined;
}

interface FieldRule {
  name: string;
  requirements: string[];
  /** must unless the catalogue makes the requirement a should. */
  severity?: Severity;
  summary: string;
  field: string;
  extra?: (value: unknown, pointer: string) => Finding[];
  /** Only for this auth type. */
  authType?: string;
}

function nonEmpty(value: unknown, pointer: string): Finding[] {
  return typeof value === 'string' && value.trim() === '' ? [{ pointer, message: `${pointer} is an empty string`, expected: 'a non-empty string', actual: value }] : [];
}

function absoluteUrl(value: unknown, pointer: string): Finding[] {
  if (typeof value !== 'string' || isAbsoluteHttpUrl(value)) return [];
  return [{ pointer, message: `${pointer} is not an absolute http(s) URL: ${show(value)}`, expected: 'an absolute URL (https://…)', actual: value }];
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;
function mediaType(value: unknown, pointer: string): Finding[] {
  if (typeof value !== 'string' || MEDIA_TYPE.test(value)) return [];
  return [{ pointer, message: `${pointer} is not a media type: ${show(value)}`, expected: 'a media type, e.g. application/json', actual: value }];
}

function fieldCheck(rule: FieldRule): ResponseCheck {
  return {
    kind: 'response',
    name: rule.name,
    requirements: rule.requirements,
    severity: rule.severity ?? 'must',
    summary: rule.summary,
    skipWhen: (exchange) => {
      const skip = skipUnlessManifest(exchange);
      if (skip || rule.authType === undefined) return skip;
      const type = authOf(exchange)?.['type'];
      return type === rule.authType ? undefined : `auth.type is ${show(type ?? 'missing')}, not ${rule.authType}`;
    },
    run: (exchange, ctx) => {
      const manifest = manifestOf(exchange)!;
      const findings = issuesAt(manifest, ctx, rule.field, notLength);
      const value = valueAt(manifest, rule.field);
      if (findings.length === 0 && value !== undefined && rule.extra) findings.push(...rule.extra(value, rule.field));
      return findings;
    },
  };
}

function lengthCheck(field: ManifestLengthField, requirement: string): ResponseCheck {
  return {
    kind: 'response',
    name: `plugin_manifest_${field}_length`,
    requirements: [requirement],
    severity: 'must',
    summary: `${field} is within its length limit (Limits; configurable)`,
    params: PLUGIN_LIMITS,
    skipWhen: skipUnlessManifest,
    run: (exchange, ctx) => {
      const manifest = manifestOf(exchange)!;
      const value = manifest[field];
      if (typeof value !== 'string') return [];
      const limit = limitsOf(ctx)[field];
      const len = charCount(value);
      // The configured limit decides (the schema's maxLength is the default of the same limit).
      return len > limit ? [{ pointer: `/${field}`, message: `${field} has ${len} characters; the limit is ${limit}`, expected: `≤ ${limit} characters`, actual: len }] : [];
    },
  };
}

export const MANIFEST_CHECKS: ResponseCheck[] = [
  {
    kind: 'response',
    name: 'plugin_manifest_served',
    requirements: ['PLUGIN-WELL-KNOWN-MANIFEST', 'ERR-PLUGIN-NO-MANIFEST'],
    severity: 'must',
    summary: 'GET /.well-known/ai-plugin.json serves the manifest (without it the plugin cannot be installed)',
    run: (exchange) => {
      const r = exchange.response;
      if (!r) return [{ pointer: '', message: `no manifest: ${exchange.error?.message ?? 'no response'}; the plugin cannot be installed`, expected: '2xx with a JSON manifest', actual: exchange.error?.kind ?? 'no response' }];
      if (!ok(exchange)) return [{ pointer: '', message: `the manifest URL answered ${r.status}; the plugin cannot be installed`, expected: '2xx with a JSON manifest', actual: r.status }];
      if (r.json === undefined) return [{ pointer: '', message: 'the manifest is not JSON; the plugin cannot be installed', expected: 'a JSON object', actual: show(r.text ?? '(no text)') }];
      if (!isObject(r.json)) return [{ pointer: '', message: 'the manifest is not a JSON object; the plugin cannot be installed', expected: 'a JSON object', actual: show(r.json) }];
      return [];
    },
  },
  fieldCheck({
    name: 'plugin_manifest_schema_version',
    requirements: ['PLUGIN-SCHEMA-VERSION', 'VER-MANIFEST-SCHEMA-VERSION'],
    summary: 'schema_version is a string, v1',
    field: '/schema_version',
    extra: (v, p) => (v === 'v1' ? [] : [{ pointer: p, message: `schema_version is ${show(v)}; the minimal definition is v1`, expected: 'v1', actual: v }]),
  }),
  fieldCheck({ name: 'plugin_manifest_name_for_model', requirements: ['PLUGIN-NAME-FOR-MODEL'], summary: 'name_for_model is a non-empty string', field: '/name_for_model', extra: nonEmpty }),
  lengthCheck('name_for_model', 'PLUGIN-NAME-FOR-MODEL-MAX50'),
  fieldCheck({ name: 'plugin_manifest_name_for_human', requirements: ['PLUGIN-NAME-FOR-HUMAN'], summary: 'name_for_human is a non-empty string', field: '/name_for_human', extra: nonEmpty }),
  lengthCheck('name_for_human', 'PLUGIN-NAME-FOR-HUMAN-MAX50'),
  fieldCheck({ name: 'plugin_manifest_description_for_model', requirements: ['PLUGIN-DESC-FOR-MODEL'], summary: 'description_for_model is a non-empty string', field: '/description_for_model', extra: nonEmpty }),
  lengthCheck('description_for_model', 'PLUGIN-DESC-FOR-MODEL-MAX8000'),
  fieldCheck({ name: 'plugin_manifest_description_for_human', requirements: ['PLUGIN-DESC-FOR-HUMAN'], summary: 'description_for_human is a non-empty string', field: '/description_for_human', extra: nonEmpty }),
  lengthCheck('description_for_human', 'PLUGIN-DESC-FOR-HUMAN-MAX120'),
  {
    kind: 'response',
    name: 'plugin_manifest_auth',
    requirements: ['PLUGIN-AUTH'],
    severity: 'must',
    summary: 'auth is an object',
    skipWhen: skipUnlessManifest,
    run: (exchange, ctx) => issuesAt(manifestOf(exchange)!, ctx, '/auth', notLength).filter((f) => f.pointer === '/auth'),
  },
  fieldCheck({ name: 'plugin_manifest_auth_type', requirements: ['PLUGIN-AUTH-TYPE'], summary: 'auth.type is none, user_http, service_http or oauth', field: '/auth/type' }),
  fieldCheck({ name: 'plugin_manifest_auth_instructions', requirements: ['PLUGIN-AUTH-INSTRUCTIONS'], summary: 'auth.instructions, when present, is a string', field: '/auth/instructions' }),
  fieldCheck({ name: 'plugin_manifest_auth_user_http', requirements: ['PLUGIN-AUTH-USER-HTTP'], summary: 'user_http auth has authorization_type bearer or basic', field: '/auth/authorization_type', authType: 'user_http' }),
  fieldCheck({ name: 'plugin_manifest_auth_service_http_type', requirements: ['PLUGIN-AUTH-SERVICE-HTTP-TYPE'], summary: 'service_http auth has authorization_type bearer or basic', field: '/auth/authorization_type', authType: 'service_http' }),
  fieldCheck({ name: 'plugin_manifest_auth_service_http_tokens', requirements: ['PLUGIN-AUTH-SERVICE-HTTP-TOKENS'], summary: 'service_http auth has verification_tokens, a map of strings', field: '/auth/verification_tokens', authType: 'service_http' }),
  fieldCheck({ name: 'plugin_manifest_auth_oauth_client_url', requirements: ['PLUGIN-AUTH-OAUTH-CLIENT-URL'], summary: 'oauth auth has client_url, an absolute URL', field: '/auth/client_url', authType: 'oauth', extra: absoluteUrl }),
  fieldCheck({ name: 'plugin_manifest_auth_oauth_scope', requirements: ['PLUGIN-AUTH-OAUTH-SCOPE'], summary: 'oauth auth has scope, a string', field: '/auth/scope', authType: 'oauth' }),
  fieldCheck({ name: 'plugin_manifest_auth_oauth_authorization_url', requirements: ['PLUGIN-AUTH-OAUTH-AUTHORIZATION-URL'], summary: 'oauth auth has authorization_url, an absolute URL', field: '/auth/authorization_url', authType: 'oauth', extra: absoluteUrl }),
  fieldCheck({ name: 'plugin_manifest_auth_oauth_content_type', requirements: ['PLUGIN-AUTH-OAUTH-CONTENT-TYPE'], summary: 'oauth auth has authorization_content_type, a media type', field: '/auth/authorization_content_type', authType: 'oauth', extra: mediaType }),
  fieldCheck({ name: 'plugin_manifest_auth_oauth_tokens', requirements: ['PLUGIN-AUTH-OAUTH-TOKENS'], summary: 'oauth auth has verification_tokens, a map of strings', field: '/auth/verification_tokens', authType: 'oauth' }),
  {
    kind: 'response',
    name: 'plugin_manifest_api',
    requirements: ['PLUGIN-API'],
    severity: 'must',
    summary: 'api is an object',
    skipWhen: skipUnlessManifest,
    run: (exchange, ctx) => issuesAt(manifestOf(exchange)!, ctx, '/api', notLength).filter((f) => f.pointer === '/api'),
  },
  fieldCheck({ name: 'plugin_manifest_api_type', requirements: ['PLUGIN-API-TYPE'], summary: 'api.type is openapi', field: '/api/type' }),
  fieldCheck({ name: 'plugin_manifest_api_url', requirements: ['PLUGIN-API-URL'], summary: 'api.url is the absolute URL of the OpenAPI description', field: '/api/url', extra: absoluteUrl }),
  fieldCheck({
    name: 'plugin_manifest_api_is_user_authenticated',
    requirements: ['PLUGIN-API-IS-USER-AUTHENTICATED'],
    // The table requires api, and shows its shape; whether each field of it is required, it does not say.
    severity: 'should',
    summary: 'api.is_user_authenticated is present and a boolean',
    field: '/api/is_user_authenticated',
  }),
  fieldCheck({ name: 'plugin_manifest_logo_url', requirements: ['PLUGIN-LOGO-URL'], summary: 'logo_url is an absolute URL', field: '/logo_url', extra: absoluteUrl }),
  fieldCheck({ name: 'plugin_manifest_contact_email', requirements: ['PLUGIN-CONTACT-EMAIL'], summary: 'contact_email is an e-mail address', field: '/contact_email' }),
  fieldCheck({ name: 'plugin_manifest_legal_info_url', requirements: ['PLUGIN-LEGAL-INFO-URL'], summary: 'legal_info_url is an absolute URL', field: '/legal_info_url', extra: absoluteUrl }),
  {
    kind: 'response',
    name: 'plugin_logo_found',
    // "URL of the logo": a URL that answers "not found" is the URL of no logo. What a CDN answers a client that is
    // not a browser (403), or a moment's outage (5xx), says nothing about the URL: PLUGIN-LOGO-SERVED (should).
    requirements: ['PLUGIN-LOGO-URL'],
    severity: 'must',
    summary: 'logo_url is not a URL of nothing (GET does not answer 404 or 410)',
    run: (exchange) => {
      const r = exchange.response;
      if (!r || (r.status !== 404 && r.status !== 410)) return [];
      return [{ pointer: '/logo_url', message: `GET ${exchange.request.url} answered ${r.status}: there is no logo at logo_url`, expected: 'a logo', actual: r.status }];
    },
  },
  {
    kind: 'response',
    name: 'plugin_logo_served',
    requirements: ['PLUGIN-LOGO-SERVED'],
    severity: 'should',
    summary: 'logo_url serves an image (GET answers 2xx with an image/* content type)',
    run: (exchange) => {
      const r = exchange.response;
      const url = exchange.request.url;
      if (!r) return [{ pointer: '/logo_url', message: `GET ${url} failed: ${exchange.error?.message ?? 'no response'}`, expected: '2xx image', actual: exchange.error?.kind }];
      if (!ok(exchange)) return [{ pointer: '/logo_url', message: `GET ${url} answered ${r.status}: logo_url is not the URL of a logo`, expected: '2xx image', actual: r.status }];
      const ct = r.headers['content-type'] ?? '';
      if (!/^image\//i.test(ct)) return [{ pointer: '/logo_url', message: `GET ${url} answered content-type ${show(ct || '(none)')}, not an image`, expected: 'image/*', actual: ct || '(none)' }];
      return [];
    },
  },
];
