// useCassettes for your own tests, recording as well as replaying (nock.back's modes), one cassette per test.
// Replay is transport/use-cassettes.ts (nock serves the recording). Recording runs the proxy in process: nock
// intercepts the calls your test makes to `target` (fetch, http, the openai clients) and hands each to the proxy,
// which forwards it, relays the answer as it arrives, records it as faithfully and safely as `conformance proxy`
// does, and judges it. `handle.verdicts()` then says which rules of the spec the service broke.

import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import nock from 'nock';
import type { CheckResult } from '../judge/results.ts';
import { startProxy, type ProxyHandle } from '../proxy/server.ts';
import type { ProxyMode } from '../proxy/store.ts';
import { judgeCassette } from '../traffic/judge-recording.ts';
import { trafficSession } from '../traffic/session.ts';
import { cassettePath, readCassette, type CassetteDefinition } from '../transport/cassette.ts';
import { Agent, request } from '../transport/undici-core.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { METHODS, useCassettes as replayCassettes, type CassetteHandle as ReplayHandle, type UseCassettesOptions as ReplayOptions } from '../transport/use-cassettes.ts';

export type CassetteMode = 'record' | 'update' | 'lockdown' | 'dryrun' | 'wild';
export type { CassetteMatch } from '../transport/use-cassettes.ts';

export interface UseCassettesOptions extends ReplayOptions {
  /**
   * nock.back's modes, for the cassette `name`: `record` (replay it when it exists, else record it), `update`
   * (record it again), `lockdown` (replay only), `dryrun` (replay it when it exists, else call the service without
   * recording), `wild` (call the service; nothing is read or written). Default: `lockdown` where the CI
   * environment variable is set, else `record`. Without `name`, every cassette of the folder is replayed.
   */
  mode?: CassetteMode;
  /** The test's cassette: DIR/NAME.json (see `cassetteName` of model-api-conformance/vitest). */
  name?: string;
  /** The origin your client calls, e.g. 'https://api.openai.com': what is recorded (needed to record). */
  target?: string;
  /** A cassette older than this many days is recorded again in `record` mode, and reported in `lockdown`. */
  expiresAfterDays?: number;
  /**
   * When a replaying handle is done, the recorded interactions no request used are written to this JSON file
   * (`{ cassettes, unused: [...] }`), so a CI job can report fixtures that have gone stale.
   */
  unusedReport?: string;
}

export interface CassetteHandle extends Omit<ReplayHandle, 'done'> {
  /** Whether this handle records (or calls the service) rather than replays. */
  readonly recording: boolean;
  /** The cassette is older than `expiresAfterDays` (replayed all the same in lockdown). */
  readonly expired: boolean;
  /** Every result of judging the exchanges against the spec: recorded now, or the ones the cassette holds. */
  verdicts(): CheckResult[];
  /** The results that break a must rule: `expect(handle.mustFailures()).toEqual([])`. */
  mustFailures(): CheckResult[];
  /** Stops intercepting, and writes what was recorded. */
  done(): Promise<void>;
}

const OWN_OPTIONS = ['mode', 'name', 'target', 'expiresAfterDays', 'unusedReport'] as const;

function replayOptions(options: UseCassettesOptions): ReplayOptions {
  const rest: Record<string, unknown> = { ...options };
  for (const k of OWN_OPTIONS) delete rest[k];
  return rest as ReplayOptions;
}

const failuresOf = (results: readonly CheckResult[]) => results.filter((r) => r.status === 'fail' || r.status === 'error');

/** The day a cassette was recorded, from its header. */
function recordedAt(defs: readonly CassetteDefinition[]): number | undefined {
  const at = defs[0]?.conformance?.recorded_at;
  return at ? Date.parse(at) : undefined;
}

