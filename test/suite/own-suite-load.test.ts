// Mistakes in a user's own suite folder are load errors at their position (exit 2, nothing sent), never a
// skipped case under a PASS, a failure of the target, or a stack trace: templates that cannot run, assertions
// that assert nothing, a catalogue or schema file that is missing or broken, a typo of a required key.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Report } from '../../src/report/types.ts';
import { repoRoot } from '../../src/util/paths.ts';

/** A folder holding these files; the run's arguments may name it as DIR. */
async function run(files: Record<string, string>, args: string[] = ['DIR']): Promise<{ code: number; out: string; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'own-load-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(['run', ...args.map((a) => a.replace('DIR', dir)), '--only', '--fuzz-runs', '0', '--seed', '2', '--report-dir', join(dir, 'reports')], { out: sink, err: sink, env: {}, isTTY: false });
  let report: Report | undefined;
  try { report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report; } catch { report = undefined; }
  return { code, out, ...(report ? { report } : {}) };
}

const suite = (lines: string) => `version: 1\nname: mine\narea: models\n${lines}`;
const oneCase = (request: string, expect = '{ status: 200 }') => `cases:\n  - id: c\n    title: t\n    request: ${request}\n    expect: ${expect}\n`;

describe('templates are checked before anything is sent', () => {
  it.each([
    ["{{repaet('a', 3)}}", 'unknown function repaet() (did you mean repeat?)'],
    ["{{repeat('a')}}", 'repeat() takes 2 arguments, not 1'],
    ["{{ repeat('a', 3 }}", 'expected "," or ")"'],
    ['{{range(-1)}}', 'range(): expected a count, got -1'],
    ['{{models.embeding}}', '"models.embeding" names no model role (did you mean embedding?)'],
    // Rendering would leave it as it is, and the target be blamed for a request that asks for "{{models.chat".
    ['{{models.chat', '"{{" opens a template that is never closed with "}}": "{{models.chat"'],
    ['a {{seed}} b {{ models.chat', '"{{" opens a template that is never closed with "}}": "{{ models.chat"'],
  ])('%s is a load error at its position', async (template, message) => {
    const { code, out, report } = await run({ 'mine.yaml': suite(oneCase(`{ method: POST, path: /v1/embeddings, json: { model: text-embedding-ada-002, input: "${template}" } }`)) });
    expect(code, out).toBe(2);
    expect(out).toContain(`error: ${message}`);
    expect(out).toMatch(/mine\.yaml:7:\d+/);
    expect(out).not.toMatch(/\n\s+at /); // no stack trace
    expect(report).toBeUndefined();
  });

  it('a template whose value only the run knows still renders then (the built-in suites use every function)', async () => {
    const { code, out } = await run({ 'mine.yaml': suite(`variables: { n: 3 }\n${oneCase('{ method: POST, path: /v1/embeddings, json: { model: "{{models.embedding}}", input: "{{repeat(\'ab\', n)}} {{words(half(6))}}" } }')}`) });
    expect(code, out).toBe(0);
  });
});

describe('an assertion without a predicate', () => {
  it('is a load error: it would pass on any answer', async () => {
    const { code, out } = await run({ 'mine.yaml': suite(oneCase('{ method: GET, path: /v1/models }', '{ status: 200, assert: [ { pointer: /nothing/here }, { pointer: /data, every: {} } ] }')) });
    expect(code, out).toBe(2);
    expect(out).toContain('error: the assertion has no predicate, so it would pass on any answer');
    expect(out).toContain('error: every: {} has no predicate, so it would pass on any answer');
    expect(out).toContain('(e.g. exists: true)');
  });
});

describe('an `every` assertion that fails', () => {
  it('names each failing item by its own JSON pointer and shows that item, not the whole array', async () => {
    const { code, report } = await run({ 'mine.yaml': suite(oneCase('{ method: GET, path: /v1/models }', '{ status: 200, assert: [ { path: "$.data[*].created", every: { type: string } }, { pointer: /data, every: { type: string } } ] }')) });
    expect(code).toBe(1);
    const byPath = report!.results.find((r) => r.check === 'assert[1]')!;
    expect(byPath.findings!.length).toBeGreaterThan(1);
    byPath.findings!.forEach((f, i) => {
      expect(f.pointer).toBe(`/data/${i}/created`);
      expect(typeof f.actual).toBe('number');
      expect(f.message).toMatch(new RegExp(`^item ${i} is not of type string`));
    });
    const byPointer = report!.results.find((r) => r.check === 'assert[2]')!;
    byPointer.findings!.forEach((f, i) => {
      expect(f.pointer).toBe(`/data/${i}`);
      // The item (cut to 400 characters when longer), not the list of every model.
      const text = typeof f.actual === 'string' ? f.actual : JSON.stringify(f.actual);
      expect(text).toContain('"object":"model"');
      expect(text).not.toContain('"data"');
    });
  });
});

