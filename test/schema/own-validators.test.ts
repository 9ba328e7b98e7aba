import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ownValidator, writeOwnValidators } from '../../src/schema/own-validators.ts';
import { defaultSchemasDir, precompiledSchemasPath, SchemaRegistry } from '../../src/schema/registry.ts';

const load = createRequire(import.meta.url);
const suiteSchema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../schemas/suite.schema.json'), 'utf8')) as object;
const samples: unknown[] = [
  { version: 1, name: 's', area: 'models', description: 'd', cases: [{ id: 'a', title: 't', requirements: ['MODEL-LIST'], request: { method: 'GET', path: '/v1/models' }, expect: { status: 200 } }] },
  { version: 1, name: 's', area: 'models', cases: [{ id: 'a', request: { method: 'FETCH', path: 3 } }] },
  { version: 2 },
  'not a suite',
];

describe('validators generated at build time', () => {
  it('judge like the schema compiled at run time, and carry the fingerprint of what they were made from', () => {
    // Inside the project, so that the generated code finds Ajv's runtime helpers as the shipped files do.
    const dir = fs.mkdtempSync(path.join(import.meta.dirname, '../../node_modules/.validators-test-'));
    try {
      const files = writeOwnValidators(dir);
      expect(files.map((f) => path.basename(f)).sort()).toEqual(['config.cjs', 'json-schema.cjs', 'report.cjs', 'requirements.cjs', 'suite.cjs']);
      const generated = load(path.join(dir, 'suite.cjs')) as ((data: unknown) => boolean) & { errors?: unknown[]; fingerprint?: string };
      const compiled = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(suiteSchema);
      for (const s of samples) {
        expect(generated(s)).toBe(compiled(s));
        expect((generated.errors ?? []).map((e) => JSON.stringify([(e as { instancePath: string }).instancePath, (e as { keyword: string }).keyword])))
          .toEqual((compiled.errors ?? []).map((e) => JSON.stringify([e.instancePath, e.keyword])));
      }
      expect(generated.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are used through ownValidator, which compiles the schema itself when no current file was generated', () => {
    const validate = ownValidator('suite');
    expect(validate(samples[0])).toBe(true);
    expect(validate(samples[1])).toBe(false);
    expect(ownValidator('json-schema')({ type: 'strin' })).toBe(false);
    expect(ownValidator('json-schema')({ type: 'string', minLength: 2 })).toBe(true);
  });
});

describe('the shipped schemas, precompiled at build time', () => {
  it('judge like the same schemas compiled by Ajv at run time (a copy of schemas/ is never precompiled)', () => {
    const shipped = SchemaRegistry.load();
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-copy-'));
    try {
      fs.cpSync(defaultSchemasDir, copy, { recursive: true });
      const compiled = SchemaRegistry.load(copy);
      // npm install builds them: a registry of the shipped schemas uses them (in CI, where the build is always
      // current; a checkout with an edited schema compiles it until the next build), one of a copy cannot.
      if (process.env.CI) expect(shipped.usesBuildValidators(), `${precompiledSchemasPath} is missing or stale`).toBe(true);
      expect(compiled.usesBuildValidators()).toBe(false);
      expect(SchemaRegistry.load(undefined, { pluginLimits: { name_for_model: 10 } }).usesBuildValidators()).toBe(false);
      const instances: unknown[] = [null, {}, [], 'x', 3, { object: 'list', data: [{ id: 1 }] }, { id: 'x', object: 'model', created: '2023', owned_by: null }];
      for (const ref of shipped.refs()) {
        if (!ref.endsWith('.schema.json')) continue;
        for (const value of instances) expect(shipped.validate(ref, value), `${ref} ${JSON.stringify(value)}`).toEqual(compiled.validate(ref, value));
      }
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
