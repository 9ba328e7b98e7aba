// Plan calls of a plugin's documented operations: fill parameters from the description (example, first
// enum value, default) or skip the operation with a reason. Only GET unless writes are allowed.

import { deref, isObject, isRemoteHttp, operationsOf, type Json, type OperationRef } from '../checks/plugins/shared.ts';
import type { HttpMethod } from '../transport/types.ts';

export interface PlannedCall {
  id: string;
  title: string;
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  /** Documented media types by response code (`200`, `2XX`, `default`). */
  documented: Record<string, string[]>;
  /** The path names a resource by an example value (a path parameter): a 404 may mean only that it does not exist. */
  namesResource: boolean;
  /** Where the description documents the operation, so that its answer can be judged against it. */
  operation: { path: string; method: string };
}

export type CallPlan = { kind: 'call'; call: PlannedCall } | { kind: 'skip'; id: string; title: string; reason: string };

const NONE = Symbol('none');

/** A value from the description: example, examples, schema example, first enum value, default. */
export function describedValue(doc: Json, holder: Json): unknown {
  if (holder['example'] !== undefined) return holder['example'];
  const examples = holder['examples'];
  if (isObject(examples)) {
    for (const ex of Object.values(examples)) {
      const e = deref(doc, ex);
      if (isObject(e) && e['value'] !== undefined) return e['value'];
    }
  }
  const schema = deref(doc, holder['schema']);
  if (isObject(schema)) {
    if (schema['example'] !== undefined) return schema['example'];
    if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
    if (schema['default'] !== undefined) return schema['default'];
  }
  return NONE;
}

/** A JSON body built from a schema: its example/enum/default, or an object of its required properties. */
function bodyFromSchema(doc: Json, raw: unknown, depth = 0): unknown {
  const schema = deref(doc, raw);
  if (!isObject(schema) || depth > 8) return NONE;
  if (schema['example'] !== undefined) return schema['example'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  if (schema['default'] !== undefined) return schema['default'];
  if (schema['type'] === 'object' || isObject(schema['properties'])) {
    const props = isObject(schema['properties']) ? schema['properties'] : {};
    const out: Json = {};
    for (const name of Array.isArray(schema['required']) ? schema['required'] : []) {
      const v = bodyFromSchema(doc, props[String(name)], depth + 1);
      if (v === NONE) return NONE;
      out[String(name)] = v;
    }
    return out;
  }
  return NONE;
}

function encode(v: unknown): string {
  return Array.isArray(v) ? v.map((x) => String(x)).join(',') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

function label(o: OperationRef): { id: string; title: string } {
  const opId = typeof o.op['operationId'] === 'string' ? o.op['operationId'] : undefined;
  const title = `${o.method.toUpperCase()} ${o.path}${opId ? ` (${opId})` : ''}`;
  return { id: `operation:${opId ?? `${o.method}:${o.path}`}`, title };
}

/** The base URL of calls: servers[0].url resolved against the document's own URL (OpenAPI's default is "/"). */
export function serverBase(doc: Json, documentUrl: string): string {
  const servers = doc['servers'];
  const first = Array.isArray(servers) && isObject(servers[0]) && typeof servers[0]['url'] === 'string' ? servers[0]['url'] : '/';
  return new URL(first, documentUrl).href.replace(/\/+$/, '');
}

export function planCalls(doc: Json, documentUrl: string, opts: { allowWrites: boolean; headers: Record<string, string> }): CallPlan[] {
  let base: string;
  try {
    base = serverBase(doc, documentUrl);
  } catch {
    return operationsOf(doc).map((o) => ({ kind: 'skip', ...label(o), reason: 'servers[0].url is not a URL' }));
  }
  return operationsOf(doc).map((o): CallPlan => {
    const { id, title } = label(o);
    const skip = (reason: string): CallPlan => ({ kind: 'skip', id, title, reason });
    if (o.method !== 'get' && !opts.allowWrites) return skip(`${o.method.toUpperCase()} is not read-only; only GET operations are called (pass --allow-writes to call it)`);
    if (o.method === 'options' || o.method === 'trace' || o.method === 'head') return skip(`${o.method.toUpperCase()} operations are not called`);
    if (isRemoteHttp(base)) return skip(`the server ${base} is plain http on a remote host (PLUGIN-REMOTE-HTTPS); not called`);
    let path = o.path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = { ...opts.headers };
    for (const { param } of o.parameters) {
      const name = String(param['name']);
      const where = String(param['in']);
      const value = describedValue(doc, param);
      if (value === NONE) {
        if (param['required'] === true || where === 'path') return skip(`required ${where} parameter "${name}" has no example, enum or default to fill it from`);
        continue;
      }
      if (where === 'path') path = path.split(`{${name}}`).join(encodeURIComponent(encode(value)));
      else if (where === 'query') query.set(name, encode(value));
      else if (where === 'header') headers[name.toLowerCase()] = encode(value);
      else if (param['required'] === true) return skip(`required ${where} parameter "${name}" is not supported`);
    }
    let json: unknown;
    const rb = deref(doc, o.op['requestBody']);
    if (isObject(rb) && isObject(rb['content'])) {
      const mt = rb['content']['application/json'];
      if (!isObject(mt)) {
        if (rb['required'] === true) return skip('the request body is not application/json');
      } else {
        const v = describedValue(doc, mt) !== NONE ? describedValue(doc, mt) : bodyFromSchema(doc, mt['schema']);
        if (v === NONE) {
          if (rb['required'] === true) return skip('the required JSON request body cannot be filled from examples, enums or defaults');
        } else json = v;
      }
    }
    const qs = query.toString();
    const documented: Record<string, string[]> = {};
    const responses = o.op['responses'];
    if (isObject(responses)) {
      for (const [code, raw] of Object.entries(responses)) {
        const res = deref(doc, raw);
        documented[code] = isObject(res) && isObject(res['content']) ? Object.keys(res['content']) : [];
      }
    }
    const namesResource = o.parameters.some(({ param }) => param['in'] === 'path');
    return { kind: 'call', call: { id, title, method: o.method.toUpperCase() as HttpMethod, url: `${base}${path}${qs ? `?${qs}` : ''}`, headers, documented, namesResource, operation: { path: o.path, method: o.method }, ...(json !== undefined ? { json } : {}) } };
  });
}
