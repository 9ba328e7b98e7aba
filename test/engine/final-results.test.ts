// Results are final when emitted: what a listener receives with case-end is exactly what the run returns. A key the
// target refuses stops the suite from its first refusal (those results are not judged), so the case-ends of the
// refusals are held back until the key is accepted or the suite stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHarness } from '../../src/run/setup.ts';
import { runSuites } from '../../src/engine/index.ts';
import type { CheckResult, RunEvent } from '../../src/engine/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import { LiveTransport } from '../../src/transport/live.ts';
import { Redactor } from '../../src/util/redact.ts';

let server: ReferenceServer;
beforeAll(async () => { server = await startReferenceServer(); });
afterAll(async () => { await server.close(); });

async function runWithKey(apiKey: string, suite: string): Promise<{ emitted: CheckResult[]; returned: CheckResult[]; problems: string[] }> {
  const harness = loadHarness();
  const plans = harness.plans.filter((p) => p.spec.name === suite);
  const profile = buildProfile({}, { baseUrl: server.url, credentials: { ...server.credentials, apiKey } });
  const transport = new LiveTransport({ maxResponseBytes: 1 << 22, redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: [apiKey] }) });
  const emitted: CheckResult[] = [];
  const listener = (e: RunEvent) => { if (e.type === 'case-end') emitted.push(...e.results); };
  try {
    const run = await runSuites({ plans, transport, profile, registry: harness.registry, schemas: harness.schemas, seed: 3, reproduce: () => '', listener });
    return { emitted, returned: run.results, problems: run.problems.map((p) => p.kind) };
  } finally {
    await transport.close();
  }
}

describe('results are final when emitted', () => {
  it('a refused key: the case-ends say what the report says (not judged), never FAIL first and skipped after', async () => {
    const { emitted, returned, problems } = await runWithKey('sk-not-a-key-of-this-server', 'models');
    expect(problems).toEqual(['auth-refused']);
    expect(returned.some((r) => r.status === 'skip' && r.message.startsWith('not judged'))).toBe(true);
    expect(emitted).toEqual(returned);
  });

  it('an accepted key: every case-end as it was judged, in order', async () => {
    const { emitted, returned, problems } = await runWithKey(server.credentials.apiKey, 'models');
    expect(problems).toEqual([]);
    expect(returned.length).toBeGreaterThan(10);
    expect(emitted).toEqual(returned);
  });
});

describe('a suite written in code: results are final when emitted', () => {
  it('a problem met in its middle leaves the verdicts given before it, and unjudges what comes after (issue 30)', async () => {
    const harness = loadHarness();
    const profile = buildProfile({}, { baseUrl: server.url, credentials: server.credentials });
    const transport = new LiveTransport({ maxResponseBytes: 1 << 22, redactor: new Redactor({ secretHeaders: ['authorization'], secretValues: [] }) });
    const result = (id: string, status: 'fail' | 'pass'): CheckResult => ({ suite: 'coded', case: id, caseTitle: id, check: 'c', requirements: [], severity: 'must', status, message: status });
    const emitted: CheckResult[] = [];
    try {
      const run = await runSuites({
        plans: [], transport, profile, registry: harness.registry, schemas: harness.schemas, seed: 3, reproduce: () => '',
        listener: (e: RunEvent) => { if (e.type === 'case-end') emitted.push(...e.results); },
        programmatic: [{
          name: 'coded', area: 'models', selects: () => true,
          run: async (ctx) => {
            ctx.emitCase('before', [result('before', 'fail')]);
            // The target goes away: a request of the suite finds nothing listening (a problem of the run).
            await ctx.transport.send({ method: 'GET', url: 'http://127.0.0.1:1/v1/models', headers: {}, bodySummary: { kind: 'none' }, stream: false }, { timeoutMs: 2000 });
            ctx.emitCase('after', [result('after', 'fail')]);
          },
        }],
      });
      expect(run.problems.length).toBe(1);
      expect(run.results.map((r) => `${r.case}:${r.status}`)).toEqual(['before:fail', 'after:skip']);
      expect(emitted).toEqual(run.results);
    } finally {
      await transport.close();
    }
  });
});
