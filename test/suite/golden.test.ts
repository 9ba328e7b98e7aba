// Golden suite files: every file under valid/ loads; every file under invalid/ fails with exactly the
// position and message written in its `# expect:` header (Hurl's passing/invalid folders).

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { main } from '../../src/cli/main.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHarness } from '../../src/run/setup.ts';
import { loadSuites } from '../../src/suite/load.ts';
import { SuiteError } from '../../src/suite/errors.ts';
import { builtinVariableNames } from '../../src/engine/index.ts';
import { existsSync } from 'node:fs';
import { repoRoot } from '../../src/util/paths.ts';

const golden = join(repoRoot, 'test', 'golden');
const harness = loadHarness({ files: [] });
const vocabulary = {
  requirementIds: new Set(harness.catalogue.byId.keys()),
  checkNames: harness.registry.names(),
  checkParams: (name: string) => harness.registry.params(name),
  schemaExists: (ref: string) => existsSync(join(repoRoot, 'schemas', ref)),
  builtinVariables: builtinVariableNames,
};
const files = (dir: string) => readdirSync(join(golden, dir)).filter((f) => f.endsWith('.yaml')).map((f) => join(golden, dir, f));

describe('valid suites load', () => {
  it.each(files('valid'))('%s', (file) => {
    const [plan] = loadSuites([file], vocabulary);
    expect(plan!.spec.cases.length).toBeGreaterThan(0);
    expect(plan!.casePositions.every((p) => p.line > 0)).toBe(true);
  });
});

describe('invalid suites fail at the exact place', () => {
  it.each(files('invalid'))('%s', (file) => {
    const header = readFileSync(file, 'utf8').split('\n')[0]!;
    const m = /^# expect: (\d+):(\d+) ?(.*?)(?: \| (.*))?$/.exec(header);
    if (!m) throw new Error(`${file}: first line must be "# expect: LINE:COL message | hint"`);
    const [, line, col, message, hint] = m;
    let error: unknown;
    try {
      loadSuites([file], vocabulary);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SuiteError);
    const problems = (error as SuiteError).problems;
    const found = problems.find((p) => p.pos.line === Number(line) && p.pos.col === Number(col));
    expect(found, `no problem at ${line}:${col}; got ${problems.map((p) => `${p.pos.line}:${p.pos.col} ${p.message}`).join('; ')}`).toBeDefined();
    if (message) expect(found!.message).toContain(message);
    if (hint) expect(found!.hint).toBe(hint);
    const rendered = (error as SuiteError).render();
    expect(rendered).toContain(`--> ${found!.pos.file}:${line}:${col}`);
    expect(rendered).toContain('^');
  });
});

describe('the shipped suites', () => {
  it('all load, and cite only catalogue IDs, known checks and existing schemas', () => {
    // loadHarness throws a SuiteError naming file:line:col for any unknown requirement ID.
    const { plans } = loadHarness();
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) for (const c of plan.spec.cases) for (const id of c.requirements) expect(harness.catalogue.byId.has(id), `${plan.file} ${c.id} cites ${id}`).toBe(true);
  });
});

describe('the suite format (docs/suites.md)', () => {
  it('shows a suite example that loads and passes against the reference server', async () => {
    const readme = readFileSync(join(repoRoot, 'docs', 'suites.md'), 'utf8');
    const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('version: 1'));
    expect(block, 'docs/suites.md has a yaml suite example').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'readme-suite-'));
    writeFileSync(join(dir, 'example.yaml'), block!);
    const [plan] = loadSuites([join(dir, 'example.yaml')], vocabulary);
    expect(plan!.spec.cases.length).toBeGreaterThan(0);
    let out = '';
    const sink = { write: (s: string) => { out += s; return true; } };
    const code = await main(['run', '--suites-dir', dir, '--suite', plan!.spec.name, '--report-dir', mkdtempSync(join(tmpdir(), 'readme-r-'))], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
    expect(code, out).toBe(0);
  });
});
