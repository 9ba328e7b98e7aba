import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/suite/yaml-source.ts';
import { builtCataloguePath, defaultCataloguePath, loadCatalogue, writeBuiltCatalogue } from '../../src/catalogue/load.ts';

describe('the shipped catalogue, built as JSON', () => {
  it('holds what the YAML holds, under the fingerprint of that YAML', () => {
    const path = writeBuiltCatalogue();
    expect(path).toBe(builtCataloguePath);
    const yaml = parseYaml(defaultCataloguePath, readFileSync(defaultCataloguePath, 'utf8')).source.doc.toJS() as { requirements: unknown[] };
    const built = JSON.parse(readFileSync(path, 'utf8')) as { fingerprint: string; requirements: unknown[] };
    expect(built.requirements).toEqual(yaml.requirements);
    expect(built.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const loaded = loadCatalogue();
    expect(loaded.list).toEqual(yaml.requirements);
    expect(loaded.byId.size).toBe(yaml.requirements.length);
  });

  it('is ignored for any other catalogue file (a user catalogue is read from its YAML)', () => {
    expect(existsSync(builtCataloguePath)).toBe(true);
    expect(() => loadCatalogue('/nonexistent/requirements.yaml')).toThrow(/ENOENT/);
  });
});
