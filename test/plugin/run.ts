// Run the plugin suite programmatically against a URL and collect its results.

import { defaultRegistry } from '../../src/checks/index.ts';
import { runSuites } from '../../src/engine/index.ts';
import type { CheckResult } from '../../src/engine/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import type { Transport } from '../../src/transport/types.ts';
import { Redactor } from '../../src/util/redact.ts';
import { pluginSuite, type PluginSuiteOptions } from '../../src/plugin/suite.ts';

const schemas = SchemaRegistry.load();

export interface PluginRun {
  results: CheckResult[];
  /** URLs the transport was asked to send to. */
  sent: string[];
  failed: string[];
  warned: string[];
}

export async function runPlugin(url: string, options: PluginSuiteOptions = {}): Promise<PluginRun> {
  const live = new LiveTransport({ maxResponseBytes: 4 * 1024 * 1024, redactor: new Redactor({ secretHeaders: [], secretValues: [] }) });
  const sent: string[] = [];
  const transport: Transport = { name: 'live', send: (req, o) => { sent.push(`${req.method} ${req.url}`); return live.send(req, o); }, close: () => live.close() };
  try {
    const run = await runSuites({
      plans: [], transport, profile: buildProfile({}, { baseUrl: url, pluginUrl: url, areas: ['plugins'], requestTimeoutMs: 5000 }),
      registry: defaultRegistry(), schemas, seed: 0, reproduce: () => '', programmatic: [pluginSuite({ url, ...options })],
    });
    const ids = (status: string) => [...new Set(run.results.filter((r) => r.status === status).flatMap((r) => r.requirements))].sort();
    return { results: run.results, sent, failed: [...ids('fail'), ...ids('error')], warned: ids('warn') };
  } finally {
    await transport.close();
  }
}
