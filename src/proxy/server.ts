// `conformance proxy`: a reverse proxy any client points its base URL at. Every request is forwarded upstream and
// every answer relayed as it arrives (relay.ts); each exchange is recorded (store.ts) and judged against the spec
// as it passes (traffic/judge-traffic.ts), with the judge a suite run uses.

import { SECRET_HEADERS } from '../util/secret-headers.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CheckResult } from '../judge/results.ts';
import type { TrafficJudge } from '../traffic/judge-traffic.ts';
import { Agent } from '../transport/undici-core.ts';
import { withRequestHeaders } from '../transport/cassette-record.ts';
import { targetOfRequest, withHeaders } from '../transport/cassette-match.ts';
import { matchHeaderNames } from '../transport/match-headers.ts';
import { summariseBody } from '../transport/capture.ts';
import type { HttpMethod } from '../transport/types.ts';
import { Redactor } from '../util/redact.ts';
import { CASSETTE_HEADER, RequestTooLarge, answerError, forwardedHeaders, readRequestBody } from './relay.ts';
import { forward, replay, type ReplayTiming } from './exchange.ts';
import { CassetteStore, DEFAULT_CASSETTE, type ProxyMode } from './store.ts';
import { TOOL } from '../run/tool.ts';
import { ResultLog } from '../traffic/result-log.ts';

export interface ProxyOptions {
  /** Where requests go: an origin, with a base path if the service has one. None: only cassettes answer (lockdown). */
  upstream?: string;
  /** The cassette of a request without the x-conformance-cassette header (default `proxy`; ANY_CASSETTE: any). */
  defaultCassette?: string;
  /** How a recorded stream is replayed: at its recorded pace (default), at once, or its delays scaled by a factor. */
  timing?: ReplayTiming;
  /** The status of a request no cassette holds, in lockdown (default 404). */
  missStatus?: number;
  /** Written into each cassette's header: after how many days it is to be recorded again. */
  expiresAfterDays?: number;
  /** Headers added to every request sent upstream (in-process recording marks its own, so nock lets them pass). */
  upstreamHeaders?: Readonly<Record<string, string>>;
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Cassettes, and what to do with them; none: forward only. */
  record?: { dir: string; mode: ProxyMode };
  judge?: TrafficJudge;
  /** Header names whose values are secret besides authorization, cookies and API-key headers. */
  secretHeaders?: readonly string[];
  /**
   * Request headers recordings are matched on besides method, path and body (none by default, so that a client
   * upgrade never breaks a replay): each recording keeps their values. A secret header is refused.
   */
  matchHeaders?: readonly string[];
  /** Called once per exchange, after it ended, with its results. */
  onExchange?: (done: ExchangeDone) => void;
  /** Until the upstream's response headers (default 10 min: a long generation); and the longest quiet gap in a body. */
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** The largest request body forwarded (default 64 MiB); and how much of an answer is kept for the judge and a recording (16 MiB). */
  maxRequestBytes?: number;
  maxKeptBytes?: number;
  /** How long close() waits for exchanges under way (default 10 s); past it they are cut off, and the rest is written. */
  drainMs?: number;
}

export interface ExchangeDone {
  cassette: string;
  method: string;
  path: string;
  status: number | undefined;
  durationMs: number;
  source: 'upstream' | 'cassette' | 'refused';
  results: CheckResult[];
  error?: string;
}

export interface ProxyHandle {
  url: string;
  /** The results so far: every one that is not a pass, and each check's pass once with how many exchanges it stands for. */
  readonly results: readonly CheckResult[];
  /** Stops accepting, lets exchanges in flight end, and writes every cassette. */
  close(): Promise<{ unused: string[]; writeFailures: readonly string[] }>;
}


