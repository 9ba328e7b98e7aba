// The built-in suites compiled at build time: a compiled plan is the plan reading the file gives, and it is used
// only while the file, the vocabulary and the schema files it names are as they were at the build.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { defaultRegistry } from '../../src/checks/index.ts';
import { harnessVocabulary } from '../../src/run/setup.ts';
import { compiledSuites, shippedSuitesDir, writeCompiledSuites } from '../../src/suite/compiled.ts';
import { readSuiteFile, suiteFilesIn } from '../../src/suite/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'compiled-suites-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vocabulary = harnessVocabulary(loadCatalogue(), defaultRegistry());
const files = suiteFilesIn(shippedSuitesDir);
const out = writeCompiledSuites(vocabulary, readSuiteFile, files, join(dir, 'suites.json'));
const shown = (path: string) => relative(process.cwd(), path);
const text = (path: string) => readFileSync(path, 'utf8');

describe('compiled built-in suites', () => {
  it('give, for every shipped suite, exactly the plan reading its file gives', () => {
    expect(files.length).toBeGreaterThan(10);
    const lookup = compiledSuites(vocabulary, out);
    for (const path of files) expect(lookup(path, text(path), shown(path)), path).toEqual(readSuiteFile(path, vocabulary));
  });

  it('are not used for an edited file, a file outside the shipped folder, or another vocabulary', () => {
    const path = files[0]!;
    expect(compiledSuites(vocabulary, out)(path, `${text(path)}\n# edited\n`, shown(path))).toBeUndefined();
    expect(compiledSuites(vocabulary, out)(join(dir, 'elsewhere.yaml'), text(path), 'elsewhere.yaml')).toBeUndefined();
    const fewerIds = { ...vocabulary, requirementIds: new Set([...vocabulary.requirementIds].slice(1)) };
    expect(compiledSuites(fewerIds, out)(path, text(path), shown(path))).toBeUndefined();
    const otherParams = { ...vocabulary, checkParams: () => ({}) };
    expect(compiledSuites(otherParams, out)(path, text(path), shown(path))).toBeUndefined();
  });

  it('are not used when the loader that checked them is not the one running (its modules or the suite format changed)', () => {
    const path = files[0]!;
    const built = JSON.parse(readFileSync(out, 'utf8')) as { loader: Record<string, string> };
    // The build records both forms where both are there (a checkout); this test runs the sources.
    expect(built.loader.src).toMatch(/^[0-9a-f]{64}$/);
    const other = join(dir, 'other-loader.json');
    writeFileSync(other, JSON.stringify({ ...built, loader: { ...built.loader, src: '0'.repeat(64) } }));
    expect(compiledSuites(vocabulary, other)(path, text(path), shown(path))).toBeUndefined();
    expect(compiledSuites(vocabulary, out)(path, text(path), shown(path))).toBeDefined();
  });

  it('are not used once a schema file a suite names is gone', () => {
    const withSchemas = files.find((path) => /schema:/.test(text(path)))!;
    const gone = { ...vocabulary, schemaExists: () => false };
    expect(compiledSuites(gone, out)(withSchemas, text(withSchemas), shown(withSchemas))).toBeUndefined();
    expect(compiledSuites(vocabulary, out)(withSchemas, text(withSchemas), shown(withSchemas))).toBeDefined();
  });

  it('show paths as the run that reads them would (relative to its working directory)', () => {
    const path = files[0]!;
    const plan = compiledSuites(vocabulary, out)(path, text(path), 'somewhere/else.yaml')!;
    expect(plan.file).toBe('somewhere/else.yaml');
    expect(new Set(plan.casePositions.map((p) => p.file))).toEqual(new Set(['somewhere/else.yaml']));
  });
});
