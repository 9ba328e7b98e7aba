// The model per role a run asks for. A replay asks what its recording asked (the manifest keeps the models), and
// only the embedded reference server is assumed to serve a model without chat (davinci): for a target of the
// user's, given by flag or by the config file, CHAT-MODEL-SUPPORTS-CHAT is judged only on a model they declare.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { readManifest } from '../../src/transport/cassette.ts';

let server: ReferenceServer;
const root = mkdtempSync(join(tmpdir(), 'recorded-models-'));
beforeAll(async () => { server = await startReferenceServer(); });
afterAll(async () => { await server.close(); rmSync(root, { recursive: true, force: true }); });

async function run(name: string, args: string[]): Promise<{ code: number; out: string; report: Report }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const dir = join(root, name);
  const code = await main(['run', '--suite', 'chat', '--fuzz-runs', '0', '--seed', '6', '--report-dir', dir, ...args], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  return { code, out, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
}

const verdicts = (r: Report) => r.results.map((x) => `${x.case}/${x.check}: ${x.status}`);
const nonChatCase = (r: Report) => r.results.find((x) => x.case === 'non-chat-model-rejected');

it('a target of the user\'s, by flag: the non-chat case waits for a declared model; its recording replays as it ran', async () => {
  const cassettes = join(root, 'undeclared');
  const live = await run('undeclared-live', ['--base-url', server.url, '--api-key', server.credentials.apiKey, '--record', '--cassettes', cassettes]);
  expect(live.code, live.out).toBe(0);
  expect(nonChatCase(live.report)?.status).toBe('skip');
  // The replay is offline: nothing tells it the target was not the embedded one but the recording.
  const replay = await run('undeclared-replay', ['--cassettes', cassettes]);
  expect(replay.code, replay.out).toBe(0);
  expect(verdicts(replay.report)).toEqual(verdicts(live.report));
}, 60_000);

it('models given with --model are in the manifest, and a replay asks for them again without the flag', async () => {
  const cassettes = join(root, 'declared');
  const live = await run('declared-live', ['--base-url', server.url, '--api-key', server.credentials.apiKey, '--model', 'non_chat=ada', '--record', '--cassettes', cassettes]);
  expect(live.code, live.out).toBe(0);
  expect(nonChatCase(live.report)?.status).toBe('pass');
  expect(readManifest(cassettes)?.models).toMatchObject({ non_chat: 'ada', chat: 'gpt-3.5-turbo' });
  const replay = await run('declared-replay', ['--cassettes', cassettes]);
  expect(replay.code, replay.out).toBe(0);
  expect(verdicts(replay.report)).toEqual(verdicts(live.report));
}, 60_000);

it('a target named by the config file\'s base_url is the user\'s too: no model is assumed to lack chat', async () => {
  const config = join(root, 'target.yaml');
  writeFileSync(config, `base_url: ${server.url}\n`);
  const live = await run('config-target', ['--config', config, '--api-key', server.credentials.apiKey]);
  expect(live.code, live.out).toBe(0);
  expect(nonChatCase(live.report)?.status).toBe('skip');
  expect(nonChatCase(live.report)?.message).toContain('non_chat');
}, 60_000);

it('the embedded reference server still declares davinci, unless the config file names another', async () => {
  const askedFor = (r: Report) => {
    const body = nonChatCase(r)?.request?.body;
    return body?.kind === 'json' ? (body.value as { model?: string }).model : undefined;
  };
  const embedded = await run('embedded', ['--report-passes']);
  expect(nonChatCase(embedded.report)?.status).toBe('pass');
  expect(askedFor(embedded.report)).toBe('davinci');
  const config = join(root, 'models.yaml');
  writeFileSync(config, 'models: { non_chat: ada }\n');
  const configured = await run('embedded-config', ['--config', config, '--report-passes']);
  expect(nonChatCase(configured.report)?.status).toBe('pass');
  expect(askedFor(configured.report)).toBe('ada');
}, 60_000);

it('a replay stopped by a request the recording lacks shows that suite as stopped, never as PASS', async () => {
  const cassettes = join(root, 'undeclared'); // recorded above, with seed 6
  const replay = await run('stopped-replay', ['--cassettes', cassettes, '--seed', '8']);
  // The seed changes the generated prompts: the first of them is not in the recording (exit 3).
  expect(replay.code, replay.out).toBe(3);
  expect(replay.out).toMatch(/^STOP chat {2}.*stopped by a problem of the run \(below\)/m);
  expect(replay.out).not.toMatch(/^PASS chat/m);
  expect(replay.report.suites[0]?.stopped).toMatch(/no recorded interaction/);
}, 60_000);

it('a replay asked for another model than its recording is refused at once (exit 2), naming both; the same model is fine', async () => {
  const cassettes = join(root, 'declared'); // recorded above with non_chat=ada, chat=gpt-3.5-turbo
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', '--cassettes', cassettes, '--model', 'chat=gpt-4', '--report-dir', join(root, 'other-model')], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  expect(code, out).toBe(2);
  expect(out).toContain('--model chat=gpt-4: the cassettes were recorded with chat=gpt-3.5-turbo');
  const same = await run('same-model', ['--cassettes', cassettes, '--model', 'chat=gpt-3.5-turbo']);
  expect(same.code, same.out).toBe(0);
}, 60_000);
