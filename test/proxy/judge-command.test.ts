// conformance judge: a recording judged offline, exchange by exchange, as the proxy judges it live.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/index.ts';
import { localServer } from '../local-server.ts';
import { startProxy } from '../../src/proxy/server.ts';
import { repoRoot } from '../../src/util/paths.ts';
import { makeWav } from '../../src/fixtures/wav.ts';
import { client, workload } from './workload.ts';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../report/chromium.ts';

const run = promisify(execFile);

async function judge(target: string, ...more: string[]): Promise<{ code: number; out: string; reports: string }> {
  const reports = mkdtempSync(join(tmpdir(), 'judge-reports-'));
  try {
    const { stdout } = await run(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'judge', target, '--report-dir', reports, ...more]);
    return { code: 0, out: stdout, reports };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr, reports };
  }
}

async function recorded(faults: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'judge-rec-'));
  const server = await startReferenceServer({ faults });
  const proxy = await startProxy({ upstream: server.url, record: { dir, mode: 'record' } });
  await workload(client(`${proxy.url}/v1`, server.credentials.apiKey, 'app'), { fineTune: false });
  await proxy.close();
  await server.close();
  return dir;
}

describe('conformance judge DIR|FILE.har', () => {
  it('passes a clean recording, and names the broken rule of a faulty one with exit 1', async () => {
    const clean = await judge(await recorded([]));
    expect(clean.code, clean.out).toBe(0);
    expect(clean.out).toMatch(/ok {3}app: 6 exchange\(s\), 0 must-failure\(s\)/);
    const faulty = await judge(await recorded(['embeddings-1535-dims', 'stream-missing-done']));
    expect(faulty.code, faulty.out).toBe(1);
    expect(faulty.out).toMatch(/POST \/v1\/embeddings #4 · must EMB-ADA-1536/);
    expect(faulty.out).toMatch(/STREAM-CHAT-DONE/);
    const report = JSON.parse(readFileSync(join(faulty.reports, 'report.json'), 'utf8')) as { verdict: string; target: { transport: string } };
    expect(report.verdict).toBe('fail');
  });

  it('judges a HAR file', async () => {
    const har = {
      log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [{
        startedDateTime: '2026-11-27T00:00:00Z', time: 1,
        request: { method: 'POST', url: 'https://api.example.com/v1/embeddings', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'application/json' }], queryString: [], cookies: [], headersSize: -1, bodySize: -1, postData: { mimeType: 'application/json', text: JSON.stringify({ model: 'text-embedding-ada-002', input: 'hi' }) } },
        response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'application/json' }], cookies: [], content: { size: 0, mimeType: 'application/json', text: JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }], model: 'text-embedding-ada-002', usage: { prompt_tokens: 1, total_tokens: 1 } }) }, redirectURL: '', headersSize: -1, bodySize: -1 },
        cache: {}, timings: { send: 0, wait: 1, receive: 0 },
      }] },
    };
    const file = join(mkdtempSync(join(tmpdir(), 'judge-har-')), 'traffic.har');
    writeFileSync(file, JSON.stringify(har));
    const result = await judge(file);
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(/traffic: 1 exchange\(s\), 1 must-failure/);
    expect(result.out).toMatch(/EMB-ADA-1536/);
  });

  it('conformance diff --against takes a recording of your own (the proxy\'s) and compares a target with it', async () => {
    const dir = await recorded([]);
    const server = await startReferenceServer();
    try {
      const reports = mkdtempSync(join(tmpdir(), 'diff-own-'));
      const { stdout } = await run(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'diff', '--against', dir, '--base-url', server.url, '--api-key', server.credentials.apiKey, '--report-dir', reports]);
      // The image edit's PNG bytes are not stored (only their hash), so it cannot be sent again; the JSONL upload is.
      expect(stdout).toMatch(/SAME app {2}5 same · 0 different · 1 not sent/);
    } finally {
      await server.close();
    }
  });

  it('gives no pass to traffic no rule judged (a load balancer\'s 502 pages): exit 3, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judge-none-'));
    const balancer = await localServer((_req, res) => res.writeHead(502, { 'content-type': 'application/json' }).end('<html><body>Bad Gateway</body></html>'));
    const proxy = await startProxy({ upstream: balancer.url, record: { dir, mode: 'record' } });
    for (const path of ['/v1/models', '/v1/engines']) await (await fetch(`${proxy.url}${path}`, { headers: { 'x-conformance-cassette': 'lb' } })).arrayBuffer();
    await proxy.close();
    await balancer.close();
    const judged = await judge(dir);
    expect(judged.code, judged.out).toBe(3);
    expect(judged.out).toContain('no exchange was judged');
    expect(readFileSync(join(judged.reports, 'summary.md'), 'utf8')).not.toContain('PASS');
  });

  it('judges a browser\'s HAR as browsers write it: multipart forms read, other hosts and bodies not captured left out, saying why', async () => {
    const api = 'https://api.example.test';
    const models = JSON.stringify({ object: 'list', data: [{ id: 'davinci', object: 'model', owned_by: 'openai', permission: [] }] });
    const boundary = '----WebKitFormBoundaryA1';
    const form = [`--${boundary}`, 'Content-Disposition: form-data; name="model"', '', 'whisper-1', `--${boundary}`, 'Content-Disposition: form-data; name="response_format"', '', 'text',
      `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="a.mp3"', 'Content-Type: audio/mpeg', '', 'ID3 not really audio', `--${boundary}--`, ''].join('\r\n');
    const entry = (method: string, url: string, response: object, request: object = {}) => ({ request: { method, url, headers: [], ...request }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }, { name: 'x-no-value' }], ...response } });
    const har = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [
      entry('GET', `${api}/v1/models`, { content: { size: models.length, mimeType: 'application/json', text: Buffer.from(models).toString('base64'), encoding: 'base64' } }),
      // Chrome: the multipart body as text; the answer asked for (response_format=text) is text.
      entry('POST', `${api}/v1/audio/transcriptions`, { headers: [{ name: 'content-type', value: 'text/plain' }], content: { size: 5, mimeType: 'text/plain', text: 'hello' } }, { postData: { mimeType: `multipart/form-data; boundary=${boundary}`, text: form } }),
      // Firefox: params, the file's bytes not in the HAR.
      entry('POST', `${api}/v1/audio/translations`, { content: { size: 13, mimeType: 'application/json', text: '{"text":"hi"}' } }, { postData: { mimeType: 'multipart/form-data', params: [{ name: 'model', value: 'whisper-1' }, { name: 'file', fileName: 'a.mp3', contentType: 'audio/mpeg' }] } }),
      entry('POST', `${api}/v1/chat/completions`, { content: { size: 323, mimeType: 'application/json', comment: 'Response bodies are not included.' } }, { postData: { mimeType: 'application/json', text: '{"model":"gpt-3.5-turbo","messages":[]}' } }),
      entry('GET', `${api}/v1/models/davinci`, { content: { size: 400, mimeType: 'application/json', text: models.slice(0, 40) } }),
      entry('GET', `${api}/v1/models`, { content: { size: models.length, mimeType: 'application/json', _file: 'a66b.json' } }),
      // Playwright's content: 'attach', the body beside the HAR.
      entry('GET', `${api}/v1/engines`, { content: { size: 28, mimeType: 'application/json', _file: 'c0ffee.json' } }),
      entry('POST', `${api}/v1/chat/completions`, { _error: 'net::ERR_ABORTED', headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: 0, mimeType: 'text/event-stream', text: 'data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}\n\n' } }, { postData: { mimeType: 'application/json', text: '{"model":"m","stream":true,"messages":[]}' } }),
      entry('GET', 'https://api.stripe.test/v1/files/file_1', { content: { size: 30, mimeType: 'application/json', text: '{"id":"file_1","object":"file"}' } }),
      // Playwright: a body the page never read, its size unknown.
      entry('GET', `${api}/v1/engines`, { content: { size: -1, mimeType: 'application/json' } }),
      // A request the browser blocked: no answer (status 0); and an answer with no content object at all.
      entry('GET', `${api}/v1/models/davinci`, { status: 0, headers: [], content: { size: 0, mimeType: 'x-unknown' } }),
      { request: { method: 'GET', url: `${api}/v1/engines/davinci`, headers: [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }] } },
      // Playwright: a form's bytes attached, binary, and not the form they say they are (no such boundary in them):
      // not judged as a form with no fields.
      entry('POST', `${api}/v1/audio/translations`, { content: { size: 13, mimeType: 'application/json', text: '{"text":"hi"}' } }, { bodySize: 64, postData: { mimeType: 'multipart/form-data; boundary=----none', text: '', _file: 'beef.dat' } }),
    ] } };
    const file = join(mkdtempSync(join(tmpdir(), 'judge-har-')), 'browser.har');
    writeFileSync(file, '\uFEFF' + JSON.stringify(har));
    writeFileSync(join(file, '..', 'c0ffee.json'), '{"object":"list","data":[]}\n');
    writeFileSync(join(file, '..', 'beef.dat'), Buffer.alloc(64, 0xff));
    const judged = await judge(file);
    expect(judged.code, judged.out).toBe(0);
    expect(judged.out).toContain('not judged: 10 entries');
    expect(judged.out).toContain('POST /v1/audio/translations: its request body (64 bytes) was not captured');
    for (const why of ['its size is unknown', 'no answer was received (status 0)', 'its answer has no content in the HAR', 'file parts are not in the HAR', 'was not captured', 'was cut (40 of 400 bytes', 'in a separate file (a66b.json), which is neither beside the HAR nor in its archive', 'the client broke it off (net::ERR_ABORTED)', 'https://api.stripe.test: another host']) expect(judged.out).toContain(why);
    expect(judged.out).toMatch(/ok {3}browser: 3 exchange\(s\), 0 must-failure\(s\)/);
  });

  it('leaves out an upload whose file bytes the browser did not keep (Chrome drops a binary part\'s bytes), instead of judging its size', async () => {
    const api = 'https://api.example.test';
    const boundary = '----WebKitFormBoundaryB2';
    // What Chrome keeps of a form with a binary file: the parts, the file's bytes left out; the request says how
    // long the body really was.
    const form = [`--${boundary}`, 'Content-Disposition: form-data; name="purpose"', '', 'fine-tune', `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="data.jsonl"', 'Content-Type: application/octet-stream', '', '', `--${boundary}--`, ''].join('\r\n');
    const answer = JSON.stringify({ id: 'file-abc', object: 'file', bytes: 2048, created_at: 1700000000, filename: 'data.jsonl', purpose: 'fine-tune' });
    const upload = (headers: Array<{ name: string; value: string }>, bodySize: number) => ({
      request: { method: 'POST', url: `${api}/v1/files`, headers, bodySize, postData: { mimeType: `multipart/form-data; boundary=${boundary}`, text: form } },
      response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { size: answer.length, mimeType: 'application/json', text: answer } },
    });
    const full = Buffer.byteLength(form) + 2048;
    const har = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [
      upload([{ name: 'content-type', value: `multipart/form-data; boundary=${boundary}` }, { name: 'content-length', value: String(full) }], 0),
      upload([], full),
      { request: { method: 'GET', url: `${api}/v1/files/file-abc`, headers: [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { size: answer.length, mimeType: 'application/json', text: answer } } },
    ] } };
    const file = join(mkdtempSync(join(tmpdir(), 'judge-har-')), 'upload.har');
    writeFileSync(file, JSON.stringify(har));
    const judged = await judge(file);
    expect(judged.out).toContain('not judged: 2 entries');
    expect(judged.out).toContain(`its request's form was not captured whole (${Buffer.byteLength(form)} of ${full} bytes): a file part's bytes are missing`);
    expect(judged.out).not.toContain('bytes is not the size of the uploaded file');
    expect(judged.code, judged.out).toBe(0);
  });

  it('judges Playwright\'s .har.zip, its bodies read from the archive (recorded by Chromium against the reference server)', async () => {
    const server = await startReferenceServer();
    const folder = mkdtempSync(join(tmpdir(), 'judge-harzip-'));
    const zip = join(folder, 'session.har.zip');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      // A .zip path: Playwright attaches each body as an entry of the archive beside har.har (content: 'attach').
      const context = await browser.newContext({ recordHar: { path: zip }, extraHTTPHeaders: { authorization: `Bearer ${server.credentials.apiKey}` } });
      const page = await context.newPage();
      await page.goto(`${server.url}/v1/models`);
      const listed = await page.evaluate(async () => ((await (await fetch('/v1/models')).json()) as { data: unknown[] }).data.length);
      expect(listed).toBeGreaterThan(0);
      // Its request body is attached to the archive too (postData._file, its text left empty).
      const dims = await page.evaluate(async () => {
        const r = await fetch('/v1/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-ada-002', input: 'The food was delicious' }) });
        return ((await r.json()) as { data: Array<{ embedding: number[] }> }).data[0]!.embedding.length;
      });
      expect(dims).toBe(1536);
      // An upload: a form with a real WAV, its bytes built by the page (as a client library that writes its own
      // multipart body does). Playwright attaches them, and they are not text (HAR has no encoding for a request
      // body): the entry is judged from the attachment, not left out. (A form of a Blob is another matter: Chromium
      // gives Playwright none of its bytes, and that entry is left out, saying so.)
      const boundary = 'conformance-upload-0123456789';
      const form = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="tone.wav"\r\ncontent-type: audio/wav\r\n\r\n`),
        makeWav({ seconds: 1 }),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const text = await page.evaluate(async ({ bytes, type }) => {
        const r = await fetch('/v1/audio/transcriptions', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(bytes) });
        return ((await r.json()) as { text: string }).text;
      }, { bytes: [...form], type: `multipart/form-data; boundary=${boundary}` });
      expect(typeof text).toBe('string');
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
    const judged = await judge(zip);
    expect(judged.code, judged.out).toBe(0);
    expect(judged.out).toMatch(/ok {3}session: 4 exchange\(s\), 0 must-failure\(s\)/);
    expect(judged.out).not.toContain('not judged');
    // What cannot be read is one line, not a stack: an archive cut short.
    const cut = join(folder, 'cut.har.zip');
    writeFileSync(cut, readFileSync(zip).subarray(0, 200));
    const broken = await judge(cut);
    expect(broken.code).toBe(2);
    expect(broken.out.trim().split('\n')).toHaveLength(1);
    expect(broken.out).toContain('a zip archive that is not read');
  });

  it('a HAR with nothing under the prefix is no pass: it says where its paths start; --prefix BASE/v1/ judges a service under a base path', async () => {
    const models = JSON.stringify({ object: 'list', data: [{ id: 'davinci', object: 'model', owned_by: 'openai', permission: [] }] });
    const entry = (path: string, content: object) => ({ request: { method: 'GET', url: `https://gw.example.test${path}`, headers: [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content } });
    const file = join(mkdtempSync(join(tmpdir(), 'judge-base-')), 'gateway.har');
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector' }, entries: [
      entry('/openai/v1/models', { size: models.length, mimeType: 'application/json', text: models }),
      entry('/openai/v1/models', { size: models.length, mimeType: 'application/json', text: models }),
      entry('/health', { size: 2, mimeType: 'application/json', text: '{}' }),
    ] } }));
    const missed = await judge(file);
    expect(missed.code, missed.out).toBe(2);
    expect(missed.out.trim().split('\n')).toHaveLength(1);
    expect(missed.out).toContain("no entry has a path under /v1/; its entries' paths start with /openai/v1/ (2), /health (1)");
    const based = await judge(file, '--prefix', '/openai/v1/');
    expect(based.code, based.out).toBe(0);
    expect(based.out).toMatch(/ok {3}gateway: 2 exchange\(s\), 0 must-failure\(s\)/);
    expect(based.out).toMatch(/\d+ results: 0 failed, 0 warnings, [1-9]\d* passed/);
    // Imported, the paths stay whole (what a client under that base sends, and a replay matches); the base is named.
    const out = mkdtempSync(join(tmpdir(), 'import-base-'));
    await run(process.execPath, [join(repoRoot, 'bin', 'conformance.js'), 'import-har', file, '--out', out, '--prefix', '/openai/v1/']);
    const imported = JSON.parse(readFileSync(join(out, 'gateway.json'), 'utf8')) as Array<{ path: string; conformance?: { base_url: string } }>;
    expect([imported[0]!.conformance?.base_url, ...imported.map((d) => d.path)]).toEqual(['https://gw.example.test/openai', '/openai/v1/models', '/openai/v1/models']);
    // Entries under the prefix, none captured whole: nothing was judged, which is a problem of the run (exit 3).
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector' }, entries: [entry('/v1/models', { size: 400, mimeType: 'application/json' })] } }));
    const uncaptured = await judge(file);
    expect(uncaptured.code, uncaptured.out).toBe(3);
    expect(uncaptured.out).toContain('no exchange was judged');
  });
});
