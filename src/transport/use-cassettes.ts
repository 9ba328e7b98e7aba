// Cassettes for your own tests: the recorded service answers the requests of a test you wrote (your client,
// your prompts), through nock, with the harness's normalisation. The harness's own replay (replay.ts) is
// stricter — every request of a suite must match its recording in order — because it judges a server; here
// the recording stands in for the server, so matching can be loose.

import { cassetteFileNames, NOT_CASSETTES } from './cassette-folder.ts';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { Readable } from 'node:stream';
import { CassetteError, readCassette, recordedBodyBytes, type CassetteDefinition } from './cassette.ts';
import { framingOf, recordedHeaders, replayedHeaders } from './replay-framing.ts';
import { describeTarget, nearest as nearestRecorded, normalise, targetOfDefinition, type MatchTarget } from './cassette-match.ts';
import { MatchHeaderError, matchHeaderNames, pickHeaders } from './match-headers.ts';
import { nearest } from '../suite/errors.ts';
import { isSuccess } from '../util/status.ts';

export type CassetteMatch = 'strict' | 'loose';

export interface UseCassettesOptions {
  /**
   * `strict` (default): method, path (query included) and JSON body, with the harness's normalisation (key order,
   * timestamps and volatile keys never matter). `loose`: method, path and whether the body asks for a stream,
   * so a test with its own prompt is served a recorded answer of the same endpoint; successful recordings are
   * served before rejections.
   */
  match?: CassetteMatch;
  /** Decides body matching yourself (it replaces the strict comparison; `loose` ignores bodies). */
  bodyMatch?: (recorded: unknown, sent: unknown) => boolean;
  /** Serve the recording under another origin than the recorded one, e.g. 'https://api.example.com'. */
  host?: string;
  /** Only these cassette files (suite names, e.g. ['chat', 'completions']); default: every cassette in the folder. */
  suites?: string[];
  /** Each recorded answer serves one request (default), or any number of them. */
  reuse?: boolean;
  /** Let requests nothing matches reach the network (default false: they fail, never a silent live call). */
  allowNet?: boolean;
  /**
   * Request headers a recording is matched on besides method, path and body (an allow-list; default none, so that
   * an SDK upgrade never breaks a replay). The recording must have kept them: record with the same list. A
   * secret header (authorization, cookies, API keys) is refused: it is never stored.
   */
  matchHeaders?: string[];
}

export interface CassetteHandle {
  /** Recorded interactions no request has used yet, as "METHOD origin/path". */
  pending(): string[];
  /** Removes this handle's interceptors and restores the network setting. */
  done(): void;
}

function cassetteFiles(dir: string, suites: readonly string[] | undefined): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new TypeError(`useCassettes: no cassette folder at ${dir}`);
  const held = cassetteFileNames(dir).filter((f) => !NOT_CASSETTES.has(f));
  if (!suites) return held.map((n) => join(dir, n));
  const missing = suites.filter((s) => !held.includes(`${s}.json`));
  if (missing.length) throw new TypeError(`useCassettes: ${dir} holds no cassette of ${missing.map((m) => JSON.stringify(m)).join(', ')} (it holds: ${held.map((f) => f.replace(/\.json$/, '')).join(', ') || 'nothing'})`);
  return suites.map((s) => join(dir, `${s}.json`));
}

const OPTION_TYPES: Record<keyof UseCassettesOptions, string> = { match: 'string', bodyMatch: 'function', host: 'string', suites: 'array', reuse: 'boolean', allowNet: 'boolean', matchHeaders: 'array' };

