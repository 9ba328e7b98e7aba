// Shared helpers for the reference-server tests: real HTTP over 127.0.0.1 with global fetch.
import { startReferenceServer } from '../../src/reference/index.ts';
import type { ReferenceOptions, ReferenceServer } from '../../src/reference/index.ts';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  json?: unknown;
  form?: FormData;
  key?: string | null;
  org?: string;
  headers?: Record<string, string>;
}

export class Client {
  constructor(readonly server: ReferenceServer) {}

  async call(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? this.server.credentials.apiKey : opts.key;
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    if (opts.org) headers['Service-Organization'] = opts.org;
    let body: string | FormData | undefined;
    if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      body = opts.form;
    }
    const url = path.startsWith('http') ? path : this.server.url + path;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  post(path: string, json: unknown, opts: CallOptions = {}) {
    return this.call('POST', path, { ...opts, json });
  }

  get(path: string, opts: CallOptions = {}) {
    return this.call('GET', path, opts);
  }
}

export async function startWithClient(opts: ReferenceOptions = {}): Promise<{ server: ReferenceServer; client: Client }> {
  const server = await startReferenceServer(opts);
  return { server, client: new Client(server) };
}

export function form(fields: Record<string, string>, files: Record<string, { data: Buffer; filename: string; type?: string }> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [k, f] of Object.entries(files)) fd.append(k, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.filename);
  return fd;
}

/** Parses a data-only SSE body into its data payloads (`[DONE]` kept as the string). */
export function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const line = block.split('\n').find((l) => l.startsWith('data: '))!;
      const data = line.slice(6);
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

export function expectError(res: ApiResponse, status: number, param?: string | null): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  const err = res.json?.error;
  if (!err || typeof err.message !== 'string' || !('type' in err) || !('param' in err) || !('code' in err)) {
    throw new Error(`bad error body: ${res.text}`);
  }
  if (param !== undefined && err.param !== param) throw new Error(`expected param ${param}, got ${err.param}: ${res.text}`);
}

export const TRAINING_JSONL = Array.from({ length: 12 }, (_, i) => JSON.stringify({ prompt: `item ${i} ->`, completion: ` label${i % 2} END` })).join('\n') + '\n';
export const VALIDATION_JSONL = Array.from({ length: 4 }, (_, i) => JSON.stringify({ prompt: `check ${i} ->`, completion: ` label${i % 2} END` })).join('\n') + '\n';

export async function uploadJsonl(client: Client, content: string, purpose = 'fine-tune', opts: CallOptions = {}): Promise<ApiResponse> {
  return client.call('POST', '/v1/files', { ...opts, form: form({ purpose }, { file: { data: Buffer.from(content), filename: 'data.jsonl' } }) });
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
