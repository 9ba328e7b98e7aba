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

  it('a step summary path that cannot be written is a warning in the log; the passing run still exits 0', async () => {
    let out = '';
    const dir = mkdtempSync(join(tmpdir(), 'gha-'));
    const code = await main(['run', '--suite', 'models', '--fuzz-runs', '0', '--report-dir', join(dir, 'r')], {
      out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, isTTY: false,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'no', 'such', 'dir', 'summary.md') },
    });
    expect(code, out).toBe(0);
    expect(out).toMatch(/^::warning::the step summary was not written to .*summary\.md: ENOENT/m);
  });

  it('shards merged: the merge job writes the step summary and annotations; a shard\'s says which shard it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gha-merge-'));
    const shardSummary = join(dir, 'shard.md');
    const mergeSummary = join(dir, 'merge.md');
    writeFileSync(shardSummary, '');
    writeFileSync(mergeSummary, '');
    const io = (summary: string) => ({ out: { write: () => true }, err: { write: () => true }, isTTY: false, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    for (const i of [1, 2]) {
      await main(['run', '--suite', 'images', '--suite', 'models', '--fault', 'image-n-11-accepted', '--fuzz-runs', '0', '--seed', '3', '--shard', `${i}/2`, '--report-dir', join(dir, `s${i}`)], io(i === 1 ? shardSummary : join(dir, 'other.md')));
    }
    expect(readFileSync(shardSummary, 'utf8').split('\n')[0]).toMatch(/^## Conformance: .* \(shard 1\/2\)$/);
    let out = '';
    const code = await main(['merge', join(dir, 's1', 'report.json'), join(dir, 's2', 'report.json'), '--report-dir', join(dir, 'merged')], { ...io(mergeSummary), out: { write: (s: string) => (out += s) } });
    expect(code).toBe(1);
    expect(readFileSync(mergeSummary, 'utf8').split('\n')[0]).toBe('## Conformance: ❌ FAIL');
    expect(out).toMatch(/^::error file=suites\/images\.yaml/m);
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
