// Which endpoint a request went to, with the ids taken out: POST /v1/files/file-abc/content and
// GET /v1/files/file-xyz/content are one endpoint. The API's resources sit at /v1/<resource>/<id>/<action>, except
// under the namespaces below, where the second segment names the operation (/v1/chat/completions).

const NAMESPACES: ReadonlySet<string> = new Set(['chat', 'audio', 'images']);

/**
 * The shapes of the URLs seen. A run sends thousands of requests to a few dozen URLs, and parsing a URL cost more
 * than the rest of a case's bookkeeping (the peer workload: ~5 µs a request). Emptied when full: bounded.
 */
const SHAPES = new Map<string, string>();
const MAX_SHAPES = 1024;

export function endpointKey(method: string, url: string): string {
  let shape = SHAPES.get(url);
  if (shape === undefined) {
    if (SHAPES.size >= MAX_SHAPES) SHAPES.clear();
    SHAPES.set(url, (shape = shapeOf(url)));
  }
  return `${method} ${shape}`;
}

function shapeOf(url: string): string {
  let path: string;
  try { path = new URL(url).pathname; } catch { path = url.split('?')[0]!; }
  const segments = path.split('/').filter((s) => s !== '');
  const v1 = segments.indexOf('v1');
  if (v1 < 0) return path;
  const [resource, second, ...rest] = segments.slice(v1 + 1);
  if (resource === undefined) return '/v1';
  if (second === undefined) return ['', 'v1', resource].join('/');
  const shape = NAMESPACES.has(resource) ? [resource, second, ...rest.map(() => '{}')] : [resource, '{}', ...rest];
  return ['', 'v1', ...shape].join('/');
}
