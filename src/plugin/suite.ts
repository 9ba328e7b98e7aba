// The plugin suite: fetch the manifest, the OpenAPI description, the logo, a CORS preflight and the
// read-only operations (bounded, with timeouts), then run the pure plugin checks over the Exchanges.
// Used by `conformance run` (area plugins, against --plugin-url or the reference server's plugin host)
// and by `conformance plugin URL`.

import { isNotExercised, type Check, type CheckContext, type Finding } from '../checks/types.ts';
import { pluginCheck, PLUGIN_CHECK_GROUPS } from '../checks/plugins/index.ts';
import { HISTORY, isAbsoluteHttpUrl, isObject, isRemoteHttp, manifestOf, documentOf, show } from '../checks/plugins/shared.ts';
import { responseExcerpt } from '../judge/excerpt.ts';
import type { ProgrammaticContext, ProgrammaticSuite } from '../engine/programmatic.ts';
import type { CheckResult, ResultStatus } from '../engine/types.ts';
import { resolvePluginLimits, type PluginLimits } from '../schema/plugin-limits.ts';
import type { Exchange } from '../transport/types.ts';
import { DOCUMENT_CAP_BYTES, fetchBounded, operationCapBytes, type Fetched } from './fetch.ts';
import { planCalls } from './operations.ts';

export const PLUGIN_SUITE_NAME = 'plugins';
export const DEFAULT_HOST_ORIGIN = 'https://chat.openai.com';
const SOURCE = 'src/plugin/suite.ts';

export interface PluginSuiteOptions {
  /** The suite's name (default `plugins`): a run that checks several plugins names each suite. */
  name?: string;
  /** The plugin's origin (or its manifest URL); default: the profile's pluginUrl. */
  url?: string;
  /** The host application's web origin sent as Origin (CORS). */
  origin?: string;
  /** Also call non-GET operations. */
  allowWrites?: boolean;
  limits?: Partial<PluginLimits>;
  /** Per-request timeout; default: the profile's request timeout. */
  timeoutMs?: number;
  /** The command that reruns one case. */
  reproduce?: (caseId: string) => string;
}

/** `URL/.well-known/ai-plugin.json` on the plugin's own domain; a full manifest URL is taken as is. */
export function manifestUrlFor(url: string): string {
  const u = new URL(url);
  if (u.pathname.endsWith('/ai-plugin.json')) return u.href;
  return new URL('/.well-known/ai-plugin.json', u).href;
}

export function pluginSuite(options: PluginSuiteOptions = {}): ProgrammaticSuite {
  return { name: options.name ?? PLUGIN_SUITE_NAME, area: 'plugins', tags: ['plugins'], selects: pluginSuiteSelects, run: (ctx) => runPluginSuite(ctx, options) };
}

/** The fixed cases of the plugin suite; its operation cases are named `operation:<operationId>`. */
const PLUGIN_CASES: readonly (readonly [string, string])[] = [
  ['manifest', 'the plugin manifest (/.well-known/ai-plugin.json)'], ['auth', 'the manifest auth object'], ['description', 'description_for_model rules (heuristics)'],
  ['logo', 'the logo'], ['openapi', 'the OpenAPI description'], ['transport', 'HTTPS and local development'], ['cors', 'CORS for the host origin'], ['operation:', 'the operations'],
];

function pluginSuiteSelects(filter: NonNullable<ProgrammaticContext['filter']>): boolean {
  if (filter.tags?.length && !filter.tags.includes('plugins')) return false;
  const g = filter.grep?.toLowerCase();
  // An operation id is only known once the plugin's document is read: a grep naming one (`operation:…`) may match.
  return !g || g.startsWith('operation:') || PLUGIN_CASES.some(([id, title]) => id.includes(g) || title.toLowerCase().includes(g));
}

