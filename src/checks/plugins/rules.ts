// Plugin rules: description heuristics, HTTPS/local development, CORS, and the plugin's own operations.

import type { Finding, ResponseCheck } from '../types.ts';
import type { Exchange } from '../../transport/types.ts';
import { looksLikeProse, matchDescription, PLUGIN_FOR, RAW_MEDIA_TYPES, type DescriptionRule } from './heuristics.ts';
import { charCount, documentOf, HISTORY, isLocalUrl, isObject, isRemoteHttp, limitsOf, manifestOf, show, skipUnlessManifest } from './shared.ts';
import { PLUGIN_LIMITS } from '../params.ts';
import { judgeOperationBody, structuralIssues } from './response-schema.ts';
import { notExercised } from '../types.ts';
import type { SchemaIssue } from '../../schema/registry.ts';

const OPERATION_PARAM = { operation: { kind: 'value', doc: 'the operation called: its path and method in the description' } } as const;

function schemaFindings(issues: SchemaIssue[]): Finding[] {
  return issues.map((i) => ({ pointer: i.pointer, message: i.message, expected: i.expected, actual: i.actual }));
}

function descriptionCheck(rule: DescriptionRule, name: string, requirement: string, summary: string): ResponseCheck {
  return {
    kind: 'response', name, requirements: [requirement], severity: 'should', summary,
    skipWhen: (exchange) => skipUnlessManifest(exchange) ?? (typeof manifestOf(exchange)!['description_for_model'] === 'string' ? undefined : 'description_for_model is not a string'),
    run: (exchange) =>
      matchDescription(String(manifestOf(exchange)!['description_for_model']), rule).map((m) => ({
        pointer: '/description_for_model',
        message: `description_for_model ${m.label}: "${m.excerpt}"`,
        expected: summary,
        actual: m.excerpt,
      })),
  };
}

/** The URLs the plugin rules judge, with where each comes from. */
export function pluginUrls(manifestExchange: Exchange, openapi: Exchange | undefined): Array<{ pointer: string; url: string; what: string }> {
  const out: Array<{ pointer: string; url: string; what: string }> = [{ pointer: '', url: manifestExchange.request.url, what: 'the manifest URL' }];
  const m = manifestOf(manifestExchange);
  if (!m) return out;
  const add = (pointer: string, v: unknown, what: string): void => { if (typeof v === 'string') out.push({ pointer, url: v, what }); };
  const api = isObject(m['api']) ? m['api'] : {};
  add('/api/url', api['url'], 'api.url');
  // The plugin's server only ("a remote server must use HTTPS"): not logo_url, legal_info_url or the OAuth
  // URLs, which name other servers (a CDN, a page users are sent to, an identity provider). OpenAI's own quickstart
  // links http://example.com/legal.
  const doc = documentOf(openapi);
  if (doc && Array.isArray(doc['servers']) && typeof api['url'] === 'string') {
    doc['servers'].forEach((s, i) => {
      if (!isObject(s) || typeof s['url'] !== 'string') return;
      let resolved = s['url'];
      try { resolved = new URL(s['url'], api['url'] as string).href; } catch { /* judged as given */ }
      out.push({ pointer: `#openapi/servers/${i}/url`, url: resolved, what: 'OpenAPI servers[].url' });
    });
  }
  return out;
}

function pluginIsLocal(exchange: Exchange): boolean {
  return isLocalUrl(exchange.request.url);
}

