// conformance diff against a target that holds resources of its own (a real account): recorded ids are re-bound
// to what this diff created, never to the user's resources by their place in a list — a recorded DELETE must
// not remove a file the diff did not upload.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';

const root = mkdtempSync(join(tmpdir(), 'diff-own-'));
let recordedFrom: ReferenceServer;
let target: ReferenceServer;
beforeAll(async () => {
  recordedFrom = await startReferenceServer();
  // Another seed: the target's ids are not the recording's (as on a real account).
  target = await startReferenceServer({ seed: 7 });
});
afterAll(async () => {
  await Promise.all([recordedFrom.close(), target.close()]);
  rmSync(root, { recursive: true, force: true });
});

async function cli(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(argv, { out: sink, err: sink, env: {}, isTTY: false });
  return { code, out };
}
const creds = (s: ReferenceServer) => ['--api-key', s.credentials.apiKey, '--member-api-key', s.credentials.memberApiKey, '--organization', s.credentials.organization, '--other-organization', s.credentials.otherOrganization];
const auth = (s: ReferenceServer) => ({ authorization: `Bearer ${s.credentials.apiKey}` });

it('leaves the files the target already held in place, and compares the recorded ones', { timeout: 120_000 }, async () => {
  const cassettes = join(root, 'cassettes');
  const rec = await cli(['run', '--base-url', recordedFrom.url, ...creds(recordedFrom), '--suite', 'files', '--fuzz-runs', '0', '--seed', '3', '--record', '--cassettes', cassettes, '--report-dir', join(root, 'rec')]);
  expect(rec.code, rec.out).toBe(0);

  // The user's own file, uploaded before the diff: the first item of every list the diff will ask for.
  const form = new FormData();
  form.set('purpose', 'fine-tune');
  form.set('file', new Blob(['{"prompt": "mine ->", "completion": " yes END"}\n']), 'mine.jsonl');
  const mine = (await (await fetch(`${target.url}/v1/files`, { method: 'POST', headers: auth(target), body: form })).json()) as { id: string };

  const d = await cli(['diff', '--against', cassettes, '--base-url', target.url, ...creds(target), '--report-dir', join(root, 'diff')]);
  expect(d.code, d.out).toBe(0);
  const report = JSON.parse(readFileSync(join(root, 'diff', 'report.json'), 'utf8')) as Report;
  expect(report.results.filter((r) => r.status === 'warn').map((r) => r.message)).toEqual([]);
  const kept = await fetch(`${target.url}/v1/files/${mine.id}`, { headers: auth(target) });
  expect(kept.status, 'the user\'s own file').toBe(200);
});

it('a poll that runs out of --poll-deadline is a difference naming the state it waited for, not "same"', { timeout: 120_000 }, async () => {
  const quick = await startReferenceServer({ trainingMs: 200 });
  const slow = await startReferenceServer({ trainingMs: 60_000 });
  try {
    const cassettes = join(root, 'fine-tunes');
    const rec = await cli(['run', '--base-url', quick.url, ...creds(quick), '--suite', 'fine-tunes', '--grep', 'wait-succeeded', '--fuzz-runs', '0', '--seed', '3', '--record', '--cassettes', cassettes, '--report-dir', join(root, 'rec-ft')]);
    expect(rec.code, rec.out).toBe(0);
    const d = await cli(['diff', '--against', cassettes, '--base-url', slow.url, ...creds(slow), '--poll-deadline', '1500', '--report-dir', join(root, 'diff-ft')]);
    const report = JSON.parse(readFileSync(join(root, 'diff-ft', 'report.json'), 'utf8')) as Report;
    const poll = report.results.find((r) => r.findings?.some((f) => f.message.includes('did not reach the recorded state')));
    expect(poll, d.out).toBeDefined();
    expect(poll!.findings![0]).toMatchObject({ expected: '2:succeeded' });
  } finally {
    await Promise.all([quick.close(), slow.close()]);
  }
});

it('list items are paired by id, not by place: jobs the target held from an earlier run are no difference (issue 33, item 7)', { timeout: 120_000 }, async () => {
  const a = await startReferenceServer({ trainingMs: 200 });
  const b = await startReferenceServer({ trainingMs: 200, seed: 7 });
  try {
    // The target holds a job of its own, finished long before: the first item of its job list, and another kind of job
    // (classification metrics on a validation file), so that pairing by place compares two different jobs.
    const mine = { ...auth(b), 'service-organization': b.credentials.organization };
    const uploaded = async (name: string): Promise<string> => {
      const upload = new FormData();
      upload.set('purpose', 'fine-tune');
      upload.set('file', new Blob([Array.from({ length: 10 }, (_, i) => `{"prompt": "${name} ${i} ->", "completion": " yes END"}`).join('\n') + '\n']), `${name}.jsonl`);
      return ((await (await fetch(`${b.url}/v1/files`, { method: 'POST', headers: mine, body: upload })).json()) as { id: string }).id;
    };
    const file = { id: await uploaded('old'), validation: await uploaded('held-out') };
    const job = (await (await fetch(`${b.url}/v1/fine-tunes`, { method: 'POST', headers: { ...mine, 'content-type': 'application/json' }, body: JSON.stringify({ training_file: file.id, validation_file: file.validation, compute_classification_metrics: true, classification_positive_class: ' yes END' }) })).json()) as { id: string };
    for (let i = 0; i < 100; i++) {
      const j = (await (await fetch(`${b.url}/v1/fine-tunes/${job.id}`, { headers: mine })).json()) as { status: string };
      if (j.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(((await (await fetch(`${b.url}/v1/fine-tunes`, { headers: mine })).json()) as { data: Array<{ id: string }> }).data.map((j) => j.id)).toEqual([job.id]);
    const cassettes = join(root, 'lists');
    const rec = await cli(['run', '--base-url', a.url, ...creds(a), '--suite', 'fine-tunes', '--grep', 'list-jobs', '--fuzz-runs', '0', '--seed', '3', '--record', '--cassettes', cassettes, '--report-dir', join(root, 'rec-lists')]);
    expect(rec.code, rec.out).toBe(0);
    const d = await cli(['diff', '--against', cassettes, '--base-url', b.url, ...creds(b), '--report-dir', join(root, 'diff-lists')]);
    const report = JSON.parse(readFileSync(join(root, 'diff-lists', 'report.json'), 'utf8')) as Report;
    expect(report.results.filter((r) => r.status === 'warn').map((r) => `${r.case}: ${r.message}`), d.out).toEqual([]);
    expect(d.code, d.out).toBe(0);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