export function useCassettes(dir: string, options: UseCassettesOptions = {}): CassetteHandle {
  const mode = options.mode ?? (options.name === undefined ? 'lockdown' : process.env.CI ? 'lockdown' : 'record');
  if (!['record', 'update', 'lockdown', 'dryrun', 'wild'].includes(mode)) throw new TypeError(`useCassettes: mode must be record, update, lockdown, dryrun or wild, not ${JSON.stringify(mode)}`);
  if (options.name === undefined) {
    if (options.mode !== undefined && options.mode !== 'lockdown') throw new TypeError(`useCassettes: mode ${options.mode} needs a cassette name (the name option)`);
    return replaying(dir, options, undefined, false);
  }
  const path = cassettePath(dir, options.name);
  const defs = existsSync(path) ? readCassette(path) : undefined;
  const at = defs ? recordedAt(defs) : undefined;
  const days = options.expiresAfterDays ?? defs?.[0]?.conformance?.expires_after_days;
  const expired = days !== undefined && at !== undefined && Date.now() - at > days * 86_400_000;
  const replay = mode === 'lockdown' || ((mode === 'record' || mode === 'dryrun') && defs !== undefined && !(mode === 'record' && expired));
  if (replay) {
    if (defs === undefined) throw new TypeError(`useCassettes: no cassette ${path} to replay (mode lockdown${process.env.CI ? ', because CI is set' : ''}): record it first with mode 'record'`);
    return replaying(dir, { ...options, suites: [options.name] }, defs, expired);
  }
  if (mode === 'wild') return passThrough();
  if (!options.target || !/^https?:\/\/[^/]+\/?$/.test(options.target)) throw new TypeError(`useCassettes: recording needs target, the origin your client calls (e.g. 'https://api.openai.com'), not ${JSON.stringify(options.target)}`);
  return recording(dir, options as UseCassettesOptions & { name: string; target: string }, mode === 'dryrun' ? 'wild' : mode === 'update' ? 'update' : 'record');
}

function replaying(dir: string, options: UseCassettesOptions, defs: CassetteDefinition[] | undefined, expired: boolean): CassetteHandle {
  const handle = replayCassettes(dir, replayOptions(options));
  let verdicts: CheckResult[] | undefined;
  const judged = (): CheckResult[] => {
    if (verdicts) return verdicts;
    const all = defs ? [[options.name!, defs] as const] : [];
    const session = trafficSession(defs?.[0]?.scope ?? 'http://recording.invalid');
    verdicts = all.flatMap(([name, d]) => judgeCassette(d, session.judge, name));
    return verdicts;
  };
  const done = async (): Promise<void> => {
    const unused = handle.pending();
    handle.done();
    if (options.unusedReport) await writeFileAtomic(options.unusedReport, JSON.stringify({ cassettes: dir, ...(options.name ? { name: options.name } : {}), unused }, null, 2) + '\n');
  };
  return { recording: false, expired, pending: () => handle.pending(), verdicts: judged, mustFailures: () => failuresOf(judged()), done };
}

function passThrough(): CassetteHandle {
  return { recording: true, expired: false, pending: () => [], verdicts: () => [], mustFailures: () => [], done: async () => {} };
}


/** The header that marks the recording proxy's own requests to the target. */
const PASS = 'x-conformance-recording';

function recording(dir: string, options: UseCassettesOptions & { name: string; target: string }, mode: ProxyMode): CassetteHandle {
  const target = options.target.replace(/\/$/, '');
  const session = trafficSession(target);
  const agent = new Agent({ connections: null });
  let proxy: Promise<ProxyHandle> | undefined;
  const proxyOf = () => (proxy ??= startProxy({ upstream: target, record: { dir, mode }, judge: session.judge, defaultCassette: options.name, upstreamHeaders: { [PASS]: '1' }, ...(options.expiresAfterDays !== undefined ? { expiresAfterDays: options.expiresAfterDays } : {}), ...(options.matchHeaders ? { matchHeaders: options.matchHeaders } : {}) }));
  if (!nock.isActive()) nock.activate();
  // The proxy's own calls to the target carry PASS: nock lets them through to the service instead of back here.
  const scope = nock(target, { allowUnmocked: true, badheaders: [PASS] }).persist();
  const interceptors = METHODS.map((method) => scope.intercept(/.*/, method));
  for (const interceptor of interceptors) {
    // nock 15 hands a reply function the intercepted request as a fetch Request: its raw bytes, its headers.
    interceptor.reply((async (req: Request) => {
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => { if (k !== 'host' && k !== 'content-length') headers[k] = v; });
      const bytes = Buffer.from(await req.arrayBuffer());
      const p = await proxyOf();
      live = p;
      const u = new URL(req.url);
      const res = await request(`${p.url}${u.pathname}${u.search}`, { dispatcher: agent, method: req.method as 'GET', headers, body: bytes.length || !['GET', 'HEAD'].includes(req.method) ? bytes : null });
      return [res.statusCode, Readable.from(res.body), res.headers as nock.ReplyHeaders];
    }) as never);
  }
  let live: ProxyHandle | undefined;
  const results = (): CheckResult[] => [...(live?.results ?? [])];
  return {
    recording: true,
    expired: false,
    pending: () => [],
    verdicts: results,
    mustFailures: () => failuresOf(results()),
    done: async () => {
      for (const i of interceptors) nock.removeInterceptor(i);
      if (nock.activeMocks().length === 0) nock.cleanAll();
      if (proxy) await (await proxy).close();
      await agent.close();
    },
  };
}
