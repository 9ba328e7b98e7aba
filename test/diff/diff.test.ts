// conformance diff: the shipped recording against the reference server it was recorded from (no difference),
// against the same server with a fault (exactly the fault's difference), and the comparison rules themselves.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { compareAnswers } from '../../src/diff/compare.ts';
import { loadVolatility } from '../../src/util/volatility.ts';
import type { Report } from '../../src/report/types.ts';
import { readCassette } from '../../src/transport/cassette.ts';
import { repoRoot } from '../../src/util/paths.ts';

const root = mkdtempSync(join(tmpdir(), 'diff-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cassettes = join(repoRoot, 'cassettes');

async function diff(args: string[]): Promise<{ code: number; out: string; err: string; report: Report }> {
  const dir = mkdtempSync(join(root, 'r-'));
  let out = '';
  let err = '';
  const code = await main(['diff', ...args, '--report-dir', dir], { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false });
  return { code, out, err, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
}

/** Streamed completion and chat interactions of the shipped recording that end with [DONE]. */
function streamedCases(): number {
  let n = 0;
  for (const suite of ['completions-stream', 'chat-stream', 'completions', 'chat']) {
    for (const d of readCassette(join(cassettes, `${suite}.json`))) {
      const i = d.rawHeaders.indexOf('content-type');
      if (i >= 0 && d.rawHeaders[i + 1]!.startsWith('text/event-stream') && typeof d.response === 'string' && d.response.includes('data: [DONE]')) n++;
    }
  }
  return n;
}

describe('conformance diff', () => {
  it('the shipped recording against the reference server: every request sent, no difference', { timeout: 120_000 }, async () => {
    const { code, out, report } = await diff(['--against', cassettes]);
    expect(code, out).toBe(0);
    expect(report.summary.warnings).toBe(0);
    expect(report.summary.skipped).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(300);
    expect(report.results.every((r) => r.severity === 'should')).toBe(true);
  });

  it('with the fault stream-missing-done: the missing [DONE] on every streamed case, and nothing else', { timeout: 120_000 }, async () => {
    const { code, report } = await diff(['--against', cassettes, '--fault', 'stream-missing-done']);
    expect(code).toBe(0); // differences are warnings
    const differing = report.results.filter((r) => r.status === 'warn');
    expect(differing.length).toBe(streamedCases());
    for (const r of differing) expect(r.findings?.map((f) => [f.pointer, f.message])).toEqual([['#events', 'the stream does not end with data: [DONE]']]);
    // Each difference can be told apart (which recorded interaction, what it asked), shows what came back (a
    // stream's first events), and says how to compare that suite again.
    expect(new Set(differing.map((r) => `${r.suite} ${r.caseTitle}`)).size).toBe(differing.length);
    for (const r of differing) {
      expect(r.caseTitle).toMatch(/^POST \/v1\/(chat\/)?completions \(recorded interaction \d+\) \{"model":/);
      expect(r.response?.excerpt).toMatch(/^data: \{/);
      expect(r.reproduce).toBe(`npx conformance diff --against ${cassettes} --suite ${r.suite} --fault stream-missing-done`);
    }
  });

  it('--fail-on-difference exits 1 when something differs; an unreachable target is a problem of the run (3)', { timeout: 120_000 }, async () => {
    expect((await diff(['--against', cassettes, '--suite', 'chat-stream', '--fault', 'stream-missing-done', '--fail-on-difference'])).code).toBe(1);
    const down = await diff(['--against', cassettes, '--suite', 'models', '--base-url', 'http://127.0.0.1:9', '--api-key', 'sk-x', '--timeout', '2000']);
    expect(down.code).toBe(3);
    expect(down.report.verdict).toBe('error');
  });

  it('nothing compared is no "same": a suite the folder lacks, an empty folder, a refused key are problems of the run (3)', { timeout: 120_000 }, async () => {
    const lacking = await diff(['--against', cassettes, '--suite', 'no-such-suite']);
    expect(lacking.code).toBe(3);
    expect(lacking.err).toMatch(/holds no cassette of suite no-such-suite\n  hint: it holds: .*models/);
    const empty = await diff(['--against', mkdtempSync(join(root, 'empty-'))]);
    expect(empty.code).toBe(3);
    expect(empty.err).toMatch(/holds no cassette/);
    const { startReferenceServer } = await import('../../src/reference/index.ts');
    const server = await startReferenceServer();
    try {
      const refused = await diff(['--against', cassettes, '--suite', 'models', '--base-url', server.url, '--api-key', 'sk-not-this-servers-key']);
      expect(refused.code).toBe(3);
      expect(refused.err).toMatch(/the target refused the run's key: GET \/v1\/models answered 401/);
      expect(refused.report.verdict).toBe('error');
      expect(refused.err).not.toContain('sk-not-this-servers-key');
    } finally {
      await server.close();
    }
  });

  it('given only the key (the README\'s command), requests recorded with the member key or the other organization are not sent, and nothing differs', { timeout: 120_000 }, async () => {
    const { startReferenceServer } = await import('../../src/reference/index.ts');
    const server = await startReferenceServer();
    try {
      const r = await diff(['--against', cassettes, '--base-url', server.url, '--api-key', server.credentials.apiKey]);
      expect(r.report.results.filter((x) => x.status === 'warn').map((x) => `${x.suite} ${x.caseTitle}: ${x.message}`)).toEqual([]);
      const notSent = r.report.results.filter((x) => x.status === 'skip').map((x) => x.message);
      expect(notSent.some((m) => m.includes('recorded with the member key (--member-api-key or CONFORMANCE_MEMBER_API_KEY)'))).toBe(true);
      expect(notSent.some((m) => m.includes('the other organization'))).toBe(true);
      expect(r.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a missing --against is a usage error', async () => {
    let err = '';
    expect(await main(['diff'], { out: { write: () => true }, err: { write: (s: string) => (err += s) }, env: {}, isTTY: false })).toBe(2);
    expect(err).toContain('--against');
  });
});

describe('comparing two answers', () => {
  const ctx = { volatility: loadVolatility(), fixesLengths: true };
  const json = (j: unknown, status = 200) => ({ status, contentType: 'application/json', json: j });
  const compare = (a: unknown, b: unknown) => compareAnswers(json(a), json(b), ctx).map((f) => `${f.pointer}: ${f.message}`);

  it('ids, times and generated text may differ; keys, types and fixed lengths may not', () => {
    expect(compare({ id: 'a', created: 1, choices: [{ text: 'x', index: 0 }] }, { id: 'b', created: 2, choices: [{ text: 'y', index: 0 }] })).toEqual([]);
    expect(compare({ choices: [{ index: 0 }] }, { choices: [{ index: 0 }, { index: 1 }] })).toEqual(['/choices: another number of items, which the request fixes']);
    expect(compare({ object: 'list' }, { object: 'models' })).toEqual(['/object: another value']);
    expect(compare({ a: 1 }, { a: '1' })).toEqual(['/a: another JSON type']);
    expect(compare({ a: 1 }, {})).toEqual(['/a: a key of the recorded answer is missing']);
    expect(compare({}, { b: 1 })).toEqual(['/b: a key the recorded answer did not have']);
  });
  it('usage within its tolerance, embeddings by dimension and norm, URLs by path, pending values as null', () => {
    expect(compare({ usage: { total_tokens: 100 } }, { usage: { total_tokens: 110 } })).toEqual([]);
    expect(compare({ usage: { total_tokens: 100 } }, { usage: { total_tokens: 200 } })).toEqual(['/usage/total_tokens: differs by more than 25%']);
    expect(compare({ embedding: [0.6, 0.8] }, { embedding: [0.8, 0.6] })).toEqual([]);
    expect(compare({ embedding: [0.6, 0.8] }, { embedding: [0.6, 0.8, 0] })).toEqual(['/embedding: another dimension']);
    expect(compare({ embedding: [0.6, 0.8] }, { embedding: [1.2, 1.6] })).toEqual(['/embedding: another norm']);
    expect(compare({ logo_url: 'http://127.0.0.1:40000/logo.png' }, { logo_url: 'https://plugin.example/logo.png' })).toEqual([]);
    expect(compare({ fine_tuned_model: null }, { fine_tuned_model: 'curie:ft-x' })).toEqual([]);
  });
  it('status classes first; streams by framing and chunk shape', () => {
    expect(compareAnswers(json({}, 200), json({}, 404), ctx).map((f) => f.message)).toEqual(['another status class']);
    const sse = (events: string[], other: string[] = []) => ({ status: 200, contentType: 'text/event-stream', events: events.map((data) => ({ data, otherFields: other })) });
    const chunk = JSON.stringify({ id: 'c', object: 'text_completion', choices: [{ text: 'a', index: 0 }] });
    expect(compareAnswers(sse([chunk, '[DONE]']), sse([chunk, '[DONE]']), ctx)).toEqual([]);
    expect(compareAnswers(sse([chunk, '[DONE]']), sse([chunk]), ctx).map((f) => f.message)).toEqual(['the stream does not end with data: [DONE]']);
    expect(compareAnswers(sse([chunk, '[DONE]']), sse([chunk, '[DONE]'], ['event']), ctx).map((f) => f.message)).toEqual(['other fields than data in the events']);
  });
});
