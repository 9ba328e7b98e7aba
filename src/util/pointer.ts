// RFC 6901 JSON Pointers: every finding names the exact place it is about.

export function escapeToken(token: string | number): string {
  // Every key of every answer a check walks comes through here; most need no escape.
  if (typeof token === 'number') return String(token);
  return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token;
}

export function pointerOf(...tokens: Array<string | number>): string {
  return tokens.length === 0 ? '' : '/' + tokens.map(escapeToken).join('/');
}

export function joinPointer(base: string, ...tokens: Array<string | number>): string {
  return base + pointerOf(...tokens);
}

/** Pointers parsed before: checks resolve the same few pointers on every exchange. Bounded, as any cache. */
const parsed = new Map<string, readonly string[]>();
const MAX_PARSED = 4096;

function parsePointer(pointer: string): readonly string[] {
  let tokens = parsed.get(pointer);
  if (tokens !== undefined) return tokens;
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer must start with "/": ${pointer}`);
  const raw = pointer.slice(1).split('/');
  tokens = pointer.includes('~') ? raw.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')) : raw;
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(pointer, tokens);
  return tokens;
}

/** Resolve a pointer; `undefined` when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === 'object') {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * Resolve a pointer whose tokens may be `*` (every element or property).
 * Returns concrete pointers with their values, so a finding can name the one that failed.
 */
export function resolveWildcard(doc: unknown, pointer: string): Array<{ pointer: string; value: unknown }> {
  let frontier: Array<{ pointer: string; value: unknown }> = [{ pointer: '', value: doc }];
  for (const token of parsePointer(pointer)) {
    const next: Array<{ pointer: string; value: unknown }> = [];
    for (const { pointer: p, value } of frontier) {
      if (token === '*') {
        if (Array.isArray(value)) value.forEach((v, i) => next.push({ pointer: joinPointer(p, i), value: v }));
        else if (value !== null && typeof value === 'object')
          for (const [k, v] of Object.entries(value)) next.push({ pointer: joinPointer(p, k), value: v });
      } else {
        const v = resolvePointer(value, '/' + escapeToken(token));
        if (v !== undefined) next.push({ pointer: joinPointer(p, token), value: v });
      }
    }
    frontier = next;
  }
  return frontier;
}