/** A typo in an option would silently change what is served (`{ mach: 'loose' }` matched strictly): refused. */
function checkOptions(options: UseCassettesOptions): void {
  if (options === null || typeof options !== 'object') throw new TypeError('useCassettes: options must be an object');
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(OPTION_TYPES, name)) {
      const guess = nearest(name, Object.keys(OPTION_TYPES));
      throw new TypeError(`useCassettes: unknown option "${name}"${guess ? ` — did you mean "${guess}"?` : ''} (options: ${Object.keys(OPTION_TYPES).join(', ')})`);
    }
    if (value === undefined) continue;
    const want = OPTION_TYPES[name as keyof UseCassettesOptions];
    const ok = want === 'array' ? Array.isArray(value) && value.every((x) => typeof x === 'string') : typeof value === want;
    if (!ok) throw new TypeError(`useCassettes: option "${name}" must be ${want === 'array' ? `an array of ${name === 'matchHeaders' ? 'header' : 'suite'} names` : `a ${want}`}, not ${JSON.stringify(value) ?? typeof value}`);
  }
  try {
    matchHeaderNames(options.matchHeaders);
  } catch (e) {
    if (e instanceof MatchHeaderError) throw new TypeError(`useCassettes: matchHeaders: ${e.message}`);
    throw e;
  }
  if (options.match !== undefined && options.match !== 'strict' && options.match !== 'loose') throw new TypeError(`useCassettes: match must be "strict" or "loose", not ${JSON.stringify(options.match)}`);
  if (options.host !== undefined && !/^https?:\/\/[^/]+\/?$/.test(options.host)) throw new TypeError(`useCassettes: host must be an origin such as "https://api.example.com", not ${JSON.stringify(options.host)}`);
}

/**
 * A file is a cassette when it is a JSON array of definitions; other JSON of the folder (verdicts, a manifest) is
 * not, and is passed over. A broken cassette is never passed over: its error names the file and the entry.
 */
function definitionsOf(path: string, explicit: boolean): CassetteDefinition[] {
  try {
    return readCassette(path);
  } catch (e) {
    if (explicit || !(e instanceof CassetteError) || e.kind !== 'not-a-cassette') throw e;
    return [];
  }
}

function replyBody(def: CassetteDefinition): string | Buffer | Record<string, unknown> {
  if (def.responseIsBinary && typeof def.response === 'string') return Buffer.from(def.response, 'hex');
  if (typeof def.response === 'string') return def.response;
  return (def.response ?? '') as Record<string, unknown>;
}

/**
 * How nock serves a recording: as it was recorded. An answer cut off upstream is cut off again (its headers, the
 * bytes that came, then an error on the body), and no answer at all is a network error: served whole or as a 200,
 * either would pass a client's test that the service failed.
 */
function answer(interceptor: nock.Interceptor, def: CassetteDefinition): nock.Scope {
  if (def.status === 0) return interceptor.replyWithError(noAnswer(def));
  const framing = framingOf(def);
  if (framing === 'cut-off') return interceptor.reply(() => [def.status, pieces(def, true), cutOffHeaders(def)]);
  // nock frames the answer itself: the recorded headers without their framing, by the proxy's replay's rule. A
  // bodiless answer (HEAD, 204, 304) keeps its recorded content-length: there it is the length of the body a GET
  // gets, which nock cannot work out from an empty body.
  const headers = (framing === 'bodiless' ? replayedHeaders(def, framing, 0) : recordedHeaders(def).headers) as unknown as nock.ReplyHeaders;
  // A stream recorded with its chunks (the proxy's recordings) comes back chunk by chunk, as it was sent.
  return def.chunks ? interceptor.reply(() => [def.status, pieces(def, false), headers]) : interceptor.reply(def.status, replyBody(def) as nock.Body, headers);
}

/** What the client's request gets when the recording holds no answer: the error the recording names. */
function noAnswer(def: CassetteDefinition): Error {
  // An Error, not nock's { code, message } form: nock 15 never settles a request answered with that (fetch, http).
  return Object.assign(new Error(`recorded: ${def.error?.message ?? 'no answer'}`), { code: def.error?.kind === 'timeout' ? 'ETIMEDOUT' : 'ECONNRESET' });
}