export async function startProxy(opts: ProxyOptions): Promise<ProxyHandle> {
  const upstream = new URL((opts.upstream ?? 'http://upstream.invalid').replace(/\/+$/, ''));
  const upstreamBase = upstream.origin + upstream.pathname.replace(/\/$/, '');
  const headersTimeoutMs = opts.headersTimeoutMs ?? 600_000;
  const agent = new Agent({ connections: null, pipelining: 1, headersTimeout: headersTimeoutMs, bodyTimeout: opts.idleTimeoutMs ?? 600_000, keepAliveTimeout: 30_000 });
  const keys = new Keys(opts.secretHeaders ?? []);
  const matchHeaders = matchHeaderNames(opts.matchHeaders, opts.secretHeaders);
  const store = new CassetteStore({
    matchHeaders, basePath: upstream.pathname,
    dir: opts.record?.dir, mode: opts.upstream === undefined ? 'lockdown' : opts.record?.mode ?? 'record',
    file: {
      header: (name, interactions) => ({ format: 1, suite: name, tool: `${TOOL.name} ${TOOL.version} proxy`, target: upstream.origin, base_url: upstream.href.replace(/\/$/, ''), seed: 0, credentials: { api_key: keys.any, member_api_key: false }, interactions, recorded_at: new Date().toISOString(), ...(opts.expiresAfterDays !== undefined ? { expires_after_days: opts.expiresAfterDays } : {}) }),
      guard: (part) => keys.guard(part),
      guardVersion: () => keys.count,
    },
  });
  const log = new ResultLog();
  const inFlight = new Set<Promise<void>>();
  const recording = opts.record !== undefined && ['record', 'update'].includes(opts.record.mode);
  const settings = { agent, headersTimeoutMs, maxKeptBytes: opts.maxKeptBytes ?? 16 * 1024 * 1024, judge: opts.judge, recording };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const cassette = headerValue(req.headers[CASSETTE_HEADER]) ?? opts.defaultCassette ?? DEFAULT_CASSETTE;
    const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
    const url = upstreamBase + pathWithin(req.url);
    let body: Buffer;
    try {
      body = await readRequestBody(req, opts.maxRequestBytes ?? 64 * 1024 * 1024);
    } catch (e) {
      answerError(res, e instanceof RequestTooLarge ? 413 : 400, { message: (e as Error).message, code: 'request_unreadable' });
      return;
    }
    const headers = { ...forwardedHeaders(req.headers), ...opts.upstreamHeaders };
    const redactor = keys.learn(headers);
    const summary = summariseBody(headers['content-type'], body);
    const exchangeRequest = { method, url, headers: redactor.headers(headers), body: redactor.shared(summary) };
    const path = url.slice(upstream.origin.length).split('?')[0]!;
    // The request's match key is made only when a cassette is read (normalising a body costs every exchange).
    // Matched on the headers as a recording keeps them (redacted), so that a value holding a learnt key still matches.
    const lookup = store.lookup(cassette, () => withHeaders(targetOfRequest(method, url, exchangeRequest.body, redactor), exchangeRequest.headers, matchHeaders));
    const done = (d: Pick<ExchangeDone, 'status' | 'source' | 'results' | 'error'>): void => {
      // The judge read the answer as it came, keys and all; what a result shows of it (an excerpt, a finding's
      // actual value) is redacted before anything prints or keeps it. A pass shows nothing of the answer.
      const results = d.results.map((r) => (r.status === 'pass' && r.response === undefined ? r : redactor.shared(r)));
      log.add(results);
      opts.onExchange?.({ cassette, method, path, durationMs: performance.now() - t0, ...d, results });
    };
    if (lookup.kind === 'miss') {
      const status = opts.missStatus ?? 404;
      answerError(res, status, { message: lookup.message, code: 'cassette_miss' });
      done({ status, source: 'refused', results: [], error: lookup.message });
      return;
    }
    if (lookup.kind === 'replay') {
      await replay(res, lookup.def, opts.timing ?? 'recorded');
      done({ status: lookup.def.status, source: 'cassette', results: [] });
      return;
    }
    const outcome = await forward({ cassette, method, url, headers, body, exchangeRequest, startedAt }, res, settings, redactor);
    if (outcome.definition) store.add(cassette, withRequestHeaders(outcome.definition, exchangeRequest.headers, matchHeaders));
    done({ status: outcome.status, source: 'upstream', results: outcome.results, ...(outcome.error ? { error: outcome.error } : {}) });
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const p = handle(req, res).catch((e: unknown) => answerError(res, 500, { message: `proxy fault: ${(e as Error).message}`, code: 'proxy_fault' }));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<{ unused: string[]; writeFailures: readonly string[] }> | undefined;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    get results() {
      return log.list();
    },
    close: () => (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // An answer that never ends (an event stream left open) must not hold the cassettes and reports back: past
      // the drain bound, the connections still open are cut (their exchanges end as cut off, unrecorded).
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([stopped.then(() => false), new Promise<boolean>((r) => { timer = setTimeout(() => r(true), opts.drainMs ?? 10_000); })]);
      clearTimeout(timer);
      if (late) server.closeAllConnections();
      await stopped;
      await Promise.allSettled([...inFlight]);
      await store.flush();
      await agent.close();
      return { unused: store.unused(), writeFailures: store.failures };
    })()),
  };
}

