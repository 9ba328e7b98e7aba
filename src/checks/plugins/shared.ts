// Helpers shared by the plugin checks. Pure: they read Exchanges the plugin suite fetched, never the network.

import { yamlLib } from '../../util/lazy-modules.ts';
import type { CheckContext, Finding } from '../types.ts';
import type { Exchange } from '../../transport/types.ts';
import { DEFAULT_PLUGIN_LIMITS, type PluginLimits } from '../../schema/plugin-limits.ts';
import { jsonType } from '../../schema/registry.ts';
import { escapeToken } from '../../util/pointer.ts';
import { isSuccess } from '../../util/status.ts';

export type Json = Record<string, unknown>;

/** History keys the plugin suite stores its exchanges under (CheckContext.history). */
export const HISTORY = { manifest: 'manifest', openapi: 'openapi', logo: 'logo' } as const;

export const MANIFEST_REF = 'resources/plugin-manifest.schema.json';
export const OPENAPI_REF = 'openapi-3.0.schema.json';

export function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function limitsOf(ctx: CheckContext): PluginLimits {
  const l = ctx.params['limits'];
  return { ...DEFAULT_PLUGIN_LIMITS, ...(isObject(l) ? (l as Partial<PluginLimits>) : {}) };
}

/** Unicode code points: "characters" as the Limits table counts them. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function ok(exchange: Exchange): boolean {
  const s = exchange.response?.status;
  return isSuccess(s);
}

/** The manifest object of a manifest exchange (undefined when not served as a JSON object). */
export function manifestOf(exchange: Exchange | undefined): Json | undefined {
  if (!exchange || !ok(exchange)) return undefined;
  const j = exchange.response?.json;
  return isObject(j) ? j : undefined;
}

export function skipUnlessManifest(exchange: Exchange): string | undefined {
  return manifestOf(exchange) ? undefined : 'no manifest was served (see plugin_manifest_served)';
}

const parsedDocs = new WeakMap<Exchange, { doc?: unknown; format?: 'json' | 'yaml'; error?: string }>();

/** Parse the OpenAPI description: JSON or YAML, chosen by content-type, else by trying both. */
export function parseDocument(exchange: Exchange): { doc?: unknown; format?: 'json' | 'yaml'; error?: string } {
  const cached = parsedDocs.get(exchange);
  if (cached) return cached;
  const r = exchange.response;
  let out: { doc?: unknown; format?: 'json' | 'yaml'; error?: string };
  if (!r) out = { error: exchange.error?.message ?? 'no response' };
  else if (r.json !== undefined) out = { doc: r.json, format: 'json' };
  else if (r.text === undefined) out = { error: 'the body is not text' };
  else {
    const ct = (r.headers['content-type'] ?? '').toLowerCase();
    try {
      const doc: unknown = yamlLib().parse(r.text, { maxAliasCount: 100 });
      out = { doc, format: 'yaml' };
      if (!/yaml|yml|text\/plain|octet-stream|^$/.test(ct) && !isObject(doc)) out = { error: `not JSON or YAML (content-type ${ct})` };
    } catch (e) {
      out = { error: `neither JSON nor YAML: ${(e as Error).message.split('\n')[0]}` };
    }
  }
  parsedDocs.set(exchange, out);
  return out;
}

export function documentOf(exchange: Exchange | undefined): Json | undefined {
  if (!exchange || !ok(exchange)) return undefined;
  const { doc } = parseDocument(exchange);
  return isObject(doc) ? doc : undefined;
}

export function skipUnlessDocument(exchange: Exchange): string | undefined {
  return documentOf(exchange) ? undefined : 'no OpenAPI description was served (see plugin_openapi_served)';
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationRef {
  path: string;
  method: (typeof HTTP_METHODS)[number];
  op: Json;
  pointer: string;
  /** Path-level parameters merged under the operation's own (resolved). */
  parameters: Array<{ param: Json; pointer: string }>;
}

export { escapeToken };

/** Resolve a local `$ref` (`#/components/...`) once or a few times; anything else is returned as is. */
export function deref(doc: Json, node: unknown, depth = 0): unknown {
  if (!isObject(node) || typeof node['$ref'] !== 'string' || depth > 10) return node;
  const ref = node['$ref'];
  if (!ref.startsWith('#/')) return node;
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(cur)) return undefined;
    cur = cur[t];
  }
  return deref(doc, cur, depth + 1);
}

export function operationsOf(doc: Json): OperationRef[] {
  const out: OperationRef[] = [];
  const paths = doc['paths'];
  if (!isObject(paths)) return out;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || path.startsWith('x-')) continue;
    const base = `/paths/${escapeToken(path)}`;
    const shared = Array.isArray(item['parameters']) ? item['parameters'] : [];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const pointer = `${base}/${method}`;
      const own = Array.isArray(op['parameters']) ? op['parameters'] : [];
      const params = new Map<string, { param: Json; pointer: string }>();
      shared.forEach((p, i) => {
        const r = deref(doc, p);
        if (isObject(r)) params.set(`${String(r['in'])}:${String(r['name'])}`, { param: r, pointer: `${base}/parameters/${i}` });
      });
      own.forEach((p, i) => {
        const r = deref(doc, p);
        if (isObject(r)) params.set(`${String(r['in'])}:${String(r['name'])}`, { param: r, pointer: `${pointer}/parameters/${i}` });
      });
      out.push({ path, method, op, pointer, parameters: [...params.values()] });
    }
  }
  return out;
}

export function isAbsoluteHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Local development (the spec's words): localhost, the loopback range 127.0.0.0/8, ::1, a private address of the
 * developer's own network (10/8, 172.16/12, 192.168/16: a plugin on a container or a second machine), and a name
 * only that network resolves (no dot, .local, .internal).
 */
export function isLocalUrl(v: string): boolean {
  try {
    const h = new URL(v).hostname.toLowerCase();
    // A name without a dot (a container's, a machine's on the developer's network) or under .local or .internal
    // resolves only there: local development too.
    return LOCAL_HOSTS.has(h) || h.endsWith('.localhost') || PRIVATE_V4.some((re) => re.test(h)) || (!h.includes('.') && !h.includes(':')) || h.endsWith('.local') || h.endsWith('.internal');
  } catch {
    return false;
  }
}

const PRIVATE_V4 = [/^127\.\d+\.\d+\.\d+$/, /^10\.\d+\.\d+\.\d+$/, /^192\.168\.\d+\.\d+$/, /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/];

/** Plain http on a non-local host: never fetched, and a PLUGIN-REMOTE-HTTPS failure. */
export function isRemoteHttp(v: string): boolean {
  try {
    return new URL(v).protocol === 'http:' && !isLocalUrl(v);
  } catch {
    return false;
  }
}

export function typeFinding(pointer: string, expected: string, value: unknown): Finding {
  return {
    pointer,
    message: value === undefined ? `${pointer} is missing` : `${pointer} must be ${expected}, but it is ${jsonType(value)}`,
    expected,
    actual: value === undefined ? 'missing' : jsonType(value),
  };
}

export function show(v: unknown, max = 80): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
