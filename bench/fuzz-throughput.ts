// Fuzz throughput against the in-process reference server: fuzz cases per second over every property,
// through one keep-alive LiveTransport. Run: npm run bench:fuzz [-- --runs N --concurrency C --seed S]

import { parseArgs } from 'node:util';
import { defaultRegistry } from '../src/checks/index.ts';
import { buildProfile } from '../src/profile/profile.ts';
import { startReferenceServer } from '../src/reference/index.ts';
import { SchemaRegistry } from '../src/schema/registry.ts';
import { LiveTransport } from '../src/transport/live.ts';
import { Redactor } from '../src/util/redact.ts';
import { createEnv } from '../src/fuzz/execute.ts';
import { runProperty } from '../src/fuzz/runner.ts';
import { propertiesFor } from '../src/fuzz/suite.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' }, concurrency: { type: 'string' }, seed: { type: 'string' }, budget: { type: 'string' } } });
const runs = Number(values.runs ?? 25);
const concurrency = Number(values.concurrency ?? 1);
const seed = Number(values.seed ?? 1);
const budgetMs = Number(values.budget ?? 5000);

const server = await startReferenceServer();
const profile = buildProfile({}, { baseUrl: server.url, credentials: { apiKey: server.credentials.apiKey, organization: server.credentials.organization } });
const transport = new LiveTransport({ maxResponseBytes: profile.maxResponseBytes, redactor: new Redactor({ secretHeaders: profile.secretHeaders, secretValues: [server.credentials.apiKey] }) });
const schemas = SchemaRegistry.load();
const registry = defaultRegistry();
// Fine-tune properties need uploaded training files (set up by the suite); the bench measures the stateless ones.
const props = propertiesFor(profile).filter((p) => p.endpoint !== 'fine-tunes');
const env = createEnv({ transport, profile, registry, schemas, seed, timeoutMs: budgetMs });

// Warm-up: compile schemas, build fixtures, open connections.
for (const p of props) await runProperty(env, p, { runs: 0, budgetMs });
env.cases = 0;

const started = performance.now();
let failed = 0;
let next = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < props.length) {
    const p = props[next++]!;
    const o = await runProperty(env, p, { runs, budgetMs });
    if (o.result.status !== 'pass') {
      failed++;
      console.error(`${o.result.status} ${p.name}: ${o.result.message}`);
    }
  }
}));
const seconds = (performance.now() - started) / 1000;
console.log(`fuzz throughput: ${env.cases} cases in ${seconds.toFixed(2)} s = ${Math.round(env.cases / seconds)} cases/s (${props.length} properties, ${runs} random runs each + boundary cases, concurrency ${concurrency}, seed ${seed}${failed ? `, ${failed} properties not passing` : ''})`);
await transport.close();
await server.close();
