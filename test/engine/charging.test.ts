// Verdicts charged where they belong (issue: trust under every reading). Against a plausible third-party mock:
// a failure is charged to the rule it breaks, a refusal proves a rejection only where the endpoint exists, a stream
// answered as JSON is not judged as zero events, and an answer's unreachable image URL is a finding, not exit 3.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';
import { localServer, type LocalServer } from '../local-server.ts';

let server: LocalServer;
const chatBody = (content: string) => ({ id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-3.5-turbo', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });

beforeAll(async () => {
  server = await localServer((req, res) => {
    const json = (status: number, body: unknown, type = 'application/json') => res.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') return json(200, { object: 'list', data: [{ id: 'gpt-3.5-turbo', object: 'model', owned_by: 'mock', permission: [] }] });
    // No `created` in any chat answer; a stream comes back with a JSON content type (and its events, [DONE] last).
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const chunk = { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] };
      return req.headers.accept?.includes('text/event-stream') || /stream/.test(req.headers['x-probe'] as string ?? '')
        ? json(200, `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`)
        : json(200, chatBody('blue green red'));
    }
    if (req.method === 'POST' && path === '/v1/images/generations') return json(200, { created: 1_700_000_000, data: [{ url: 'http://image.invalid/a.png' }] });
    return json(404, { error: { message: `no route ${req.method} ${path}` } });
  });
});
afterAll(() => server.close());

async function run(args: string[]): Promise<{ code: number; report: Report; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'charging-'));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', '--base-url', server.url, '--api-key', 'sk-mock-0123456789', '--fuzz-runs', '0', '--timeout', '3000', '--report-dir', dir, ...args], { out: sink, err: sink, env: {}, isTTY: false });
  return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, out };
}

describe('verdicts charged where they belong', () => {
  it('a missing created fails the resource rule, not the rules the cases cite for what they sent', async () => {
    const { report } = await run(['--suite', 'chat', '--grep', 'temperature']);
    const failed = new Set(report.results.filter((r) => r.status === 'fail').flatMap((r) => r.requirements));
    expect(failed.has('RES-CHAT')).toBe(true);
    expect(failed.has('CHAT-TEMPERATURE-RANGE-ACCEPT')).toBe(false);
    expect(report.coverage.requirements['CHAT-TEMPERATURE-RANGE-ACCEPT']?.status).toBe('passed');
  });

  it('a refusal from an endpoint that serves nothing proves no rejection rule: not exercised, never a pass', async () => {
    const { report } = await run(['--suite', 'fine-tunes-create', '--suite', 'files']);
    // The mock has no /v1/fine-tunes and no /v1/files: its 404 is what it says to every request there.
    const refusals = report.results.filter((r) => ['training-file-missing', 'training-file-unknown', 'retrieve-unknown-file'].includes(r.case));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.filter((r) => r.status === 'pass').map((r) => `${r.case} › ${r.check}`)).toEqual([]);
    expect(refusals.some((r) => r.status === 'not-exercised')).toBe(true);
  });

  it('a stream answered as application/json: the stream checks are blocked by the content type, none passes on zero events', async () => {
    const { report } = await run(['--suite', 'chat-stream']);
    const streamChecks = report.results.filter((r) => r.check.startsWith('sse_') || r.check.startsWith('chat_stream_'));
    expect(streamChecks.filter((r) => r.check === 'sse_content_type').every((r) => r.status === 'fail')).toBe(true);
    expect(streamChecks.filter((r) => r.check !== 'sse_content_type' && r.status === 'pass').map((r) => `${r.case} › ${r.check}`)).toEqual([]);
    expect(report.results.filter((r) => /without data: \[DONE\]/.test(r.message)).map((r) => r.message)).toEqual([]);
  });

  it('an image URL that does not resolve is a finding on the target, not a problem of the run', async () => {
    const { code, report } = await run(['--suite', 'images', '--grep', 'gen-defaults']);
    expect(report.problems).toEqual([]);
    expect(code).not.toBe(3);
    // IMG-URL-FETCHABLE is a should: a warning on the answer that pointed at it.
    expect(report.results.some((r) => r.status === 'warn' && r.requirements.includes('IMG-URL-FETCHABLE'))).toBe(true);
  });
});
