import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/report.schema.json' with { type: 'json' };
import { main } from '../../src/cli/main.ts';
import { Reporting } from '../../src/report/index.ts';
import { NO_SECRETS } from '../../src/util/redact.ts';
import { renderJsonParts, writeJsonReport } from '../../src/report/json.ts';
import { catalogue, failResult, makeReport, makeRun } from './fixtures.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

describe('report.json', () => {
  it('validates against schemas/report.schema.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'report-json-'));
    try {
      const path = await writeJsonReport(dir, makeReport());
      const text = await readFile(path, 'utf8');
      expect(text).toContain('\n  "version": 1,');
      const data = JSON.parse(text);
      expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
      expect(data).toEqual(JSON.parse(JSON.stringify(makeReport())));
      // Streamed result by result, yet the very text a whole-report JSON.stringify gives (with and without results).
      expect(text).toBe(`${JSON.stringify(makeReport(), null, 2)}\n`);
      const empty = makeReport(makeRun({ results: [] }));
      await writeJsonReport(dir, empty);
      expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(empty, null, 2)}\n`);
      expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is the text JSON.stringify(report, null, 2) gives for any number of results (they are written in batches)', () => {
    const base = makeReport();
    for (const n of [1, 255, 256, 257, 600]) {
      const results = Array.from({ length: n }, (_, i) => ({ ...base.results[i % base.results.length]!, case: `case-${i} ✓ "quoted"\n`, durationMs: i }));
      const report = { ...base, results };
      expect([...renderJsonParts(report)].join(''), String(n)).toBe(`${JSON.stringify(report, null, 2)}\n`);
    }
  });

  it('accepts multipart, text and bodiless requests and optional target fields', () => {
    const report = makeReport(
      makeRun({
        results: [
          { ...failResult, request: { method: 'POST', url: 'u', headers: {}, body: { kind: 'multipart', fields: { n: '1' }, files: [{ field: 'image', filename: 'a.png', contentType: 'image/png', size: 10, sha256: 'ab', fixture: 'png 4x4' }] } } },
          { ...failResult, request: { method: 'GET', url: 'u', headers: {}, body: { kind: 'none' } }, response: {} },
          { ...failResult, request: { method: 'POST', url: 'u', headers: {}, body: { kind: 'text', value: 'x' } } },
        ],
      }),
    );
    report.target.pluginUrl = 'http://localhost:8080/.well-known/ai-plugin.json';
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects invalid reports', () => {
    const good = () => JSON.parse(JSON.stringify(makeReport()));
    const cases: [string, (r: any) => void][] = [
      ['bad result status', (r) => (r.results[0].status = 'passed')],
      ['bad verdict', (r) => (r.verdict = 'ok')],
      ['missing summary field', (r) => delete r.summary.errors],
      ['extra property', (r) => (r.extra = true)],
      ['bad coverage status', (r) => (r.coverage.requirements['COMP-STOP-01'].status = 'green')],
      ['bad severity', (r) => (r.results[0].severity = 'may')],
      ['finding without pointer', (r) => delete r.results[1].findings[0].pointer],
      ['bad body kind', (r) => (r.results[1].request.body = { kind: 'xml', value: '' })],
      ['wrong version', (r) => (r.version = 2)],
      ['negative count', (r) => (r.summary.passed = -1)],
    ];
    for (const [name, mutate] of cases) {
      const r = good();
      mutate(r);
      expect(validate(r), name).toBe(false);
    }
  });

  it('the reporters write all four files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reports-'));
    try {
      const { files: paths } = await new Reporting({ dir: join(dir, 'nested'), catalogue, out: process.stdout, env: {} }, [], NO_SECRETS).end(makeReport());
      expect(paths).toEqual({
        json: join(dir, 'nested', 'report.json'),
        junit: join(dir, 'nested', 'junit.xml'),
        markdown: join(dir, 'nested', 'summary.md'),
        html: join(dir, 'nested', 'report.html'),
      });
      expect((await readdir(join(dir, 'nested'))).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a real run that uploads files, with --report-passes and against faults, writes a report its schema accepts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'report-json-real-'));
    try {
      const sink = { write: () => true };
      // files: JSONL uploads (a text file's content is kept); images: PNG uploads; a fault makes failures carry requests.
      await main(['run', '--suite', 'files', '--suite', 'images', '--fault', 'jsonl-invalid-json-accepted', '--report-passes', '--fuzz-runs', '0', '--seed', '4', '--report-dir', dir], { out: sink, err: sink, env: {}, isTTY: false });
      const data = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      expect(data.results.some((r: { request?: { body: { kind: string; files?: Array<{ text?: string }> } } }) => r.request?.body.files?.some((f) => f.text !== undefined))).toBe(true);
      expect(data.target.faults).toEqual(['jsonl-invalid-json-accepted']);
      expect(validate(data), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