async function runPluginSuite(ctx: ProgrammaticContext, options: PluginSuiteOptions): Promise<void> {
  const limits = resolvePluginLimits(options.limits);
  const origin = options.origin ?? DEFAULT_HOST_ORIGIN;
  const timeoutMs = options.timeoutMs ?? ctx.profile.timeouts.requestMs;
  const history = new Map<string, Exchange>();
  const params = { limits, origin };
  const grep = ctx.filter?.grep?.toLowerCase();
  const tags = ctx.filter?.tags;
  // A grep that is exactly a case's id (what a reproduce command names) selects that case alone.
  // (Operation ids are known only once the document is read: a grep naming one stays a substring.)
  const exact = grep !== undefined && grep !== 'operation:' && PLUGIN_CASES.some(([id]) => id === grep);
  const wanted = (id: string, title: string): boolean =>
    (!grep || (exact ? id.toLowerCase() === grep : id.toLowerCase().includes(grep) || title.toLowerCase().includes(grep))) && (!tags?.length || tags.includes('plugins'));
  const emit = (id: string, title: string, results: CheckResult[]): void => { if (wanted(id, title)) ctx.emitCase(id, results); };
  const base = { suite: options.name ?? PLUGIN_SUITE_NAME, source: SOURCE };
  const skipCase = (id: string, title: string, requirements: string[], reason: string): void =>
    emit(id, title, [{ ...base, case: id, caseTitle: title, check: 'case', requirements, severity: 'must', status: 'skip', message: reason }]);

  const target = options.url ?? ctx.profile.pluginUrl;
  if (!target) {
    skipCase('manifest', 'the plugin manifest', ['PLUGIN-WELL-KNOWN-MANIFEST'], 'no plugin URL: give --plugin-url (or plugin_url in the config file)');
    return;
  }
  const headers = { origin, 'user-agent': 'model-api-conformance plugin checker' };
  const fetch = (url: string, extra: Record<string, string>, maxBytes = DOCUMENT_CAP_BYTES, method: 'GET' | 'OPTIONS' = 'GET'): Promise<Fetched> =>
    fetchBounded(ctx.transport, url, { method, headers: { ...headers, ...extra }, timeoutMs, maxBytes, ...(ctx.signal ? { signal: ctx.signal } : {}) });

  const evaluate = (id: string, title: string, names: readonly string[], fetched: Fetched, extra: Record<string, unknown> = {}): CheckResult[] =>
    names.map((name) => runCheck(pluginCheck(name), fetched, { ...base, case: id, caseTitle: title, reproduce: options.reproduce?.(id) }, {
      request: { method: fetched.exchange.request.method, path: new URL(fetched.exchange.request.url).pathname, query: {}, stream: false },
      profile: ctx.profile, vars: {}, schemas: ctx.schemas, params: { ...params, ...extra }, history,
    }));

  // 1. The manifest.
  const manifestUrl = manifestUrlFor(target);
  const manifestFetch = await fetch(manifestUrl, { accept: 'application/json' });
  history.set(HISTORY.manifest, manifestFetch.exchange);
  const manifest = manifestOf(manifestFetch.exchange);
  emit('manifest', 'the plugin manifest (/.well-known/ai-plugin.json)', evaluate('manifest', 'the plugin manifest (/.well-known/ai-plugin.json)', PLUGIN_CHECK_GROUPS.manifest, manifestFetch));
  if (!manifest) return; // not installable: nothing else to check
  emit('auth', 'the manifest auth object', evaluate('auth', 'the manifest auth object', PLUGIN_CHECK_GROUPS.auth, manifestFetch));
  emit('description', 'description_for_model rules (heuristics)', evaluate('description', 'description_for_model rules (heuristics)', PLUGIN_CHECK_GROUPS.description, manifestFetch));
  if (ctx.signal?.aborted) return;

  // 2. The logo.
  const logoUrl = manifest['logo_url'];
  if (!isAbsoluteHttpUrl(logoUrl)) skipCase('logo', 'the logo', ['PLUGIN-LOGO-URL'], 'logo_url is not an absolute http(s) URL (see plugin_manifest_logo_url)');
  else if (isRemoteHttp(logoUrl as string)) skipCase('logo', 'the logo', ['PLUGIN-LOGO-URL'], `logo_url ${String(logoUrl)} is plain http on a remote host: not fetched (see plugin_remote_https)`);
  else {
    const logo = await fetch(logoUrl as string, { accept: 'image/*' });
    history.set(HISTORY.logo, logo.exchange);
    emit('logo', 'the logo', evaluate('logo', 'the logo', PLUGIN_CHECK_GROUPS.logo, logo));
  }

  // 3. The OpenAPI description.
  const api = isObject(manifest['api']) ? manifest['api'] : {};
  let docUrl: string | undefined;
  try { docUrl = typeof api['url'] === 'string' ? new URL(api['url'], manifestFetch.exchange.request.url).href : undefined; } catch { docUrl = undefined; }
  let openapi: Fetched | undefined;
  if (!docUrl) skipCase('openapi', 'the OpenAPI description', ['PLUGIN-OPENAPI-SERVED'], 'api.url is missing or not a URL (see plugin_manifest_api_url)');
  else if (isRemoteHttp(docUrl)) skipCase('openapi', 'the OpenAPI description', ['PLUGIN-OPENAPI-SERVED'], `api.url ${docUrl} is plain http on a remote host: not fetched (see plugin_remote_https)`);
  else if (api['type'] !== undefined && api['type'] !== 'openapi') skipCase('openapi', 'the OpenAPI description', ['PLUGIN-OPENAPI-SERVED'], `api.type is ${show(api['type'])}, not openapi (see plugin_manifest_api_type)`);
  else {
    openapi = await fetch(docUrl, { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' });
    history.set(HISTORY.openapi, openapi.exchange);
    emit('openapi', 'the OpenAPI description', evaluate('openapi', 'the OpenAPI description', PLUGIN_CHECK_GROUPS.openapi, openapi));
  }

  // 4. Transport rules (decided from the URLs: nothing remote-http is ever fetched).
  emit('transport', 'HTTPS and local development', evaluate('transport', 'HTTPS and local development', PLUGIN_CHECK_GROUPS.transport, manifestFetch));

  // 5. CORS: a preflight from the host origin, and the Origin-carrying GET of the manifest.
  if (ctx.signal?.aborted) return;
  const preflight = await fetch(manifestUrl, { 'access-control-request-method': 'GET' }, DOCUMENT_CAP_BYTES, 'OPTIONS');
  emit('cors', `CORS for the host origin ${origin}`, [
    ...evaluate('cors', `CORS for the host origin ${origin}`, PLUGIN_CHECK_GROUPS.cors, preflight),
    ...evaluate('cors', `CORS for the host origin ${origin}`, PLUGIN_CHECK_GROUPS.cors, manifestFetch),
  ]);

  // 6. The operations.
  const doc = documentOf(openapi?.exchange);
  if (!doc || !openapi) return;
  const plans = planCalls(doc, openapi.exchange.request.url, { allowWrites: options.allowWrites ?? false, headers: { ...headers, accept: 'application/json, */*;q=0.5' } });
  for (const plan of plans) {
    if (ctx.signal?.aborted) return;
    if (plan.kind === 'skip') {
      skipCase(plan.id, plan.title, ['PLUGIN-OPERATIONS-DESCRIBED'], plan.reason);
      continue;
    }
    const call = plan.call;
    if (!wanted(call.id, call.title)) continue;
    const body = call.json !== undefined ? { bytes: new TextEncoder().encode(JSON.stringify(call.json)), summary: { kind: 'json' as const, value: call.json } } : undefined;
    const fetched = await fetchBounded(ctx.transport, call.url, {
      method: call.method, headers: call.headers, timeoutMs, maxBytes: operationCapBytes(limits.apiResponseChars),
      ...(body ? { body } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    emit(call.id, call.title, evaluate(call.id, call.title, PLUGIN_CHECK_GROUPS.operation, fetched, { documented: call.documented, namesResource: call.namesResource, authenticated: authenticated(manifest), authType: authTypeOf(manifest), operation: call.operation }));
  }
}

/** A plugin whose manifest asks for credentials: its operations, called without them, may answer 401, 403 or 404. */
function authTypeOf(manifest: Record<string, unknown> | undefined): unknown {
  const auth = manifest?.['auth'];
  return isObject(auth) ? auth['type'] : undefined;
}

function authenticated(manifest: Record<string, unknown> | undefined): boolean {
  const auth = manifest?.['auth'];
  return isObject(auth) && auth['type'] !== undefined && auth['type'] !== 'none';
}

function runCheck(check: Check, fetched: Fetched, id: Pick<CheckResult, 'suite' | 'case' | 'caseTitle' | 'source'> & { reproduce?: string | undefined }, ctx: CheckContext): CheckResult {
  const exchange = fetched.exchange;
  let status: ResultStatus;
  let message: string;
  let findings: Finding[] | undefined;
  try {
    const skip = check.skipWhen?.(exchange, ctx);
    if (skip !== undefined) { status = 'skip'; message = skip; }
    else if (check.kind !== 'response') { status = 'error'; message = `${check.name} is a stream check`; }
    else {
      const verdict = check.run(exchange, ctx);
      if (isNotExercised(verdict)) { status = 'not-exercised'; message = `${check.summary}: not exercised: ${verdict.notExercised}`; }
      else if ((findings = verdict).length === 0) { status = 'pass'; message = check.summary; }
      else {
        status = check.severity === 'must' ? 'fail' : 'warn';
        message = `${check.summary}: ${findings[0]!.message}${findings.length > 1 ? ` (+${findings.length - 1} more)` : ''}`;
      }
    }
  } catch (e) {
    status = 'error';
    message = `${check.name} could not be evaluated: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  }
  const { reproduce, ...rest } = id;
  const result: CheckResult = { ...rest, check: check.name, requirements: [...check.requirements], severity: check.severity, status, message };
  if (status === 'fail' || status === 'warn' || status === 'error') {
    if (findings?.length) result.findings = findings;
    result.request = exchange.request;
    const excerpt = responseExcerpt(exchange);
    if (fetched.chain.length > 1) excerpt.error = [excerpt.error, `redirected: ${fetched.chain.join(' → ')}`].filter(Boolean).join('; ');
    result.response = excerpt;
    if (reproduce) result.reproduce = reproduce;
  }
  return result;
}
