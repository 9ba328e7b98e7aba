// RFC 6901 JSON Pointers: every finding names the exact place it is about.

export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...tokens: Array<string | number>): string {
  return tokens.length === 0 ? '' : '/' + tokens.map(escapeToken).join('/');
}

export function joinPointer(base: string, ...tokens: Array<string | number>): string {
  return base + pointerOf(...tokens);
}

function parsePointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer must start with "/": ${pointer}`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
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