/**
 * A cut-off answer's headers: the framing it was sent with, so that the client knows the body ended early (without
 * it, nock's fetch and undici clients take the bytes that came for a whole answer).
 */
function cutOffHeaders(def: CassetteDefinition): nock.ReplyHeaders {
  const headers = replayedHeaders(def, 'cut-off', recordedBodyBytes(def).length);
  if (!headers.some((h, i) => i % 2 === 0 && h === 'content-length')) headers.push('transfer-encoding', 'chunked');
  return headers as unknown as nock.ReplyHeaders;
}

/**
 * The recorded body as a stream of its recorded chunks, each in a turn of its own (delays are not replayed here);
 * `cut`: then the connection breaks.
 */
function pieces(def: CassetteDefinition, cut: boolean): Readable {
  const body = recordedBodyBytes(def);
  const sizes = def.chunks ?? [];
  return Readable.from((async function* () {
    let at = 0;
    for (const [, size] of sizes) {
      if (at >= body.length) break;
      yield body.subarray(at, at + size);
      at += size;
      await new Promise((r) => setImmediate(r));
    }
    if (at < body.length) yield body.subarray(at);
    if (cut) throw Object.assign(new Error(`recorded: ${def.error?.message ?? 'the answer broke off'}`), { code: 'ECONNRESET' });
  })());
}

const streamed = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as Record<string, unknown>).stream === true;

/** Loose matching serves successful answers first: a test with its own request wants the endpoint working. */
function servingOrder(defs: CassetteDefinition[], match: CassetteMatch): CassetteDefinition[] {
  if (match === 'strict') return defs;
  // A success that broke off is no success: served first, a loose match would hand the failure to a test that
  // asked for the endpoint's answer.
  const ok = (d: CassetteDefinition) => isSuccess(d.status) && framingOf(d) !== 'cut-off';
  return [...defs.filter(ok), ...defs.filter((d) => !ok(d))];
}

/** A body's normalised form; a sent body is normalised once, however many recordings it is held against. */
const normalisedSent = new WeakMap<object, string>();
function normalisedText(body: unknown): string {
  if (body === null || typeof body !== 'object') return JSON.stringify(normalise(body));
  let text = normalisedSent.get(body);
  if (text === undefined) normalisedSent.set(body, (text = JSON.stringify(normalise(body))));
  return text;
}

/**
 * Load a cassette folder into nock. Each recorded interaction becomes an interceptor on its origin (or
 * `host`), replying with the recorded status, headers and bytes. Call `done()` (in afterEach/afterAll).
 */
