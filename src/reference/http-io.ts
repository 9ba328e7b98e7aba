// Low-level request/response helpers on top of node:http.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './http-errors.ts';
import { LIMITS } from './limits.ts';

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMITS.maxRequestBodyBytes) {
        reject(new ApiError(413, `Request body larger than ${LIMITS.maxRequestBodyBytes} bytes.`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendBytes(res: ServerResponse, status: number, contentType: string, body: Buffer | string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function sendError(res: ServerResponse, err: ApiError, extraHeaders: Record<string, string> = {}, unwrapped = false): void {
  const body = unwrapped ? { message: err.message } : err.toBody();
  sendJson(res, err.status, body, { ...extraHeaders, ...err.headers });
}
