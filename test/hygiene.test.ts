/**
 * Hygiene: a run against the reference server deletes the files, jobs and models it created — and
 * only those — even when cases fail or the run is interrupted.
 *
 * Each scenario starts its own reference server, creates resources directly over HTTP before the run
 * (a file, and a fine-tune job that has produced a model and a result file), runs the harness
 * in-process through `main(['run', '--base-url', …])` with its own interrupt signal, then asserts over
 * HTTP, in both organizations, that the pre-existing resources are untouched and that nothing the run
 * created is left: no file, no non-terminal job, no fine-tuned model.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../src/reference/index.ts';
import { repoRoot } from '../src/util/paths.ts';

const STATE_SUITES = ['files', 'fine-tunes', 'fine-tunes-create', 'fine-tunes-classification'];
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

type Org = 'default' | 'other';

class Api {
  constructor(private readonly server: ReferenceServer) {}

  headers(org: Org): Record<string, string> {
    const c = this.server.credentials;
    return { authorization: `Bearer ${c.apiKey}`, 'service-organization': org === 'other' ? c.otherOrganization : c.organization };
  }

  async json(method: string, path: string, org: Org = 'default', body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(this.server.url + path, {
      method,
      headers: { ...this.headers(org), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = text; }
    return { status: res.status, json };
  }

  async upload(name: string, lines: unknown[], org: Org = 'default'): Promise<string> {
    const form = new FormData();
    form.set('purpose', 'fine-tune');
    form.set('file', new Blob([lines.map((l) => JSON.stringify(l)).join('\n') + '\n']), name);
    const res = await fetch(this.server.url + '/v1/files', { method: 'POST', headers: this.headers(org), body: form });
    const json = (await res.json()) as { id: string };
    expect(res.status, `pre-existing upload ${name}`).toBe(200);
    return json.id;
  }
}

interface Before {
  fileId: string;
  jobId: string;
  model: string;
  files: Record<Org, Set<string>>;
  jobs: Record<Org, Set<string>>;
}

const TRAINING = [
  { prompt: 'Pre-existing example one ->', completion: ' yes END' },
  { prompt: 'Pre-existing example two ->', completion: ' no END' },
];

/** Resources that exist before the run: a file, and a job that has succeeded (with a model and a result file). */
async function createPreExisting(api: Api): Promise<Before> {
  const fileId = await api.upload('pre-existing.jsonl', TRAINING);
  await api.upload('pre-existing-other.jsonl', TRAINING, 'other');
  const created = await api.json('POST', '/v1/fine-tunes', 'default', { training_file: fileId, model: 'ada' });
  expect(created.status).toBe(200);
  const jobId = created.json.id as string;
  let job = created.json;
  for (let i = 0; i < 200 && job.status !== 'succeeded'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    job = (await api.json('GET', `/v1/fine-tunes/${jobId}`)).json;
  }
  expect(job.status).toBe('succeeded');
  return {
    fileId,
    jobId,
    model: job.fine_tuned_model,
    files: { default: await fileIds(api, 'default'), other: await fileIds(api, 'other') },
    jobs: { default: await jobIds(api, 'default'), other: await jobIds(api, 'other') },
  };
}

async function fileIds(api: Api, org: Org): Promise<Set<string>> {
  const list = await api.json('GET', '/v1/files', org);
  return new Set((list.json.data as Array<{ id: string }>).map((f) => f.id));
}

async function jobIds(api: Api, org: Org): Promise<Set<string>> {
  const list = await api.json('GET', '/v1/fine-tunes', org);
  return new Set((list.json.data as Array<{ id: string }>).map((j) => j.id));
}

/** Everything the run left behind, described for a readable failure. */
async function leftovers(api: Api, before: Before): Promise<string[]> {
  const left: string[] = [];
  for (const org of ['default', 'other'] as const) {
    for (const id of await fileIds(api, org)) if (!before.files[org].has(id)) left.push(`file ${id} (${org} organization)`);
    const jobs = (await api.json('GET', '/v1/fine-tunes', org)).json.data as Array<{ id: string; status: string; fine_tuned_model: string | null }>;
    for (const job of jobs) {
      if (before.jobs[org].has(job.id)) continue;
      if (!TERMINAL.has(job.status)) left.push(`job ${job.id} still ${job.status} (${org} organization)`);
      if (job.fine_tuned_model) {
        const model = await api.json('GET', `/v1/models/${job.fine_tuned_model}`, org);
        if (model.status === 200) left.push(`model ${job.fine_tuned_model} of job ${job.id} (${org} organization)`);
      }
    }
    const models = (await api.json('GET', '/v1/models', org)).json.data as Array<{ id: string }>;
    for (const m of models) if (m.id.includes(':ft-') && m.id !== before.model) left.push(`model ${m.id} listed (${org} organization)`);
  }
  return left;
}

