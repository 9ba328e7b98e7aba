// Verdicts on a user's own suite that a CI gate can trust: an expectation the target breaks fails the run
// whether or not the case cites a catalogue, and a case whose input never came (a capture that found nothing)
// is blocked by the one failure that says why, not skipped in silence under a PASS.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';

async function runSuite(yaml: string, extra: string[] = []): Promise<{ code: number; out: string; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'own-verdicts-'));
  writeFileSync(join(dir, 'mine.yaml'), yaml);
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', dir, '--only', '--fuzz-runs', '0', '--seed', '3', '--report-dir', join(dir, 'reports'), ...extra], { out: sink, err: sink, env: {}, isTTY: false });
  let report: Report | undefined;
  try { report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report; } catch { report = undefined; }
  return { code, out, ...(report ? { report } : {}) };
}

const suite = (cases: string) => `version: 1\nname: mine\narea: models\ncases:\n${cases}`;
const statuses = (r: Report) => r.results.map((x) => `${x.case}/${x.check}: ${x.status}`);

describe('an uncatalogued case (it cites no requirement)', () => {
  it('fails the run when its status, schema or header expectation does not hold', async () => {
    const { code, out, report } = await runSuite(suite(`
  - id: wrong-status
    title: the list is not found (it is)
    request: { method: GET, path: /v1/models }
    expect: { status: 404 }
  - id: wrong-schema
    title: a model list is a model
    request: { method: GET, path: /v1/models }
    expect: { status: 200, schema: resources/model.schema.json }
  - id: wrong-header
    title: the list is plain text
    request: { method: GET, path: /v1/models }
    expect: { status: 200, headers: { content-type: { matches: "^text/plain" } } }
`));
    expect(code, out).toBe(1);
    expect(statuses(report!)).toEqual(['wrong-status/status: fail', 'wrong-schema/status: pass', 'wrong-schema/schema: fail', 'wrong-header/status: pass', 'wrong-header/header:content-type: fail']);
    expect(report!.results.filter((r) => r.status === 'fail').every((r) => r.severity === 'must')).toBe(true);
    expect(out).toContain('verdict FAIL');
  });
});

describe('a capture', () => {
  it('that finds nothing in an accepted answer fails once, and blocks the cases that use it', async () => {
    const { code, out, report } = await runSuite(suite(`
  - id: first
    title: list the models
    request: { method: GET, path: /v1/models }
    expect: { status: 200 }
    capture: { mid: /data/0/idd }
  - id: second
    title: retrieve the first one
    request: { method: GET, path: "/v1/models/{{mid}}" }
    expect:
      status: 200
      assert:
        - { pointer: /id, exists: true }
`));
    expect(code, out).toBe(1);
    expect(statuses(report!)).toEqual(['first/status: pass', 'first/capture:mid: fail', 'second/case: blocked']);
    const failed = report!.results.find((r) => r.check === 'capture:mid')!;
    expect(failed.message).toBe('capture mid: nothing at /data/0/idd: the cases that use {{mid}} cannot run');
    expect(failed.findings?.[0]).toMatchObject({ pointer: '/data/0/idd', actual: 'absent' });
    expect(report!.results.find((r) => r.case === 'second')?.blockedBy).toEqual({ suite: 'mine', case: 'first', check: 'capture:mid' });
  });

  it('from a case that allows a refusal and got one: the cases that use it are skipped, not failed', async () => {
    const { code, out, report } = await runSuite(suite(`
  - id: maybe
    title: an unknown model is refused (or, on another server, served)
    request: { method: GET, path: /v1/models/no-such-model-here }
    capture: { mid: /id }
  - id: then
    title: retrieve it again
    request: { method: GET, path: "/v1/models/{{mid}}" }
    expect: { status: 200 }
`));
    expect(code, out).toBe(0);
    expect(report!.results.find((r) => r.case === 'then')?.status).toBe('skip');
    expect(report!.results.some((r) => r.check.startsWith('capture:'))).toBe(false);
  });
});

describe('--grep naming a case id exactly (what a reproduce command names)', () => {
  const cases = suite(`
  - id: a
    title: list the models (capture one)
    request: { method: GET, path: /v1/models }
    expect: { status: 200 }
    capture: { mid: /data/0/id }
  - id: e
    title: retrieve the captured model
    request: { method: GET, path: "/v1/models/{{mid}}" }
    expect: { status: 200 }
  - id: be
    title: the engines
    request: { method: GET, path: /v1/engines }
    expect: { status: 200 }
  - id: d
    title: retrieve one engine
    request: { method: GET, path: /v1/engines/davinci }
    expect: { status: 200 }
`);
  const ran = (r: Report) => [...new Set(r.results.map((x) => x.case))];

  it('selects that case alone, with the cases it depends on', async () => {
    const { code, out, report } = await runSuite(cases, ['--grep', 'e']);
    expect(code, out).toBe(0);
    expect(ran(report!)).toEqual(['a', 'e']);
  });

  it('a text that is no case id still selects by substring of id or title', async () => {
    const { report } = await runSuite(cases, ['--grep', 'engine']);
    expect(ran(report!)).toEqual(['be', 'd']);
  });
});

describe('a capture whose answer failed otherwise', () => {
  it('is no second failure: the schema failure is the one root, and the cases using the capture are blocked by it', async () => {
    const { code, out, report } = await runSuite(suite(`
  - id: first
    title: the model list, judged as one model
    request: { method: GET, path: /v1/models }
    expect: { status: 200, schema: resources/model.schema.json }
    capture: { mid: /data/0/idd }
  - id: second
    title: retrieve it
    request: { method: GET, path: "/v1/models/{{mid}}" }
    expect: { status: 200 }
`));
    expect(code, out).toBe(1);
    expect(report!.results.filter((r) => r.status === 'fail').map((r) => `${r.case}/${r.check}`)).toEqual(['first/schema']);
    expect(report!.results.find((r) => r.case === 'second')?.blockedBy).toEqual({ suite: 'mine', case: 'first', check: 'schema' });
  });
});
