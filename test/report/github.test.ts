// Under GitHub Actions the run writes a compact step summary and annotations pointing at the failing case's
// YAML line — tested by setting the variables GitHub sets, on a real run with a fault.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { annotations, stepSummary } from '../../src/report/github.ts';
import { failResult, makeReport, makeRun, warnResult } from './fixtures.ts';

describe('GitHub Actions', () => {
  it('a run with a fault: ::error at the case line, and a step summary with the verdict and the failure first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gha-'));
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    let out = '';
    const code = await main(['run', '--suite', 'images', '--fault', 'image-n-11-accepted', '--fuzz-runs', '0', '--report-dir', join(dir, 'r')], {
      out: { write: (s: string) => (out += s) }, err: { write: () => true }, isTTY: false,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '7' },
    });
    expect(code).toBe(1);
    expect(out).toMatch(/^::error file=suites\/images\.yaml,line=\d+,col=\d+,title=images › gen-n-11-rejected \(IMG-GEN-N-RANGE-REJECT\)::status: expected 4xx, got 200/m);
    const md = readFileSync(summary, 'utf8');
    expect(md.split('\n')[0]).toBe('## Conformance: ❌ FAIL');
    expect(md.indexOf('gen-n-11-rejected')).toBeLessThan(md.indexOf('| area |'));
  });

  it('nothing GitHub-specific outside GitHub Actions', async () => {
    let out = '';
    await main(['run', '--suite', 'models', '--fuzz-runs', '0', '--report-dir', mkdtempSync(join(tmpdir(), 'gha-'))], { out: { write: (s: string) => (out += s) }, err: { write: () => true }, env: {}, isTTY: false });
    expect(out).not.toMatch(/^::/m);
  });

  it('a target\'s words stay text in the step summary: no HTML, image, link or broken table', () => {
    const hostile = '</details><img src=https://evil.example/x.png> [click](https://evil.example) | x |\n## title';
    const md = stepSummary(makeReport(makeRun({ results: [{ ...failResult, message: `expected 200, got 400 (the server said: "${hostile}")` }] })));
    const row = md.split('\n').find((l) => l.startsWith('| ❌'))!;
    expect(row).toContain('\\</details\\>\\<img src=https://evil.example/x.png\\> \\[click\\]\\(https://evil.example\\) \\| x \\| \\#\\# title');
    // Five cells, whatever the message holds.
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(7);
  });

  it('annotations are deduplicated and capped; the summary is bounded', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...failResult, case: `c${i}` }));
    const lines = annotations(makeReport(makeRun({ results: [...many, failResult, failResult, warnResult] })));
    expect(lines.filter((l) => l.startsWith('::error')).length).toBe(20);
    expect(lines.filter((l) => l.startsWith('::warning')).length).toBe(1);
    expect(lines).toContain('::notice::181 more failures: see the step summary and report.json');
    const md = stepSummary(makeReport(makeRun({ results: many })), 'https://x/run');
    expect(md.match(/^\| ❌ /gm)).toHaveLength(50);
    expect(md).toContain('… and 150 more: [the full report](https://x/run).');
  });
});
