// Public entry point of the reference server.
import { idSource } from './random.ts';
import { createServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CREDENTIALS } from './accounts.ts';
import type { App, ResolvedOptions } from './context.ts';
import { resolveFaults } from './faults.ts';
import type { FaultName } from './faults.ts';
import { LIMITS } from './limits.ts';
import { createRequestListener } from './server.ts';
import { Timers, createState } from './state.ts';
import { hostOf, REMOTE_PLUGIN_VARIANTS, type RemotePlugins, type RemotePluginVariant } from './remote-plugins.ts';
import { selfSignedCertificate } from '../util/self-signed.ts';

export { FAULTS } from './faults.ts';
export type { FaultSpec, FaultArea, FaultName } from './faults.ts';

export interface ReferenceOptions {
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  faults?: string[];
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
  /** With `remotePlugins`: their origins and certificate (reach them with remoteConnect()). */
  remotePlugins?: RemotePlugins;
  close(): Promise<void>;
}

export async function startReferenceServer(opts: ReferenceOptions = {}): Promise<ReferenceServer> {
  const faults = resolveFaults(opts.faults ?? []);
  const options: ResolvedOptions = {
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    trainingMs: opts.trainingMs ?? 300,
    seed: opts.seed ?? 0,
    quotaBytes: opts.quotaBytes ?? LIMITS.defaultQuotaBytes,
    modelLoadMs: opts.modelLoadMs ?? 0,
    latencyMs: opts.latencyMs ?? 0,
  };
  const app: App = {
    options,
    faults,
    fault: (name: FaultName) => faults.has(name),
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
