// Which endpoint a request went to, with the ids taken out: POST /v1/files/file-abc/content and
// GET /v1/files/file-xyz/content are one endpoint. The API's resources sit at /v1/<resource>/<id>/<action>, except
// under the namespaces below, where the second segment names the operation (/v1/chat/completions).

const NAMESPACES: ReadonlySet<string> = new Set(['chat', 'audio', 'images']);

export function endpointKey(method: string, url: string): string {
  let path: string;
  try { path = new URL(url).pathname; } catch { path = url.split('?')[0]!; }
  const segments = path.split('/').filter((s) => s !== '');
  const v1 = segments.indexOf('v1');
  if (v1 < 0) return `${method} ${path}`;
  const [resource, second, ...rest] = segments.slice(v1 + 1);
  if (resource === undefined) return `${method} /v1`;
  if (second === undefined) return `${method} /v1/${resource}`;
  const shape = NAMESPACES.has(resource) ? [resource, second, ...rest.map(() => '{}')] : [resource, '{}', ...rest];
  return `${method} /v1/${shape.join('/')}`;
}
