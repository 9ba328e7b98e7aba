// A hostile target on 127.0.0.1: GET /v1/models answers normally (so the preflight passes and the run gets to
// its cases); every other request meets the server's current mode. `dead-after-preflight` answers the preflight
// only, then nothing at all (a deadlock, a proxy that swallows requests).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export const HOSTILE_MODES = [
  'hang', 'hang-after-headers', 'reset', 'drip-json', 'drip-stream', 'endless-stream', 'huge-body', 'gzip-bomb',
  'gzip-bomb-multi', 'invalid-utf8', 'truncated-json', 'deep-json', 'html-200', 'huge-header', 'many-headers',
  'stream-cut-mid-event', 'million-chunks', 'key-echo', 'key-echo-json-escaped', 'key-echo-at-cut',
  'key-echo-base64', 'dead-after-preflight',
] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

const MiB = 1024 * 1024;
/** 64 MiB of zeros gzips to ~64 KiB: one member decodes far past the 64 MiB cap. */
const bomb = gzipSync(Buffer.alloc(80 * MiB));
const chunk = (i: number) => `data: {"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"text":"x${i}","index":0,"logprobs":null,"finish_reason":null}]}\n\n`;

export interface Hostile { url: string; mode: HostileMode; close(): Promise<void> }

export async function startHostile(mode: HostileMode, key: string): Promise<Hostile> {
  const timers = new Set<NodeJS.Timeout>();
  const every = (ms: number, fn: () => boolean | void): void => {
    const t = setInterval(() => { if (fn() === false) { clearInterval(t); timers.delete(t); } }, ms);
    timers.add(t);
  };
  let listed = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (mode === 'dead-after-preflight' && listed++ > 0) return;
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
        return;
      }
      const alive = () => !res.destroyed && !res.writableEnded;
      switch (mode) {
        case 'hang': return; // never answers (GET /v1/models still does)
        case 'dead-after-preflight': return;
        case 'hang-after-headers': res.writeHead(200, { 'content-type': req.url?.includes('stream') ? 'text/event-stream' : 'application/json' }); res.flushHeaders(); return;
        case 'reset': req.socket.destroy(); return;
        case 'drip-json': res.writeHead(200, { 'content-type': 'application/json' }); res.write('{'); every(500, () => alive() && (res.write(' '), true)); return;
        case 'drip-stream': res.writeHead(200, { 'content-type': 'text/event-stream' }); every(500, () => alive() && (res.write(':'), true)); return;
        case 'endless-stream': { res.writeHead(200, { 'content-type': 'text/event-stream' }); let i = 0; every(5, () => alive() && (res.write(chunk(i++)), true)); return; }
        case 'huge-body': {
          res.writeHead(200, { 'content-type': 'application/json' });
          const block = Buffer.alloc(MiB, 0x61);
          let sent = 0;
          const pump = (): void => { while (alive() && sent < 150 && res.write(block)) sent++; if (alive() && sent < 150) res.once('drain', pump); else if (alive()) res.end(); };
          pump();
          return;
        }
        case 'gzip-bomb': res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb); return;
        case 'gzip-bomb-multi': { res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }); let n = 0; every(1, () => alive() && n++ < 40 ? (res.write(bomb), true) : (alive() && res.end(), false)); return; }
        case 'invalid-utf8': res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from('{"id":"c","object":"text_completion","created":1,"model":"m","choices":[{"text":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","index":0,"logprobs":null,"finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}')])); return;
        case 'truncated-json': res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"c","object":"text_completion","choices":[{"text":"'); return;
        case 'deep-json': res.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(100_000) + ']'.repeat(100_000)); return;
        case 'html-200': res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${'<p>maintenance</p>'.repeat(2000)}</body></html>`); return;
        case 'huge-header': res.writeHead(200, { 'content-type': 'application/json', 'x-huge': 'h'.repeat(60_000) }).end('{}'); return;
        case 'many-headers': { const h: Record<string, string> = { 'content-type': 'application/json' }; for (let i = 0; i < 10_000; i++) h[`x-h${i}`] = String(i); res.writeHead(200, h).end('{}'); return; }
        case 'stream-cut-mid-event': res.writeHead(200, { 'content-type': 'text/event-stream' }); res.write(chunk(0)); res.write('data: {"id":"c","obj'); setTimeout(() => req.socket.destroy(), 50); return;
        case 'million-chunks': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          let i = 0;
          const pump = (): void => { while (alive() && i < 1_000_000 && res.write(chunk(i))) i++; if (alive() && i < 1_000_000) res.once('drain', pump); else if (alive()) res.end('data: [DONE]\n\n'); };
          pump();
          return;
        }
        case 'key-echo': res.writeHead(401, { 'content-type': 'application/json', 'x-echo': encodeURIComponent(key) }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key} / ${encodeURIComponent(key)}` } })); return;
        // A JSON encoder that escapes more than it must (PHP's json_encode escapes "/"; some escape "-" as \u002d),
        // and a key in a header's name.
        case 'key-echo-json-escaped': res.writeHead(401, { 'content-type': 'application/json', [`x-${key.toLowerCase()}`]: '1' }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }).replace(/-/g, '\\u002d').replace(/\//g, '\\/')); return;
        // The key where the harness cuts a long server message (300 characters) for its reports.
        // The key in base64: a Basic credential echoed in a header, a JWT-like token (URL-safe) in the body.
        case 'key-echo-base64': {
          const token = Buffer.from(JSON.stringify({ sub: 'user', key })).toString('base64url');
          res.writeHead(401, { 'content-type': 'application/json', 'x-echo': `Basic ${Buffer.from(`user:${key}`).toString('base64')}` }).end(JSON.stringify({ error: { message: `Incorrect API key in token eyJhbGciOiJub25lIn0.${token}.` } }));
          return;
        }
        case 'key-echo-at-cut': res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `${'x'.repeat(280)}${key}${'y'.repeat(3000)}` } })); return;
      }
    });
  });
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    mode,
    close: () => new Promise<void>((resolve) => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
