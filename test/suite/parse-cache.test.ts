// Parsed suite files kept between runs (src/suite/parse-cache.ts): a kept entry stands for exactly the text it
// was parsed from, and every doubt (a torn entry, a foreign one, a folder others can write to) is a parse.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHarness } from '../../src/run/setup.ts';
import { builtinVariableNames } from '../../src/engine/index.ts';
import { SuiteError } from '../../src/suite/errors.ts';
import { defaultParseCacheDir, ParseCache, useParseCache } from '../../src/suite/parse-cache.ts';
import { loadSuites } from '../../src/suite/load.ts';
import { parseYaml } from '../../src/suite/yaml-source.ts';
import { repoRoot } from '../../src/util/paths.ts';

afterEach(() => useParseCache(undefined));

/** A suite file of `n` cases: some tens of KB, past the size the cache bothers with. */
function bigSuite(n: number, name = 'cached'): string {
  const cases = Array.from({ length: n }, (_, i) => `  - id: c${i}\n    title: case ${i}\n    requirements: [MODEL-LIST]\n    request: { method: GET, path: /v1/models, query: { n: ${i}, f: -0.5e3, big: 12345678901234567890 } }\n    expect: { status: 200, schema: models/list.schema.json }\n`);
  return `version: 1\nname: ${name}\narea: models\ndescription: "unicode ✓ and \\u00e9"\ncases:\n${cases.join('')}`;
}

const parse = (text: string) => () => parseYaml('', text).source.doc.toJS();
const entries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8'));

describe('ParseCache', () => {
  it('a kept entry gives back what the parser gave, without parsing again', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parse-cache-')), 'parsed');
    const text = bigSuite(400);
    let parses = 0;
    const counted = () => { parses++; return parse(text)(); };
    const first = new ParseCache({ dir }).through(text, counted);
    const again = new ParseCache({ dir }).through(text, counted);
    expect(parses).toBe(1);
    expect(again).toEqual(parse(text)());
    expect(again).toEqual(first);
    expect(entries(dir)).toHaveLength(1);
    // Another text (one character apart) is another entry.
    new ParseCache({ dir }).through(text.replace('case 7\n', 'case 8\n'), counted);
    expect(parses).toBe(2);
    expect(entries(dir)).toHaveLength(2);
  });

  it('a torn or foreign entry is parsed again and written over', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parse-cache-')), 'parsed');
    const text = bigSuite(300);
    const cache = new ParseCache({ dir });
    cache.through(text, parse(text));
    const [file] = entries(dir);
    const path = join(dir, file!);
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length >> 1));
    let parses = 0;
    expect(new ParseCache({ dir }).through(text, () => { parses++; return parse(text)(); })).toEqual(parse(text)());
    expect(parses).toBe(1);
    expect(readFileSync(path)).toEqual(whole);
    // The entry of another text, under this text's name: its key does not match, so it is not used.
    const other = bigSuite(300, 'other');
    new ParseCache({ dir }).through(other, parse(other));
    const otherFile = entries(dir).find((f) => f !== file)!;
    writeFileSync(path, readFileSync(join(dir, otherFile)));
    parses = 0;
    expect(new ParseCache({ dir }).through(text, () => { parses++; return parse(text)(); })).toEqual(parse(text)());
    expect(parses).toBe(1);
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parse-cache-')), 'parsed');
    const cache = new ParseCache({ dir, maxEntries: 3 });
    const texts = Array.from({ length: 5 }, (_, i) => bigSuite(200, `s${i}`));
    const seen = new Set<string>();
    texts.slice(0, 3).forEach((t, i) => {
      cache.through(t, parse(t));
      // Written seconds apart, oldest first, whatever the file system's time resolution.
      for (const f of entries(dir).filter((f) => !seen.has(f))) {
        seen.add(f);
        const at = new Date(Date.now() - (10 - i) * 1000);
        utimesSync(join(dir, f), at, at);
      }
    });
    cache.through(texts[0]!, () => { throw new Error('kept: not parsed'); }); // read: now the most recent
    cache.through(texts[3]!, parse(texts[3]!));
    cache.through(texts[4]!, parse(texts[4]!));
    expect(entries(dir)).toHaveLength(3);
    let parses = 0;
    for (const t of [texts[0]!, texts[3]!, texts[4]!]) cache.through(t, () => { parses++; return parse(t)(); });
    expect(parses).toBe(0);
    cache.through(texts[1]!, () => { parses++; return parse(texts[1]!)(); });
    expect(parses).toBe(1);
  });

  it('is not used in a folder others can write to, nor where no folder can be made; parsing goes on', () => {
    const shared = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    chmodSync(shared, 0o777);
    const text = bigSuite(200);
    let parses = 0;
    const counted = () => { parses++; return parse(text)(); };
    new ParseCache({ dir: shared }).through(text, counted);
    new ParseCache({ dir: shared }).through(text, counted);
    expect(parses).toBe(2);
    expect(entries(shared)).toHaveLength(0);
    const file = join(mkdtempSync(join(tmpdir(), 'parse-cache-')), 'not-a-folder');
    writeFileSync(file, '');
    expect(new ParseCache({ dir: join(file, 'parsed') }).through(text, counted)).toEqual(parse(text)());
  });

  it('what else a reading depends on (a validator\'s version) is part of the key: another is another entry', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parse-cache-')), 'parsed');
    const text = bigSuite(200);
    let parses = 0;
    const counted = () => { parses++; return parse(text)(); };
    new ParseCache({ dir }).through(text, counted, 'checked@v1');
    new ParseCache({ dir }).through(text, counted, 'checked@v2');
    expect(parses).toBe(2);
    expect(entries(dir)).toHaveLength(2);
    expect(new ParseCache({ dir }).through(text, counted, 'checked@v1')).toEqual(parse(text)());
    expect(parses).toBe(2);
  });

  it('small texts and texts the fast path refuses are not kept', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parse-cache-')), 'parsed');
    const cache = new ParseCache({ dir });
    cache.through('version: 1\n', parse('version: 1\n'));
    cache.through(bigSuite(200), () => undefined);
    expect(existsSync(dir) ? entries(dir) : []).toHaveLength(0);
  });
});

