// Keys and organization IDs from the environment. A failure's reproduce command never carries them (they are
// secrets), so every one of them must work from its environment variable, and a run that got one as a flag says
// so under its failures. A key exported for a live service must not be sent to the embedded reference server.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { credentialsFrom, reproduceCredentialsHint } from '../../src/run/credentials.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';

const servers: ReferenceServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => s.close())); });

async function serve(faults: string[] = []): Promise<ReferenceServer> {
  const server = await startReferenceServer({ faults, trainingMs: 300, modelLoadMs: 50 });
  servers.push(server);
  return server;
}

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'credentials-env-'));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', ...args, '--fuzz-runs', '0', '--report-dir', dir], { out: sink, err: sink, env: { CI: 'true', ...env }, isTTY: false });
  return { code, out, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
}

const statusOf = (report: Report, caseId: string) => [...new Set(report.results.filter((r) => r.case === caseId).map((r) => r.status))];

describe('credentials from the environment', () => {
  it('the member key and both organizations: the cases that need them are judged, not skipped', async () => {
    const server = await serve();
    const c = server.credentials;
    const env = {
      CONFORMANCE_API_KEY: c.apiKey, CONFORMANCE_MEMBER_API_KEY: c.memberApiKey,
      CONFORMANCE_ORGANIZATION: c.organization, CONFORMANCE_OTHER_ORGANIZATION: c.otherOrganization,
    };
    const auth = await run(['--base-url', server.url, '--suite', 'auth', '--grep', 'organization-other', '--seed', '3'], env);
    expect(auth.code, auth.out).toBe(0);
    expect(statusOf(auth.report, 'organization-other')).toEqual(['pass']);
    const member = await run(['--base-url', server.url, '--suite', 'fine-tunes', '--grep', 'member-delete-refused', '--seed', '3'], env);
    expect(member.code, member.out).toBe(0);
    expect(statusOf(member.report, 'member-delete-refused')).toEqual(['pass']);

    // Without them, the same cases are skipped, and the reason names the variable too.
    const without = await run(['--base-url', server.url, '--suite', 'auth', '--grep', 'organization-other', '--seed', '3'], { CONFORMANCE_API_KEY: c.apiKey });
    const skipped = without.report.results.find((r) => r.case === 'organization-other');
    expect(skipped?.status).toBe('skip');
    expect(skipped?.message).toContain('CONFORMANCE_OTHER_ORGANIZATION');
  }, 60_000);

  it('a failure of a run given credentials as flags says where its reproduce command finds them; run so, it fails again', async () => {
    const server = await serve(['model-list-object-wrong']);
    const c = server.credentials;
    const flags = ['--base-url', server.url, '--api-key', c.apiKey, '--organization', c.organization, '--suite', 'models', '--seed', '5'];
    const first = await run(flags, {});
    expect(first.code).toBe(1);
    expect(first.out).toContain('This run got --api-key, --organization as flags: set CONFORMANCE_API_KEY, CONFORMANCE_ORGANIZATION before rerunning one.');
    expect(first.out).not.toContain(c.apiKey);

    // With the environment holding the same values, nothing to say.
    const env = { CONFORMANCE_API_KEY: c.apiKey, CONFORMANCE_ORGANIZATION: c.organization };
    const withEnv = await run(flags, env);
    expect(withEnv.code).toBe(1);
    expect(withEnv.out).not.toContain('reproduce commands leave keys');

    // The reproduce command, run with that environment, fails the same rule again.
    const failed = first.report.results.find((r) => r.status === 'fail')!;
    expect(failed.reproduce).not.toContain('--api-key');
    const again = await run(failed.reproduce!.split(' ').slice(3), env);
    expect(again.code).toBe(1);
    expect(again.report.results.filter((r) => r.status === 'fail').map((r) => [r.case, r.check])).toContainEqual([failed.case, failed.check]);
  }, 60_000);

  it('a key exported for a live service is not sent to the embedded reference server', async () => {
    const embedded = await run(['--suite', 'models', '--seed', '2'], { CONFORMANCE_API_KEY: 'sk-live-key-of-another-service', CONFORMANCE_ORGANIZATION: 'org-elsewhere' });
    expect(embedded.code, embedded.out).toBe(0);
    expect(embedded.out).toContain('verdict PASS');
  }, 60_000);
});

describe('credentialsFrom', () => {
  it('a flag wins, even empty; an empty variable counts as none; the fallback comes last', () => {
    expect(credentialsFrom({ 'api-key': 'flag' }, { CONFORMANCE_API_KEY: 'env' })).toEqual({ apiKey: 'flag' });
    expect(credentialsFrom({}, { CONFORMANCE_API_KEY: 'env', CONFORMANCE_OTHER_ORGANIZATION: 'org-2' })).toEqual({ apiKey: 'env', otherOrganization: 'org-2' });
    expect(credentialsFrom({}, { CONFORMANCE_MEMBER_API_KEY: '' }, { memberApiKey: 'fallback' })).toEqual({ memberApiKey: 'fallback' });
    expect(credentialsFrom({ 'api-key': '' }, { CONFORMANCE_API_KEY: 'env' }, { apiKey: 'fallback' })).toEqual({});
  });

  it('names only the flags the environment does not hold as given', () => {
    expect(reproduceCredentialsHint({ 'member-api-key': 'm' }, { CONFORMANCE_MEMBER_API_KEY: 'm' })).toBeUndefined();
    expect(reproduceCredentialsHint({ 'member-api-key': 'm' }, { CONFORMANCE_MEMBER_API_KEY: 'other' })).toContain('--member-api-key as a flag: set CONFORMANCE_MEMBER_API_KEY');
    expect(reproduceCredentialsHint({}, {})).toBeUndefined();
  });
});
