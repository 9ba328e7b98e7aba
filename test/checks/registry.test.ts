// Every registered check cites catalogue requirements, and has a test under test/checks/ naming it.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { CheckRegistry } from '../../src/checks/registry.ts';
import { repoRoot } from '../../src/util/paths.ts';

const registry = defaultRegistry();
const catalogue = loadCatalogue();
const testsText = readdirSync(join(repoRoot, 'test', 'checks'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(join(repoRoot, 'test', 'checks', f), 'utf8'))
  .join('\n');

describe('the check registry', () => {
  it.each(registry.all().map((c) => [c.name, c] as const))('%s cites catalogue requirements and has a test', (name, check) => {
    for (const id of check.requirements) expect(catalogue.byId.has(id), `${name} cites unknown ${id}`).toBe(true);
    for (const id of check.requirements) expect(catalogue.byId.get(id)!.severity, `${name} cites untestable ${id}`).not.toBe('untestable');
    expect(check.summary.length).toBeGreaterThan(0);
    expect(testsText.includes(name), `no test under test/checks/ mentions ${name}`).toBe(true);
  });

  it('a should-check never cites a must-only requirement as its only reason to fail the run', () => {
    // A `should` check is a warning; citing only `must` requirements would hide a must-failure as a warning.
    const offenders = registry.all().filter((c) => c.severity === 'should' && c.requirements.every((id) => catalogue.byId.get(id)?.severity === 'must')).map((c) => c.name);
    expect(offenders).toEqual([]);
  });

  it('refuses duplicate names and checks that cite nothing', () => {
    const base = { kind: 'response' as const, severity: 'must' as const, summary: 's', run: () => [] };
    expect(() => new CheckRegistry([{ ...base, name: 'a', requirements: ['X-Y'] }, { ...base, name: 'a', requirements: ['X-Y'] }])).toThrow(/twice/);
    expect(() => new CheckRegistry([{ ...base, name: 'b', requirements: [] }])).toThrow(/cites no requirement/);
  });
});
