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
