// Every case of the built-in suites, selected alone as its reproduce command selects it (`--grep <case-id>`),
// passes on the conformant reference server: a selection runs what the case depends on (captures, the changes
// to what it reads, the cases its checks compare with), so a reproduce command never judges a state the full run
// would not have had. (`--grep deleted-not-listed` once failed a conformant target: the delete was left out.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadHarness } from '../../src/run/setup.ts';
import { runSuites } from '../../src/engine/index.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import { Redactor } from '../../src/util/redact.ts';

let server: ReferenceServer;
beforeAll(async () => { server = await startReferenceServer({ trainingMs: 150, modelLoadMs: 30 }); });
afterAll(async () => { await server.close(); });

it('each case alone passes on the reference server (the plugin suites, which need the remote plugins, aside)', async () => {
  const harness = loadHarness();
  const profile = buildProfile({}, { baseUrl: server.url, pluginUrl: server.pluginUrl, credentials: server.credentials, models: { non_chat: 'davinci' } });
  const transport = new LiveTransport({ maxResponseBytes: profile.maxResponseBytes, redactor: new Redactor({ secretHeaders: profile.secretHeaders, secretValues: [server.credentials.apiKey, server.credentials.memberApiKey] }) });
  const bad: string[] = [];
  let runs = 0;
  try {
    for (const plan of harness.plans.filter((p) => !p.spec.name.startsWith('plugins'))) {
      for (const c of plan.spec.cases) {
        runs++;
        const run = await runSuites({
          plans: [plan], transport, profile, registry: harness.registry, schemas: harness.schemas, seed: 5, jobs: 1,
          filter: { grep: c.id }, reproduce: () => '', severityOf: (id) => harness.catalogue.byId.get(id)?.severity,
        });
        for (const r of run.results) if (r.status === 'fail' || r.status === 'error') bad.push(`--suite ${plan.spec.name} --grep ${c.id}: ${r.case} › ${r.check}: ${r.message.slice(0, 160)}`);
        for (const p of run.problems) bad.push(`--suite ${plan.spec.name} --grep ${c.id}: problem: ${p.message}`);
      }
    }
  } finally {
    await transport.close();
  }
  expect(runs).toBeGreaterThan(300);
  expect(bad).toEqual([]);
}, 600_000);
