// Public entry point of the reference server.
import { idSource } from './random.ts';
import { createServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CREDENTIALS } from './accounts.ts';
import type { App, ResolvedOptions } from './context.ts';
import { resolveFaults } from './faults.ts';
import { resolveReadings, UnknownReadingError, type ReadingName } from './readings.ts';
import type { FaultName } from './faults.ts';
import { LIMITS } from './limits.ts';
import { createRequestListener } from './server.ts';
import { Timers, createState } from './state.ts';
import { hostOf, REMOTE_PLUGIN_VARIANTS, type RemotePlugins, type RemotePluginVariant } from './remote-plugins.ts';
import { selfSignedCertificate } from '../util/self-signed.ts';

export { FAULTS } from './faults.ts';
export { READINGS } from './readings.ts';
export type { FaultSpec, FaultArea, FaultName } from './faults.ts';

export interface ReferenceOptions {
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  faults?: string[];
  /** Other reasonable readings of the spec to serve (readings.ts); `alt` serves all of them. */
  readings?: string[];
  /**
   * `slow`: a live service's pace, slower than every short default of the harness but within its deadlines (PACES).
   * An explicit trainingMs or modelLoadMs wins over the pace's.
   */
  pace?: Pace;
  /** Total simulated fine-tune duration in ms; default 300. */
  trainingMs?: number;
  seed?: number;
  /** Per-organization file storage quota; default 1 GiB. */
  quotaBytes?: number;
  /** How long a newly fine-tuned model answers a retryable 503 before serving; default 0. */
  modelLoadMs?: number;
  /** Delay added before every answer, like a live service's latency; default 0. */
  latencyMs?: number;
  /**
   * Also serve one plugin per remote auth variant over HTTPS, on host names only the run resolves
   * (see remote-plugins.ts); default false.
   */
  remotePlugins?: boolean;
}

export interface ReferenceServer {
  /** http://127.0.0.1:PORT (no trailing slash); the API is at url + '/v1'. */
  url: string;
  /** Origin serving /.well-known/ai-plugin.json (same server as url). */
  pluginUrl: string;
  credentials: { apiKey: string; memberApiKey: string; organization: string; otherOrganization: string };
  faults: readonly string[];
  readings: readonly string[];
  /** With `remotePlugins`: their origins and certificate (reach them with remoteConnect()). */
  remotePlugins?: RemotePlugins;
  close(): Promise<void>;
}

export type Pace = 'default' | 'slow';

/**
 * The slow pace: a job of a minute whose first silence (enqueued → started, 12 s) outlasts the 10 s idle bound of
 * a plain stream, epochs 9 s apart, and a fine-tuned model that answers "still loading" for 4 s.
 */
export const PACES: Readonly<Record<Pace, { trainingMs: number; modelLoadMs: number }>> = {
  default: { trainingMs: 300, modelLoadMs: 0 },
  slow: { trainingMs: 60_000, modelLoadMs: 4_000 },
};

export function paceOf(name: string | undefined): Pace {
  if (name === undefined || name === 'default' || name === 'slow') return name ?? 'default';
  throw new UnknownReadingError(`unknown pace "${name}": the paces are default and slow`);
}

export async function startReferenceServer(opts: ReferenceOptions = {}): Promise<ReferenceServer> {
  const faults = resolveFaults(opts.faults ?? []);
  const readings = resolveReadings(opts.readings ?? []);
  const options: ResolvedOptions = {
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    trainingMs: opts.trainingMs ?? PACES[opts.pace ?? 'default'].trainingMs,
    seed: opts.seed ?? 0,
    quotaBytes: opts.quotaBytes ?? LIMITS.defaultQuotaBytes,
    modelLoadMs: opts.modelLoadMs ?? PACES[opts.pace ?? 'default'].modelLoadMs,
    latencyMs: opts.latencyMs ?? 0,
  };
  const app: App = {
    options,
    faults,
    fault: (name: FaultName) => faults.has(name),
    reading: (name: ReadingName) => readings.has(name),
    limits: LIMITS,
    state: createState(),
    timers: new Timers(),
    ids: idSource(options.seed),
    url: '',
    pluginUrl: '',
  };
  const server = createServer({ keepAlive: true }, createRequestListener(app));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  app.url = `http://${host}:${port}`;
  app.pluginUrl = app.url;
  const remote = opts.remotePlugins ? await startRemotePluginHost(app, options.host) : undefined;
  let closing: Promise<void> | undefined;
  return {
    url: app.url,
    pluginUrl: app.pluginUrl,
    credentials: { ...CREDENTIALS },
    faults: [...faults],
    readings: [...readings],
    ...(remote ? { remotePlugins: remote.plugins } : {}),
    close() {
      if (!closing) {
        app.timers.clearAll();
        closing = Promise.all([server, ...(remote ? [remote.server] : [])].map((s) => new Promise<void>((resolve) => {
          s.close(() => resolve());
          // Keep-alive sockets and deliberately hanging streams would otherwise keep close() waiting.
          s.closeAllConnections();
        }))).then(() => undefined);
      }
      return closing;
    },
  };
}

/** The remote plugin hosts: the same routes over HTTPS, with a certificate for their names made now. */
async function startRemotePluginHost(app: App, host: string): Promise<{ server: HttpsServer; plugins: RemotePlugins }> {
  const { cert, key } = selfSignedCertificate(REMOTE_PLUGIN_VARIANTS.map(hostOf), { commonName: 'model-api-conformance reference plugins', days: 2 });
  const server = createHttpsServer({ cert, key, keepAlive: true }, createRequestListener(app));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address() as AddressInfo;
  const urls = Object.fromEntries(REMOTE_PLUGIN_VARIANTS.map((v) => [v, `https://${hostOf(v)}:${port}`])) as Record<RemotePluginVariant, string>;
  return { server, plugins: { urls, cert } };
}