describe('files next to the suite', () => {
  it('a catalogue the suite names but that is not there is named, at the suite\'s `requirements:`', async () => {
    const { code, out } = await run({ 'mine.yaml': suite(`requirements: ./nothere.yaml\n${oneCase('{ method: GET, path: /v1/models }')}`) });
    expect(code, out).toBe(2);
    expect(out).toContain('error: no catalogue file at ./nothere.yaml');
    expect(out).toContain('mine.yaml:4:15');
    expect(out).not.toContain('ENOENT');
  });

  it('a catalogue under any name, in the folder given as a path, is the suite\'s catalogue, not a suite', async () => {
    const own = readFileSync(join(repoRoot, 'test', 'golden', 'own-suite', 'my-requirements.yaml'), 'utf8');
    const { code, out, report } = await run({ 'reqs.yaml': own, 'mine.yaml': suite(`requirements: ./reqs.yaml\ncases:\n  - id: c\n    title: t\n    requirements: [MY-CHAT-STREAM]\n    request: { method: GET, path: /v1/models }\n    expect: { status: 200 }\n`) });
    expect(code, out).toBe(0);
    expect(report!.suites.map((s) => s.suite)).toEqual(['mine']);
    expect(report!.coverage.requirements['MY-CHAT-STREAM']?.status).toBe('passed');
  });

  it('a schema file that is not JSON is a load error, not an error of a case after requests were sent', async () => {
    const { code, out, report } = await run({ 'broken.schema.json': '{ not json', 'mine.yaml': suite(oneCase('{ method: GET, path: /v1/models }', '{ status: 200, schema: broken.schema.json }')) });
    expect(code, out).toBe(2);
    expect(out).toContain('error: schema "broken.schema.json" is not valid JSON');
    expect(report).toBeUndefined();
  });
});

describe('schemas of your own', () => {
  it('one refers to another beside it by relative path: both judge the answer', async () => {
    const outer = JSON.stringify({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: 'parts/model.schema.json' } } } });
    const inner = (required: string) => JSON.stringify({ type: 'object', required: [required], properties: { id: { type: 'string' } } });
    const files = (required: string) => ({ 'list.schema.json': outer, 'parts/model.schema.json': inner(required), 'mine.yaml': suite(oneCase('{ method: GET, path: /v1/models }', '{ status: 200, schema: list.schema.json }')) });
    const held = await run(files('id'));
    expect(held.code, held.out).toBe(0);
    const broken = await run(files('no_such_field'));
    expect(broken.code, broken.out).toBe(1);
    expect(broken.report!.results.find((r) => r.check === 'schema')?.message).toMatch(/no_such_field/);
  });
});

describe('the suite file itself', () => {
  it('a typo of a required key says which key is unknown, and what it was meant to be', async () => {
    const { code, out } = await run({ 'mine.yaml': 'version: 1\nnmae: mine\narea: models\ncases:\n  - id: c\n    titel: t\n    request: { method: GET, path: /v1/models }\n' });
    expect(code, out).toBe(2);
    expect(out).toContain('error: unknown field "nmae" in the suite');
    expect(out).toContain('did you mean "name"?');
    expect(out).toContain('error: unknown field "titel" in cases.0');
    expect(out).toContain('did you mean "title"?');
  });

  it('with a byte-order mark, a problem on its first line is at the column it is in the editor', async () => {
    const { code, out } = await run({ 'mine.yaml': '\uFEFFversoin: 1\nname: mine\narea: models\ncases: []\n' });
    expect(code, out).toBe(2);
    expect(out).toContain('mine.yaml:1:1');
  });

  it('a quoted status code is a string: the hint says to unquote it, not to write a class', async () => {
    const { code, out } = await run({ 'mine.yaml': suite(oneCase('{ method: GET, path: /v1/models }', '{ status: "200" }')) });
    expect(code, out).toBe(2);
    expect(out).toContain('"200" is a string: a status code is a number');
    expect(out).toContain('write 200 without quotes');
    expect(out).not.toContain('did you mean "2xx"');
  });

  it('named twice (its folder, and the file in it) it runs once', async () => {
    const { code, out, report } = await run({ 'mine.yaml': suite(oneCase('{ method: GET, path: /v1/models }')) }, ['DIR', 'DIR/mine.yaml']);
    expect(code, out).toBe(0);
    expect(report!.suites.map((s) => s.suite)).toEqual(['mine']);
  });
});