export const RULE_CHECKS: ResponseCheck[] = [
  descriptionCheck('tone', 'plugin_description_no_tone', 'PLUGIN-DESC-NO-TONE', 'description_for_model does not steer the model\'s tone'),
  descriptionCheck('push', 'plugin_description_no_push', 'PLUGIN-DESC-NO-PUSH', 'description_for_model does not push the model to use the plugin unasked'),
  descriptionCheck('triggers', 'plugin_description_no_triggers', 'PLUGIN-DESC-NO-TRIGGERS', 'description_for_model defines no fixed triggers'),
  {
    kind: 'response', name: 'plugin_description_plugin_for', requirements: ['PLUGIN-DESC-PLUGIN-FOR'], severity: 'should',
    summary: 'description_for_model starts with "Plugin for …" (recommended)',
    skipWhen: (exchange) => skipUnlessManifest(exchange) ?? (typeof manifestOf(exchange)!['description_for_model'] === 'string' ? undefined : 'description_for_model is not a string'),
    run: (exchange) => {
      const d = String(manifestOf(exchange)!['description_for_model']);
      return PLUGIN_FOR.test(d) ? [] : [{ pointer: '/description_for_model', message: `description_for_model starts "${show(d, 40)}" rather than the recommended "Plugin for …"`, expected: 'Plugin for …', actual: show(d, 40) }];
    },
  },
  {
    kind: 'response', name: 'plugin_remote_https', requirements: ['PLUGIN-REMOTE-HTTPS'], severity: 'must',
    summary: 'a remote plugin uses HTTPS (plain http only for localhost, 127.0.0.1, ::1)',
    run: (exchange, ctx) =>
      pluginUrls(exchange, ctx.history.get(HISTORY.openapi))
        .filter((u) => isRemoteHttp(u.url))
        .map((u): Finding => ({ pointer: u.pointer, message: `${u.what} ${u.url} is plain http on a remote host; a remote plugin must use HTTPS (not fetched)`, expected: 'https:// (or a local host)', actual: u.url })),
  },
  {
    kind: 'response', name: 'plugin_local_http', requirements: ['PLUGIN-LOCAL-HTTP'], severity: 'must',
    summary: 'a local plugin may be served over plain http',
    skipWhen: (exchange) => (pluginIsLocal(exchange) && exchange.request.url.startsWith('http:') ? undefined : 'the plugin is not served over http on a local host'),
    // Local http is allowed: the manifest having been served over it is the whole check.
    run: (exchange) => (exchange.response ? [] : [{ pointer: '', message: `the local plugin did not answer over http: ${exchange.error?.message ?? ''}`, expected: 'a response', actual: exchange.error?.kind }]),
  },
  {
    kind: 'response', name: 'plugin_local_auth_none', requirements: ['PLUGIN-LOCAL-AUTH-NONE'], severity: 'must',
    summary: 'a local plugin uses auth type none (the only type supported for local development)',
    // Local development is a plugin on a local host over plain http: one served over HTTPS (an intranet host, a
    // second machine with a certificate) is a server like any other, and may use any auth type.
    skipWhen: (exchange) => skipUnlessManifest(exchange) ?? (pluginIsLocal(exchange) && exchange.request.url.startsWith('http:') ? undefined : 'the plugin is not served over http on a local host'),
    run: (exchange) => {
      const auth = manifestOf(exchange)!['auth'];
      const type = isObject(auth) ? auth['type'] : undefined;
      return type === 'none' ? [] : [{ pointer: '/auth/type', message: `the local plugin (${new URL(exchange.request.url).host}) declares auth type ${show(type ?? 'missing')}; local development supports only none`, expected: 'none', actual: type ?? 'missing' }];
    },
  },
  {
    // "when a proxy is used": whether the host reaches the plugin through a proxy is not observable, so this is a
    // should (a remote plugin fetched server-side conforms without CORS headers).
    kind: 'response', name: 'plugin_cors_host_origin', requirements: ['PLUGIN-CORS-HOST-ORIGIN'], severity: 'should',
    summary: 'requests and preflights from the host origin get Access-Control-Allow-Origin (that origin or *)',
    params: { origin: { kind: 'string', doc: 'the host origin (default https://chat.openai.com)' } },
    run: (exchange, ctx) => {
      const origin = String(ctx.params['origin'] ?? 'https://chat.openai.com');
      const r = exchange.response;
      const label = `${exchange.request.method} ${exchange.request.url}`;
      if (!r) return [{ pointer: '', message: `${label} failed: ${exchange.error?.message ?? 'no response'}`, expected: 'a response', actual: exchange.error?.kind }];
      const out: Finding[] = [];
      if (exchange.request.method === 'OPTIONS' && (r.status < 200 || r.status >= 300)) out.push({ pointer: '#status', message: `the preflight ${label} answered ${r.status}`, expected: '2xx', actual: r.status });
      const acao = r.headers['access-control-allow-origin'];
      if (acao === undefined) out.push({ pointer: '#headers/access-control-allow-origin', message: `${label} with Origin: ${origin} got no Access-Control-Allow-Origin`, expected: `${origin} or *`, actual: 'missing' });
      else if (acao.trim() !== origin && acao.trim() !== '*') out.push({ pointer: '#headers/access-control-allow-origin', message: `${label} allows origin ${show(acao)}, not ${origin}`, expected: `${origin} or *`, actual: acao });
      if (exchange.request.method === 'OPTIONS' && acao !== undefined) {
        const methods = r.headers['access-control-allow-methods'];
        if (methods !== undefined && methods.trim() !== '*' && !/\bGET\b/i.test(methods)) out.push({ pointer: '#headers/access-control-allow-methods', message: `the preflight does not allow GET (${methods})`, expected: 'GET allowed', actual: methods });
      }
      return out;
    },
  },
  {
    kind: 'response', name: 'plugin_operation_described', requirements: ['PLUGIN-OPERATIONS-DESCRIBED'], severity: 'must',
    summary: 'a documented operation is served at servers[0].url + path (no 405; no 404 where no example value or missing credentials can explain it)',
    params: { namesResource: { kind: 'value', doc: 'the path names a resource by an example value' }, authenticated: { kind: 'value', doc: 'the manifest asks for credentials, which the call does not send' } },
    run: (exchange, ctx) => {
      const r = exchange.response;
      const label = `${exchange.request.method} ${exchange.request.url}`;
      if (!r) return exchange.error?.kind === 'too-large' ? [] : [{ pointer: '', message: `${label} failed: ${exchange.error?.message ?? 'no response'}`, expected: 'a response', actual: exchange.error?.kind }];
      if (r.status === 405) return [{ pointer: '#status', message: `${label} answered 405: the documented method is not served there`, expected: 'not 405', actual: r.status }];
      // An example value need not name an existing resource ("no such user"), and an API may hide itself from a
      // caller without credentials behind a 404: only an open operation that names nothing is surely not served.
      if (r.status === 404 && ctx.params['namesResource'] !== true && ctx.params['authenticated'] !== true) return [{ pointer: '#status', message: `${label} answered 404: the documented operation is not served there`, expected: 'not 404', actual: r.status }];
      return [];
    },
  },
  {
    kind: 'response', name: 'plugin_operation_documented_response', requirements: ['PLUGIN-RESPONSES-DOCUMENTED'], severity: 'should',
    summary: 'a successful (2xx) answer is described by the operation: its status (or default) and its media type are documented',
    params: { documented: { kind: 'value', doc: 'the media types the operation documents, by status' } },
    skipWhen: (exchange, ctx) => {
      const s = exchange.response?.status;
      if (s === undefined || s < 200 || s >= 300) return 'not a 2xx answer';
      return isObject(ctx.params['documented']) ? undefined : 'the operation documents no responses';
    },
    run: (exchange, ctx) => {
      const r = exchange.response!;
      const documented = ctx.params['documented'] as Record<string, string[]>;
      const code = String(r.status);
      const key = code in documented ? code : `${code[0]}XX` in documented ? `${code[0]}XX` : 'default' in documented ? 'default' : undefined;
      if (key === undefined) return [{ pointer: '#status', message: `the operation answered ${code}, which its description does not document (documented: ${Object.keys(documented).join(', ') || 'none'})`, expected: Object.keys(documented), actual: r.status }];
      const media = documented[key]!;
      if (media.length === 0 || r.status === 204) return [];
      const ct = (r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const matches = media.some((m) => {
        const want = m.split(';')[0]!.trim().toLowerCase();
        return want === ct || want === '*/*' || (want.endsWith('/*') && ct.startsWith(want.slice(0, -1)));
      });
      return matches ? [] : [{ pointer: '#headers/content-type', message: `response ${code} has content-type ${ct || '(none)'}; the description documents ${media.join(', ')}`, expected: media, actual: ct || '(none)' }];
    },
  },
  {
    kind: 'response', name: 'plugin_operation_auth_none', requirements: ['PLUGIN-AUTH-NONE'], severity: 'must',
    summary: 'a plugin whose manifest says auth none serves its operations without credentials (no 401)',
    params: { authType: { kind: 'value', doc: "the manifest's auth.type" }, documented: { kind: 'value', doc: 'the media types the operation documents, by status' } },
    skipWhen: (_exchange, ctx) => {
      if (ctx.params['authType'] !== 'none') return 'the manifest does not declare auth type none';
      // An operation that documents a 401 asks for something of its own (an upstream key as a parameter).
      const documented = ctx.params['documented'];
      return isObject(documented) && '401' in documented ? 'the operation documents a 401 of its own' : undefined;
    },
    run: (exchange) => {
      const r = exchange.response;
      if (!r) return notExercised('the operation gave no answer');
      // 401 is the refusal for want of credentials; a 403 may be about the resource, not the caller.
      return r.status === 401
        ? [{ pointer: '#status', message: `${exchange.request.method} ${exchange.request.url} answered 401 to a call without credentials, though the manifest's auth type none means no authentication`, expected: 'no 401', actual: r.status }]
        : [];
    },
  },
  {
    kind: 'response', name: 'plugin_operation_body_schema', requirements: ['PLUGIN-RESPONSES-SCHEMA'], severity: 'must',
    summary: 'a 2xx JSON answer has every property its documented schema requires, each of the documented type',
    params: OPERATION_PARAM,
    run: (exchange, ctx) => {
      const v = judgeOperationBody(exchange, ctx);
      if (v.kind === 'judged') return schemaFindings(structuralIssues(v.issues));
      if (v.kind === 'no-schema') return notExercised(`the description documents no schema for ${v.status} ${v.mediaType}`);
      return notExercised(v.why);
    },
  },
  {
    kind: 'response', name: 'plugin_operation_body_schema_strict', requirements: ['PLUGIN-RESPONSES-SCHEMA-STRICT'], severity: 'should',
    summary: 'a 2xx JSON answer meets every keyword of its documented schema (enums, bounds, patterns, closed objects)',
    params: OPERATION_PARAM,
    run: (exchange, ctx) => {
      const v = judgeOperationBody(exchange, ctx);
      if (v.kind === 'judged') {
        const must = new Set(structuralIssues(v.issues));
        return schemaFindings(v.issues.filter((i) => !must.has(i)));
      }
      // A missing schema is the description's fault, judged once by plugin_openapi_responses.
      if (v.kind === 'no-schema') return notExercised(`the description documents no schema for ${v.status} ${v.mediaType}`);
      return notExercised(v.why);
    },
  },
  {
    kind: 'response', name: 'plugin_operation_raw_data', requirements: ['PLUGIN-RESPONSES-RAW-DATA'], severity: 'should',
    summary: 'operation responses carry raw data (e.g. JSON), not natural-language prose',
    skipWhen: (exchange) => (exchange.response?.text !== undefined || exchange.response?.bytes !== undefined ? undefined : 'no response body'),
    run: (exchange) => {
      const r = exchange.response!;
      const ct = r.headers['content-type'] ?? '';
      if (RAW_MEDIA_TYPES.some((p) => p.test(ct)) || r.json !== undefined) return [];
      if (r.text === undefined || !looksLikeProse(r.text)) return [];
      return [{ pointer: '', message: `the response (${ct || 'no content-type'}) reads as natural-language prose: "${show(r.text.trim(), 100)}"`, expected: 'raw data, e.g. application/json', actual: ct || 'no content-type' }];
    },
  },
  {
    kind: 'response', name: 'plugin_operation_response_size', requirements: ['PLUGIN-RESPONSE-MAX-100000'], severity: 'must',
    summary: 'an operation response body is within the limit (100000 characters; configurable)',
    params: PLUGIN_LIMITS,
    skipWhen: (exchange) => (exchange.response ? undefined : 'no response'),
    run: (exchange, ctx) => {
      const r = exchange.response!;
      const limit = limitsOf(ctx).apiResponseChars;
      if (r.truncated || exchange.error?.kind === 'too-large') {
        const read = r.bytes?.byteLength ?? 0;
        return [{ pointer: '', message: `the response body exceeds the ${read}-byte read cap, so it has more than ${limit} characters`, expected: `≤ ${limit} characters`, actual: `> ${read} bytes` }];
      }
      const n = r.text !== undefined ? charCount(r.text) : (r.bytes?.byteLength ?? 0);
      return n > limit ? [{ pointer: '', message: `the response body has ${n} characters; the limit is ${limit}`, expected: `≤ ${limit} characters`, actual: n }] : [];
    },
  },
];