/**
 * The request target with its dot segments (`..`, `%2e%2e`) resolved against the root, as RFC 3986 §5.2.4 does: a
 * client cannot climb out of the upstream's base path, and the URL logged and recorded is the one sent.
 */
function pathWithin(target: string | undefined): string {
  const raw = target ?? '/';
  if (!raw.includes('.') && !raw.toLowerCase().includes('%2e')) return raw;
  const q = raw.indexOf('?');
  const [path, query] = q < 0 ? [raw, ''] : [raw.slice(0, q), raw.slice(q)];
  const segments = path.split('/').slice(1);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const plain = segment.toLowerCase().replaceAll('%2e', '.');
    if (plain === '..') out.pop();
    // A dot segment last leaves a directory: its slash stays (RFC 3986 §5.2.4).
    if (plain === '.' || plain === '..') { if (i === segments.length - 1) out.push(''); return; }
    out.push(segment);
  });
  return `/${out.join('/')}${query}`;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  const one = Array.isArray(v) ? v[0] : v;
  return one && one.trim() !== '' ? one.trim() : undefined;
}

/**
 * The keys clients send, learnt as they pass (the proxy is given none): every recording is redacted of each, and a
 * cassette text that still holds one is never written.
 */
class Keys {
  readonly #secretHeaders: string[];
  readonly #values = new Set<string>();
  #redactor: Redactor;

  constructor(extra: readonly string[]) {
    this.#secretHeaders = [...SECRET_HEADERS, ...extra.map((h) => h.toLowerCase())];
    this.#redactor = new Redactor({ secretHeaders: this.#secretHeaders, secretValues: [] });
  }

  get any(): boolean {
    return this.#values.size > 0;
  }

  learn(headers: Record<string, string>): Redactor {
    const before = this.#values.size;
    for (const name of this.#secretHeaders) {
      const v = headers[name];
      if (v === undefined) continue;
      const key = /^\s*(?:bearer|basic|token)\s+(.+)$/i.exec(v)?.[1]?.trim() ?? v.trim();
      if (key.length >= 8) this.#values.add(key);
    }
    if (this.#values.size !== before) this.#redactor = new Redactor({ secretHeaders: this.#secretHeaders, secretValues: [...this.#values] });
    return this.#redactor;
  }

  /** How many keys are known: a part that passed before may hold one learnt since. */
  get count(): number {
    return this.#values.size;
  }

  guard(part: string | Uint8Array): void {
    const text = typeof part === 'string' ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    for (const key of this.#values) if (text.includes(key)) throw new Error('a key the clients sent is still in the cassette text: not written');
  }
}
