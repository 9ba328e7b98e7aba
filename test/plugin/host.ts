// A small plugin host for tests: node:http on 127.0.0.1 serving a manifest, an OpenAPI description, a
// logo and a few operations. `goodPlugin()` passes every check; tests mutate one thing at a time.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import YAML from 'yaml';

export type Json = Record<string, any>;

export interface Answer {
  status: number;
  type?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface PluginSpec {
  /** The manifest for a base URL; null → 404. */
  manifest: ((base: string) => Json) | null;
  /** Raw manifest body instead (e.g. not JSON). */
  manifestRaw?: string;
  /** The OpenAPI description for a base URL; null → 404. */
  openapi: ((base: string) => Json) | null;
  openapiFormat: 'yaml' | 'json' | 'html';
  openapiPath: string;
  logo: boolean;
  cors: boolean;
  /** Operation handlers by path (without query). */
  ops: Record<string, (url: URL, method: string) => Answer>;
  /** Extra routes (redirects etc.). */
  routes: Record<string, (url: URL, method: string) => Answer>;
}

const json = (body: unknown, status = 200): Answer => ({ status, type: 'application/json', body: JSON.stringify(body) });

export function goodManifest(base: string): Json {
  return {
    schema_version: 'v1',
    name_for_model: 'notes',
    name_for_human: 'Notes',
    description_for_model: 'Plugin for managing notes. Capabilities: list the notes (optionally limited), fetch one note by id, and add a note.',
    description_for_human: 'Keep and look up your notes.',
    auth: { type: 'none' },
    api: { type: 'openapi', url: `${base}/openapi.yaml`, is_user_authenticated: false },
    logo_url: `${base}/logo.png`,
    contact_email: 'support@example.com',
    legal_info_url: `${base}/legal`,
  };
}

export function goodOpenApi(base: string): Json {
  const content = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
  return {
    openapi: '3.0.1',
    info: { title: 'Notes', description: 'A small notes API.', version: 'v1' },
    servers: [{ url: base }],
    paths: {
      '/notes': {
        get: {
          operationId: 'listNotes',
          summary: 'List the notes',
          description: 'Returns the notes, at most `limit` of them.',
          parameters: [{ in: 'query', name: 'limit', required: false, description: 'Maximum number of notes.', schema: { type: 'integer', default: 10 } }],
          responses: { '200': { description: 'The notes.', content: content('NoteList') } },
        },
        post: {
          operationId: 'addNote',
          summary: 'Add a note',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewNote' } } } },
          responses: { '201': { description: 'The note.', content: content('Note') } },
        },
      },
      '/notes/{id}': {
        get: {
          operationId: 'getNote',
          summary: 'Get one note',
          parameters: [
            { in: 'path', name: 'id', required: true, description: 'Id of the note.', schema: { type: 'integer' }, example: 1 },
            { in: 'query', name: 'view', required: false, description: 'Full note or title only.', schema: { type: 'string', enum: ['full', 'title'] } },
          ],
          responses: { '200': { description: 'The note.', content: content('Note') }, '404': { description: 'No such note.' } },
        },
      },
    },
    components: {
      schemas: {
        Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer' }, text: { type: 'string' } } },
        NoteList: { type: 'object', properties: { notes: { type: 'array', items: { $ref: '#/components/schemas/Note' } } } },
        NewNote: { type: 'object', required: ['text'], properties: { text: { type: 'string', example: 'buy milk' } } },
      },
    },
  };
}

export function goodPlugin(): PluginSpec {
  return {
    manifest: goodManifest,
    openapi: goodOpenApi,
    openapiFormat: 'yaml',
    openapiPath: '/openapi.yaml',
    logo: true,
    cors: true,
    ops: {
      '/notes': (_u, method) => (method === 'POST' ? json({ id: 2, text: 'buy milk' }, 201) : json({ notes: [{ id: 1, text: 'hello' }] })),
      '/notes/1': () => json({ id: 1, text: 'hello' }),
    },
    routes: {},
  };
}

/** A manifest/doc mutation applied on top of the good plugin. */
export function withManifest(mutate: (m: Json, base: string) => void, spec: PluginSpec = goodPlugin()): PluginSpec {
  const inner = spec.manifest ?? goodManifest;
  return { ...spec, manifest: (base) => { const m = structuredClone(inner(base)); mutate(m, base); return m; } };
}

export function withOpenApi(mutate: (d: Json, base: string) => void, spec: PluginSpec = goodPlugin()): PluginSpec {
  const inner = spec.openapi ?? goodOpenApi;
  return { ...spec, openapi: (base) => { const d = structuredClone(inner(base)); mutate(d, base); return d; } };
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

export interface RunningHost {
  url: string;
  /** Every request the host saw: "METHOD path?query". */
  requests: string[];
  close(): Promise<void>;
}

export async function startHost(spec: PluginSpec): Promise<RunningHost> {
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    requests.push(`${method} ${url.pathname}${url.search}`);
    const origin = req.headers.origin;
    const cors: Record<string, string> = spec.cors ? { 'access-control-allow-origin': typeof origin === 'string' ? origin : '*', vary: 'Origin' } : {};
    const send = (a: Answer): void => {
      const body = a.body ?? '';
      res.writeHead(a.status, { ...cors, ...(a.type ? { 'content-type': a.type } : {}), 'content-length': String(Buffer.byteLength(body)), ...a.headers });
      res.end(body);
    };
    req.resume();
    if (method === 'OPTIONS') {
      if (!spec.cors) return send({ status: 404, type: 'text/plain', body: 'not found' });
      return send({ status: 204, headers: { 'access-control-allow-methods': 'GET, POST, OPTIONS', 'access-control-allow-headers': 'content-type' } });
    }
    const route = spec.routes[url.pathname];
    if (route) return send(route(url, method));
    if (url.pathname === '/.well-known/ai-plugin.json') {
      if (spec.manifestRaw !== undefined) return send({ status: 200, type: 'application/json', body: spec.manifestRaw });
      return spec.manifest ? send(json(spec.manifest(base))) : send({ status: 404, type: 'text/plain', body: 'Not found' });
    }
    if (url.pathname === spec.openapiPath) {
      if (!spec.openapi) return send({ status: 404, type: 'text/plain', body: 'Not found' });
      const doc = spec.openapi(base);
      if (spec.openapiFormat === 'json') return send(json(doc));
      if (spec.openapiFormat === 'html') return send({ status: 200, type: 'text/html', body: '<!DOCTYPE html><html><body>Docs moved.</body></html>' });
      return send({ status: 200, type: 'text/yaml', body: YAML.stringify(doc) });
    }
    if (url.pathname === '/logo.png' && spec.logo) return send({ status: 200, type: 'image/png', body: PNG });
    if (url.pathname === '/legal') return send({ status: 200, type: 'text/html', body: '<p>legal</p>' });
    const op = spec.ops[url.pathname];
    if (op) return send(op(url, method));
    send({ status: 404, type: 'application/json', body: '{"error":"not found"}' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