describe('suites loaded through the cache', () => {
  const harness = loadHarness({ files: [] });
  const vocabulary = {
    requirementIds: new Set(harness.catalogue.byId.keys()),
    checkNames: harness.registry.names(),
    schemaExists: () => true,
    builtinVariables: builtinVariableNames,
  };

  it('load to the same plan, and a broken file still fails at its exact place', () => {
    const root = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    const file = join(root, 'big.yaml');
    writeFileSync(file, bigSuite(300));
    const [plain] = loadSuites([file], vocabulary);
    useParseCache(new ParseCache({ dir: join(root, 'cache') }));
    loadSuites([file], vocabulary);
    const [cached] = loadSuites([file], vocabulary);
    expect(entries(join(root, 'cache'))).toHaveLength(1);
    expect(cached).toEqual(plain);
    // An unknown requirement in case 120: the cached document does not validate, and the error points at it.
    const broken = bigSuite(300).replace(/(title: case 120\n    requirements: \[)MODEL-LIST/, '$1NOPE-1');
    writeFileSync(file, broken);
    for (let round = 0; round < 2; round++) {
      let error: unknown;
      try { loadSuites([file], vocabulary); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(SuiteError);
      const line = broken.split('\n').findIndex((l) => l.includes('NOPE-1')) + 1;
      expect((error as SuiteError).render()).toContain(`big.yaml:${line}:`);
    }
  });

  it('keep no file that does not validate: it fails at its exact place on every run', () => {
    const root = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    const file = join(root, 'invalid.yaml');
    const text = bigSuite(300).replace(/(title: case 150\n    requirements: \[MODEL-LIST\]\n    request: \{ method: )GET/, '$1FETCH');
    writeFileSync(file, text);
    useParseCache(new ParseCache({ dir: join(root, 'cache') }));
    const line = text.split('\n').findIndex((l) => l.includes('FETCH')) + 1;
    for (let round = 0; round < 2; round++) {
      let error: unknown;
      try { loadSuites([file], vocabulary); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(SuiteError);
      expect((error as SuiteError).render()).toContain(`invalid.yaml:${line}:`);
    }
    expect(existsSync(join(root, 'cache')) ? entries(join(root, 'cache')) : []).toHaveLength(0);
  });

  it('leave a file with inline assertions to the full load, unparsed before it (their positions need it), and unkept', () => {
    const root = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    const file = join(root, 'asserts.yaml');
    const text = bigSuite(300).replace('expect: { status: 200, schema: models/list.schema.json }', 'expect: { status: 200, schema: models/list.schema.json, assert: [ { pointer: /object, equals: list } ] }');
    writeFileSync(file, text);
    useParseCache(new ParseCache({ dir: join(root, 'cache') }));
    const [plan] = loadSuites([file], vocabulary);
    expect(plan!.assertPositions![0]![0]!.line).toBe(text.split('\n').findIndex((l) => l.includes('assert:')) + 1);
    expect(existsSync(join(root, 'cache')) ? entries(join(root, 'cache')) : []).toHaveLength(0);
  });

  it('keep a file the plain reader does not take, read once by the parser with positions, to the same plan', () => {
    const root = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    const file = join(root, 'blocks.yaml');
    // A block scalar: outside the plain subset.
    writeFileSync(file, bigSuite(300).replace('description: "unicode ✓ and \\u00e9"', 'description: |\n  a block\n  of text'));
    const [read] = loadSuites([file], vocabulary);
    expect(read!.spec.description).toBe('a block\nof text\n');
    useParseCache(new ParseCache({ dir: join(root, 'cache') }));
    loadSuites([file], vocabulary);
    expect(entries(join(root, 'cache'))).toHaveLength(1);
    expect(loadSuites([file], vocabulary)[0]).toEqual(read);
  });
});

describe('where the CLI keeps it', () => {
  it('node_modules/.cache of the project by default; CONFORMANCE_CACHE_DIR moves it; CONFORMANCE_CACHE=off turns it off', () => {
    expect(defaultParseCacheDir({})).toBe(join(repoRoot, 'node_modules', '.cache', 'model-api-conformance', 'parsed'));
    expect(defaultParseCacheDir({ CONFORMANCE_CACHE_DIR: '/somewhere' })).toBe(join('/somewhere', 'parsed'));
    expect(defaultParseCacheDir({ CONFORMANCE_CACHE: 'off' })).toBeUndefined();
  });
});
