// A generated case is a list of patches applied to the endpoint's base request. Patches are plain data, so a
// shrunk counterexample can be printed and re-applied exactly.

import type { FileFixtureSpec, RequestSpec } from '../suite/types.ts';

export type Patch =
  /** `json:/pointer` (creates objects on the way) or `form:name` (a multipart field). */
  | { op: 'set'; at: string; value: unknown }
  | { op: 'remove'; at: string }
  /** Replace (or with null remove) the multipart file of `field`. */
  | { op: 'file'; field: string; fixture: FileFixtureSpec | null }
  | { op: 'stream'; value: boolean };

export function set(at: string, value: unknown): Patch {
  return { op: 'set', at, value };
}

/** A deep copy of `base` with the patches applied, in order. */
export function applyPatches(base: RequestSpec, patches: readonly Patch[]): RequestSpec {
  const spec = structuredClone(base);
  for (const p of patches) {
    if (p.op === 'stream') {
      spec.stream = p.value;
    } else if (p.op === 'file') {
      const files = (spec.multipart ??= {}).files ?? [];
      const rest = files.filter((f) => f.field !== p.field);
      spec.multipart.files = p.fixture ? [...rest, p.fixture] : rest;
    } else if (p.at.startsWith('form:')) {
      const fields = ((spec.multipart ??= {}).fields ??= {});
      const name = p.at.slice(5);
      if (p.op === 'set') fields[name] = p.value;
      else delete fields[name];
    } else if (p.at.startsWith('json:')) {
      const tokens = p.at.slice(5).split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (tokens.length === 0) throw new Error(`patch path ${p.at} names no field`);
      if (spec.json === undefined || spec.json === null || typeof spec.json !== 'object') spec.json = {};
      let target = spec.json as Record<string, unknown>;
      for (const t of tokens.slice(0, -1)) {
        const next = target[t];
        if (next === null || typeof next !== 'object' || Array.isArray(next)) target[t] = {};
        target = target[t] as Record<string, unknown>;
      }
      const last = tokens[tokens.length - 1]!;
      if (p.op === 'set') target[last] = p.value;
      else delete target[last];
    } else {
      throw new Error(`unknown patch path ${p.at}`);
    }
  }
  return spec;
}

/** The request for humans: long strings and arrays abbreviated, so a 8193-token input stays one line. */
export function abbreviate(value: unknown, maxString = 80, maxItems = 12): unknown {
  if (typeof value === 'string') return value.length > maxString ? `${value.slice(0, maxString)}…(${value.length} chars)` : value;
  if (Array.isArray(value)) {
    const items = value.slice(0, maxItems).map((v) => abbreviate(v, maxString, maxItems));
    return value.length > maxItems ? [...items, `…(${value.length} items)`] : items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v, maxString, maxItems)]));
  }
  return value;
}

/** One line of JSON describing the request a case sent (method, path, body or form). */
export function describeRequest(spec: RequestSpec): string {
  const shown: Record<string, unknown> = { method: spec.method, path: spec.path };
  if (spec.stream) shown.stream = true;
  if (spec.json !== undefined) shown.json = abbreviate(spec.json);
  if (spec.multipart) {
    shown.form = abbreviate(spec.multipart.fields ?? {});
    shown.files = (spec.multipart.files ?? []).map((f) => abbreviate({ ...f }));
  }
  return JSON.stringify(shown);
}
