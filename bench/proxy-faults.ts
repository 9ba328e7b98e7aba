// Which reference faults a fixed client workload exposes, and how many of those the proxy catches (npm run
// bench:proxy-faults). The workload of test/proxy/workload.ts (the openai client v4: a completion, a chat
// completion, a stream, an embedding, a file upload, an image edit with a mask, a fine-tune followed to the end)
// runs once per fault of the areas it touches, through the proxy, recording. A fault is exposed when the recorded
// answers differ from the clean server's (volatile fields normalised, the same seed); it is caught when the
// proxy's judgement breaks a rule (must or should) that the clean server's does not.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULTS, startReferenceServer } from '../src/reference/index.ts';
import { recordedBodyBytes, type CassetteDefinition } from '../src/transport/cassette.ts';
import { normalise } from '../src/transport/cassette-match.ts';
import { startProxy } from '../src/proxy/server.ts';
import { trafficSession } from '../src/traffic/session.ts';
import { client, workload } from '../test/proxy/workload.ts';

const AREAS = new Set(['completions', 'chat', 'embeddings', 'files', 'images', 'fine-tunes', 'streaming', 'auth', 'models']);

/** What the workload was answered, comparable across runs: status and body, volatile fields normalised. */
function answers(dir: string): string[] {
  let defs: CassetteDefinition[] = [];
  try { defs = JSON.parse(readFileSync(join(dir, 'proxy.json'), 'utf8')) as CassetteDefinition[]; } catch { /* nothing recorded */ }
  // A poll asks as often as the job takes: of consecutive answers to one request, the last one counts.
  defs = defs.filter((d, i) => !(defs[i + 1] && defs[i + 1]!.method === d.method && defs[i + 1]!.path === d.path && d.method === 'GET'));
  return defs.map((d) => {
    const text = recordedBodyBytes(d).toString('utf8');
    let body: unknown = text.replace(/"(created|created_at|updated_at)":\d+/g, '');
    try { body = normalise(JSON.parse(text)); } catch { /* a stream or text */ }
    // A fine-tuned model is named by the time it was made: the time is no part of what a fault changes.
    return `${d.status} ${d.method} ${JSON.stringify(body).replace(/\d{4}-\d{2}-\d{2}[-T ]\d{2}[-:]\d{2}[-:]\d{2}(\.\d+)?Z?/g, '<time>')}`;
  });
}

async function broken(faults: string[]): Promise<{ rules: Set<string>; answers: string[]; clientError?: string }> {
  const server = await startReferenceServer({ faults, trainingMs: 100, seed: 7 });
  const dir = mkdtempSync(join(tmpdir(), 'proxy-faults-'));
  const proxy = await startProxy({ upstream: server.url, judge: trafficSession(server.url).judge, record: { dir, mode: 'record' } });
  let clientError: string | undefined;
  try {
    await workload(client(`${proxy.url}/v1`, server.credentials.apiKey));
  } catch (e) {
    clientError = (e as Error).message.slice(0, 80);
  }
  await proxy.close();
  await server.close();
  const rules = new Set(proxy.results.filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error').map((r) => `${r.severity} ${r.check}`));
  return { rules, answers: answers(dir), ...(clientError ? { clientError } : {}) };
}

const clean = await broken([]);
const again = await broken([]);
const faults = FAULTS.filter((f) => AREAS.has(f.area));
const caught: string[] = [];
const missed: string[] = [];
let unexposed = 0;
for (const f of faults) {
  const run = await broken([f.name]);
  const fresh = [...run.rules].filter((r) => !clean.rules.has(r));
  const exposed = run.clientError !== undefined || JSON.stringify(run.answers) !== JSON.stringify(clean.answers);
  if (!exposed && fresh.length === 0) { unexposed++; continue; }
  (fresh.length ? caught : missed).push(`${f.name}${fresh.length ? `: ${fresh.slice(0, 3).join(', ')}` : ''}${run.clientError ? ` (the client failed: ${run.clientError})` : ''}`);
}
console.log(`clean server: ${clean.rules.size} broken rules${clean.rules.size ? `: ${[...clean.rules].join(', ')}` : ''}; two clean runs answer alike: ${JSON.stringify(clean.answers) === JSON.stringify(again.answers)}`);
console.log(`${faults.length} faults of the areas the workload touches (${[...AREAS].join(', ')}); ${faults.length - unexposed} change what it is answered; the proxy catches ${caught.length} of those (${((100 * caught.length) / (faults.length - unexposed)).toFixed(0)} %)`);
console.log(`caught:\n  ${caught.join('\n  ')}\nexposed, not caught:\n  ${missed.join('\n  ')}`);
process.exit(0);
