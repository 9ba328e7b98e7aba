// Shared helpers for the record/replay tests: a small real server on 127.0.0.1 and request builders.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { TargetProfile } from '../../src/profile/types.ts';
import { boundaryFor, encodeMultipart } from '../../src/transport/multipart.ts';
import type { Exchange, OutgoingRequest } from '../../src/transport/types.ts';

export const KEY = 'sk-test-secret-key-0123456789abcdef';
export const ORG = 'org-test-recording';

export interface TestServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

const big = JSON.stringify({ data: Array.from({ length: 300 }, (_, i) => ({ i, text: `item ${i}` })) });
export const SSE_BODY = ': keep-alive comment\r\n\r\ndata: {"i":0,"text":"h\u00e9"}\r\n\r\nevent: x\ndata: {"i":1}\n\ndata: [DONE]\n\n';

function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const path = req.url ?? '/';
  const json = (status: number, value: unknown, extra: Record<string, string | string[]> = {}): void => {
    const text = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extra });
    res.end(text);
  };
  if (path.startsWith('/v1/json')) return json(200, { ok: true, created: Date.now(), echo: body.length ? JSON.parse(body.toString()) : null, query: path });
  if (path === '/v1/pretty') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end('{\n  "pretty": 1.50\n}\n');
  }
  if (path === '/v1/upload') {
    const type = req.headers['content-type'] ?? '';
    return json(200, { bytes: body.length, multipart: type.startsWith('multipart/form-data'), sha256: createHash('sha256').update(body).digest('hex').slice(0, 8) });
  }
  if (path === '/v1/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    const bytes = Buffer.from(SSE_BODY, 'utf8');
    // Split inside a CRLF and inside the two-byte é, to make the recording prove it is byte-exact.
    const cuts = [SSE_BODY.indexOf('\r\n') + 1, Buffer.from(SSE_BODY).indexOf(0xc3) + 1, bytes.length];
    let at = 0;
    const next = (): void => {
      const cut = cuts.shift();
      if (cut === undefined) return void res.end();
      res.write(bytes.subarray(at, cut));
      at = cut;
      setTimeout(next, 2);
    };
    return next();
  }
  if (path === '/v1/gzip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    return void res.end(gzipSync(big));
  }
  if (path === '/v1/binary') {
    res.writeHead(200, { 'content-type': 'image/png', 'set-cookie': ['a=1', 'b=2'] });
    return void res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]));
  }
  if (path === '/v1/echo-auth') {
    // A careless server that echoes the key, in a plain and in a gzip'd body.
    const text = JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization ?? ''}` } });
    if (req.headers['x-gzip'] === '1') {
      res.writeHead(401, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-echo': String(req.headers.authorization) });
      return void res.end(gzipSync(text));
    }
    return json(401, JSON.parse(text), { 'x-echo': String(req.headers.authorization) });
  }
  if (path === '/v1/empty') {
    res.writeHead(204);
    return void res.end();
  }
  json(404, { error: { message: `no route ${path}` } });
}

export async function startTestServer(): Promise<TestServer> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push(`${req.method} ${req.url}`);
      handle(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export function profileFor(baseUrl: string): TargetProfile {
  return {
    baseUrl,
    models: { completion: 'm', chat: 'm', edit: 'm', embedding: 'm', transcription: 'm', moderation: 'm', fine_tune_base: 'm' },
    optionalModels: {},
    contextLengths: {},
    areas: new Set(),
    credentials: { apiKey: KEY, organization: ORG },
    timeouts: { requestMs: 5000, streamIdleMs: 5000, streamTotalMs: 5000, pollDeadlineMs: 5000, modelLoadMs: 5000 },
    maxResponseBytes: 10_000_000,
    followBudget: 200,
    secretHeaders: ['authorization', 'service-organization'],
  };
}

const auth = { authorization: `Bearer ${KEY}`, 'service-organization': ORG, 'user-agent': 'model-api-conformance' };

export function jsonRequest(base: string, path: string, value: unknown, extra: Partial<OutgoingRequest> = {}): OutgoingRequest {
  return { method: 'POST', url: base + path, headers: { ...auth, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)), bodySummary: { kind: 'json', value }, stream: false, ...extra };
}

export function getRequest(base: string, path: string, headers: Record<string, string> = {}): OutgoingRequest {
  return { method: 'GET', url: base + path, headers: { ...auth, ...headers }, bodySummary: { kind: 'none' }, stream: false };
}

export const PNG_BYTES = Buffer.from(Array.from({ length: 700 }, (_, i) => (i * 37) & 0xff));

export function multipartRequest(base: string, seed: string, prompt = 'a cat'): OutgoingRequest {
  const { body, contentType } = encodeMultipart(
    [{ name: 'prompt', value: prompt }, { name: 'image', filename: 'image.png', contentType: 'image/png', data: PNG_BYTES }],
    boundaryFor(seed),
  );
  return {
    method: 'POST', url: `${base}/v1/upload`, headers: { ...auth, 'content-type': contentType }, body, stream: false,
    bodySummary: { kind: 'multipart', fields: { prompt }, files: [{ field: 'image', filename: 'image.png', contentType: 'image/png', size: PNG_BYTES.length, sha256: createHash('sha256').update(PNG_BYTES).digest('hex') }] },
  };
}

/** An Exchange without its timings (the one thing replay cannot reproduce). */
export function comparable(e: Exchange): unknown {
  const { timing: _timing, ...rest } = e;
  return rest;
}
