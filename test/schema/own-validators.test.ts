import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ownValidator, writeOwnValidators } from '../../src/schema/own-validators.ts';

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
      expect(files.map((f) => path.basename(f)).sort()).toEqual(['config.cjs', 'json-schema.cjs', 'requirements.cjs', 'suite.cjs']);
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
