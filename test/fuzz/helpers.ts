// A fuzz environment against an in-process reference server (optionally with faults).
import { defaultRegistry } from '../../src/checks/index.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import { Redactor } from '../../src/util/redact.ts';
import { createEnv, type FuzzEnv } from '../../src/fuzz/execute.ts';
import { propertiesFor } from '../../src/fuzz/suite.ts';
import type { FuzzProperty } from '../../src/fuzz/properties.ts';
import type { ProgrammaticContext } from '../../src/engine/programmatic.ts';
import type { CheckResult } from '../../src/engine/types.ts';

const schemas = SchemaRegistry.load();

export interface Target {
  server: ReferenceServer;
  env: FuzzEnv;
  props: FuzzProperty[];
  ctx(filter?: ProgrammaticContext['filter']): ProgrammaticContext & { results: CheckResult[] };
  close(): Promise<void>;
}

export async function startTarget(faults: string[] = [], seed = 11, opts: { latencyMs?: number; requestTimeoutMs?: number } = {}): Promise<Target> {
  const server = await startReferenceServer({ faults, trainingMs: 60_000, ...(opts.latencyMs ? { latencyMs: opts.latencyMs } : {}) });
  const profile = buildProfile({}, { baseUrl: server.url, credentials: { apiKey: server.credentials.apiKey, organization: server.credentials.organization }, ...(opts.requestTimeoutMs ? { requestTimeoutMs: opts.requestTimeoutMs } : {}) });
  const transport = new LiveTransport({ maxResponseBytes: profile.maxResponseBytes, redactor: new Redactor({ secretHeaders: profile.secretHeaders, secretValues: [server.credentials.apiKey] }) });
  const env = createEnv({ transport, profile, registry: defaultRegistry(), schemas, seed, timeoutMs: 5000 });
  return {
    server, env, props: propertiesFor(profile),
    ctx: (filter) => {
      const results: CheckResult[] = [];
      return { transport, profile, registry: defaultRegistry(), schemas, seed, emitCase: (_id, rs) => results.push(...rs), results, ...(filter ? { filter } : {}) };
    },
    close: async () => { await transport.close(); await server.close(); },
  };
}

export function prop(t: Target, name: string): FuzzProperty {
  const p = t.props.find((x) => x.name === name);
  if (!p) throw new Error(`no property ${name}`);
  return p;
}
