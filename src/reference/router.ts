// Route table matching: literal segments and `:param` segments (decoded, so model ids with ':' or %3A work).
import type { Handler } from './context.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  pattern: string;
  handler: Handler;
  /** Served without API authentication (plugin host, image downloads). */
  public?: boolean;
  /** Plugin-host route: CORS headers and OPTIONS preflight. */
  cors?: boolean;
}

interface CompiledRoute extends Route {
  segments: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-mismatch'; routes: Route[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((r) => ({ ...r, segments: r.pattern.split('/').slice(1) }));
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').slice(1);
    const pathMatches: Route[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      pathMatches.push(route);
    }
    return pathMatches.length > 0 ? { kind: 'method-mismatch', routes: pathMatches } : { kind: 'none' };
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const part = parts[i]!;
    if (p.startsWith(':')) {
      if (part === '') return undefined;
      try {
        params[p.slice(1)] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
    } else if (p !== part) {
      return undefined;
    }
  }
  return params;
}