async function assertPreExistingUntouched(api: Api, before: Before): Promise<void> {
  expect((await api.json('GET', `/v1/files/${before.fileId}`)).status, 'pre-existing file').toBe(200);
  const job = await api.json('GET', `/v1/fine-tunes/${before.jobId}`);
  expect(job.json.status, 'pre-existing job').toBe('succeeded');
  expect((await api.json('GET', `/v1/models/${before.model}`)).status, 'pre-existing model').toBe(200);
  for (const org of ['default', 'other'] as const) {
    const now = await fileIds(api, org);
    for (const id of before.files[org]) expect(now.has(id), `pre-existing file ${id} (${org})`).toBe(true);
  }
}

interface RunOutcome { code: number; out: string }

async function runHarness(server: ReferenceServer, suites: string[], opts: { interrupt?: AbortSignal; extra?: string[]; withoutOtherOrganization?: boolean } = {}): Promise<RunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'hygiene-'));
  dirs.push(dir);
  const suitesDir = join(dir, 'suites');
  mkdirSync(suitesDir);
  // Only this group's suites: other suite files of the repository are not this test's business.
  for (const s of STATE_SUITES) symlinkSync(join(repoRoot, 'suites', `${s}.yaml`), join(suitesDir, `${s}.yaml`));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const c = server.credentials;
  const argv = [
    'run', '--base-url', server.url, '--api-key', c.apiKey, '--member-api-key', c.memberApiKey,
    '--organization', c.organization, ...(opts.withoutOtherOrganization ? [] : ['--other-organization', c.otherOrganization]),
    '--suites-dir', suitesDir, '--report-dir', join(dir, 'reports'), '--seed', '7', '--poll-deadline', '10000',
    ...suites.flatMap((s) => ['--suite', s]), ...(opts.extra ?? []),
  ];
  const code = await main(argv, { out: sink, err: sink, env: {}, isTTY: false, ...(opts.interrupt ? { interrupt: opts.interrupt } : {}) });
  return { code, out };
}

const servers: ReferenceServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(opts: Parameters<typeof startReferenceServer>[0] = {}): Promise<{ server: ReferenceServer; api: Api; before: Before }> {
  const server = await startReferenceServer({ trainingMs: 300, ...opts });
  servers.push(server);
  const api = new Api(server);
  return { server, api, before: await createPreExisting(api) };
}

describe('a run cleans up what it created, and only that', () => {
  it('after a normal run', async () => {
    const { server, api, before } = await start();
    const run = await runHarness(server, STATE_SUITES);
    // The verdict is not this test's business (the suites have their own tests); the run must have run.
    expect([0, 1], run.out).toContain(run.code);
    expect(run.out).toMatch(/verdict (PASS|FAIL)/);
    await assertPreExistingUntouched(api, before);
    expect(await leftovers(api, before)).toEqual([]);
  });

  it('after a run whose cases fail', async () => {
    // Failures in the lifecycle (events order, results CSV, file content) must not stop the cleanup.
    const { server, api, before } = await start({ faults: ['fine-tune-events-out-of-order', 'results-csv-missing-elapsed-examples', 'file-content-differs', 'fine-tuned-model-not-listed'] });
    const run = await runHarness(server, STATE_SUITES);
    expect(run.code, run.out).toBe(1);
    await assertPreExistingUntouched(api, before);
    expect(await leftovers(api, before)).toEqual([]);
  });

  it('after a run whose jobs finish before the run sees them succeed', async () => {
    // A fast server: jobs succeed (making a model and a result file) before the suites cancel them,
    // so the run only ever saw them pending. Cleanup must still find and delete what they produced.
    // (Without the other organization: there the reference's key is a member, not an owner, so a model
    // a job makes there before its cancel arrives cannot be deleted by anyone the run speaks for.)
    const { server, api, before } = await start({ trainingMs: 5 });
    await runHarness(server, ['fine-tunes-create'], { withoutOtherOrganization: true });
    await assertPreExistingUntouched(api, before);
    expect(await leftovers(api, before)).toEqual([]);
  });

  it('after a run that ends while its job is finishing', async () => {
    // Only the create case runs; the job (1 ms of training) succeeds between the create response and
    // the cleanup's cancel, so the cancel is refused and the job's model and result file are news to
    // the cleanup.
    const { server, api, before } = await start({ trainingMs: 1 });
    await runHarness(server, ['fine-tunes'], { extra: ['--grep', 'create-job'] });
    await assertPreExistingUntouched(api, before);
    expect(await leftovers(api, before)).toEqual([]);
  });

  it('after an interrupted run (abort while a job of the run is under way)', async () => {
    const { server, api, before } = await start({ trainingMs: 3000 });
    const controller = new AbortController();
    // Interrupt as soon as the run has created a job of its own: the suite is mid-way (streaming events).
    const watcher = (async () => {
      for (let i = 0; i < 500 && !controller.signal.aborted; i++) {
        const ids = await jobIds(api, 'default');
        if ([...ids].some((id) => !before.jobs.default.has(id))) { controller.abort(); return; }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const run = await runHarness(server, ['fine-tunes'], { interrupt: controller.signal });
    await watcher;
    expect(controller.signal.aborted).toBe(true);
    expect(run.code, run.out).toBe(130);
    await assertPreExistingUntouched(api, before);
    expect(await leftovers(api, before)).toEqual([]);
  });
});