export function useCassettes(dir: string, options: UseCassettesOptions = {}): CassetteHandle {
  checkOptions(options);
  const match = options.match ?? 'strict';
  const matchHeaders = matchHeaderNames(options.matchHeaders);
  const interceptors: Array<{ interceptor: nock.Interceptor; label: string; scope: nock.Scope }> = [];
  const byOrigin = new Map<string, CassetteDefinition[]>();
  // Every file is read before anything is intercepted: a broken one throws with nothing left registered.
  const definitions = cassetteFiles(dir, options.suites).map((file) => definitionsOf(file, options.suites !== undefined));
  if (!nock.isActive()) nock.activate();
  for (const defs of definitions) {
    for (const def of servingOrder(defs, match)) {
      const origin = options.host ?? def.scope;
      const url = new URL(def.path, 'http://x');
      // Multipart bodies are recorded as a summary (never the bytes): they match on method and path.
      const judgeBody = def.multipart !== undefined || def.body === undefined
        ? undefined
        : match === 'loose'
          ? (sent: unknown) => streamed(sent) === streamed(def.body)
          : options.bodyMatch
            ? (sent: unknown) => options.bodyMatch!(def.body, sent)
            : ((recorded: string) => (sent: unknown) => normalisedText(sent) === recorded)(JSON.stringify(normalise(def.body)));
      // allowUnmocked: a request no recording of this origin matches goes to the network, not to nock's 501.
      const scope = nock(origin, options.allowNet ? { allowUnmocked: true } : {});
      const pathMatch = match === 'loose' ? url.pathname : def.path;
      let interceptor = judgeBody ? scope.intercept(pathMatch, def.method, judgeBody as nock.RequestBodyMatcher) : scope.intercept(pathMatch, def.method);
      if (match === 'loose') interceptor = interceptor.query(true);
      // Each allow-listed header as recorded; one the recording did not carry must be absent.
      for (const name of matchHeaders) {
        const recorded = def.reqheaders?.[name];
        interceptor = interceptor.matchHeader(name, (sent: string | null) => (sent ?? undefined) === recorded);
      }
      const reply = answer(interceptor, def);
      if (options.reuse) reply.persist();
      interceptors.push({ interceptor, label: `${def.method.toUpperCase()} ${origin}${def.path}`, scope: reply });
      byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), def]);
    }
  }
  // Last, per origin: a request no recording matches is answered in the API's error shape, naming the nearest one.
  const misses = options.allowNet ? [] : [...byOrigin].flatMap(([origin, defs]) => missInterceptors(origin, defs, matchHeaders));
  if (!options.allowNet) {
    refusing++;
    nock.disableNetConnect();
  }
  let finished = false;
  return {
    pending: () => interceptors.filter((i) => !i.scope.isDone()).map((i) => i.label),
    done: () => {
      if (finished) return;
      finished = true;
      for (const interceptor of [...interceptors.map((i) => i.interceptor), ...misses]) nock.removeInterceptor(interceptor);
      // nock keeps an origin whose interceptors were removed, and answers its requests 501 for the rest of the
      // process (a later live run against that origin would fail, pinned on the target). Only cleanAll() drops
      // such entries, and it drops everybody's: it runs when no interceptor of anybody's is left to drop.
      if (nock.activeMocks().length === 0) nock.cleanAll();
      // The network comes back when the last handle that refused it is done, not while another still refuses it.
      if (!options.allowNet && --refusing === 0) nock.enableNetConnect();
    },
  };
}

/** The methods a catch-all interceptor covers (the API's, and PUT/PATCH a client may send). */
export const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;

/** Catch-all interceptors of an origin, registered after its recordings: a miss is a 404 that says what was near. */
function missInterceptors(origin: string, defs: readonly CassetteDefinition[], matchHeaders: readonly string[]): nock.Interceptor[] {
  const scope = nock(origin).persist();
  return METHODS.map((method) => {
    const interceptor = scope.intercept(/.*/, method);
    interceptor.reply((async (req: Request) => {
      const u = new URL(req.url);
      const text = await req.text();
      let body: unknown = text === '' ? undefined : text;
      try { body = text === '' ? undefined : JSON.parse(text); } catch { /* kept as text */ }
      const headers = pickHeaders(Object.fromEntries(req.headers), matchHeaders);
      const sent: MatchTarget = { method, path: `${u.pathname}${u.search}`, body: body === undefined ? undefined : normalise(body), ...(headers ? { headers } : {}) };
      const near = nearestRecorded(sent, defs.map((d) => targetOfDefinition(d, matchHeaders)));
      const nearText = near ? `nearest recorded: ${describeTarget(targetOfDefinition(defs[near.index]!, matchHeaders))} (${near.why || 'the same request, already served: give reuse: true to serve it again'})` : 'nothing is recorded for this origin';
      const message = `useCassettes: no recording of ${describeTarget(sent)}; ${nearText}`;
      return [404, JSON.stringify({ error: { message, type: 'cassette_miss', param: null, code: 'cassette_miss' } }), { 'content-type': 'application/json' }];
    }) as never);
    return interceptor;
  });
}

/** Open handles that keep the network off (allowNet false). */
let refusing = 0;
