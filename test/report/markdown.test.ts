import { describe, expect, it } from 'vitest';
import { mdCell, renderMarkdown } from '../../src/report/markdown.ts';
import { catalogue, errorResult, failResult, makeReport, makeRun, passResult, warnResult } from './fixtures.ts';

describe('renderMarkdown', () => {
  const md = renderMarkdown(makeReport(), catalogue);

  it('has a title with the verdict, target, seed and duration', () => {
    expect(md.split('\n')[0]).toBe('# Conformance: FAIL');
    expect(md).toContain('http://localhost:8080');
    expect(md).toContain('**Seed:** 42');
    expect(md).toContain('**Duration:** 1.4 s');
  });

  it('names the faults of a faulted reference target (the HTML report too): a reader must not take it for a clean one', async () => {
    const report = makeReport();
    report.target = { ...report.target, baseUrl: 'reference', faults: ['stop-allows-5', 'n-ignored'] };
    expect(renderMarkdown(report, catalogue)).toContain('- **Target:** reference via replay with faults stop-allows-5, n-ignored');
    const { renderHtml } = await import('../../src/report/html/render.ts');
    expect(renderHtml(report, catalogue)).toContain('<dt>target</dt><dd>reference (replay), with faults stop-allows-5, n-ignored</dd>');
  });

  it('has a results table per area', () => {
    expect(md).toContain('| Area | Suites | Passed | Failed | Warnings | Skipped | Blocked | Not exercised | Errors |');
    expect(md).toContain('| completions | 1 | 1 | 1 | 1 | 1 | 0 | 0 | 1 |');
    expect(md).toContain('| models | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 |');
  });

  it('has coverage totals and per-requirement tables grouped by area', () => {
    expect(md).toContain('5/7 testable requirements exercised (8 in the catalogue, 1 untestable).');
    expect(md).toContain('| passed | failed | warned | skipped | errored | blocked | not-exercised | untestable |');
    expect(md).toContain('| 2 | 1 | 1 | 1 | 1 | 0 | 1 | 1 |');
    expect(md).toContain('### completions');
    expect(md).toContain('### errors');
    expect(md).toContain('### models');
    expect(md).toContain('| COMP-STOP-01 | completions | must | failed | 1 | 1 | 0 | 0 | 0 |  |');
    expect(md).toContain('| COMP-BILLING-01 | completions | untestable | untestable | 0 | 0 | 0 | 0 | 0 | billing is not observable |');
  });

  it('lists failures first, then errors, then warnings, each rendered in full, before the tables; the coverage is folded', () => {
    const f = md.indexOf('## Failures (must) (1)');
    const e = md.indexOf('## Errors (1)');
    const w = md.indexOf('## Warnings (should) (1)');
    expect(f).toBeGreaterThan(0);
    expect(e).toBeGreaterThan(f);
    expect(w).toBeGreaterThan(e);
    expect(md.indexOf('## Results by area')).toBeGreaterThan(w);
    expect(md.indexOf('<details><summary>Every requirement, by area</summary>')).toBeGreaterThan(md.indexOf('## Requirement coverage'));
    const failures = md.slice(f, e);
    expect(failures).toContain('#### FAIL `stop_sequence_excluded`');
    expect(failures).toContain('at /choices/0/text: text contains stop sequence " 5"');
    expect(failures).toContain('expected: "text without \\" 5\\""');
    expect(failures).toContain('actual:   " 4, 5, 6"');
    expect(failures).toContain('request: POST http://localhost:8080/v1/completions');
    expect(failures).toContain('npx conformance run --suite completions --case stop-basic --seed 42');
    expect(failures).toContain('`suites/completions.yaml:42:5`');
    expect(md.slice(w)).toContain('#### WARNING `error_status_code`');
    expect(md.slice(e, w)).toContain('#### ERROR `echo_prefix`');
    expect(md.slice(e, w)).toContain('transport error: socket hang up');
  });

  it('stays readable on a big failing run: the first 50 failures in full, then a count', () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ ...failResult, case: `c${i}` }));
    const text = renderMarkdown(makeReport(makeRun({ results: many })), catalogue);
    expect(text.match(/^#### FAIL /gm)).toHaveLength(50);
    expect(text).toContain('… and 70 more: report.json holds them all.');
  });

  it('lists every failure when there are several', () => {
    const second = { ...failResult, case: 'stop-multi', message: 'second failure' };
    const text = renderMarkdown(makeReport(makeRun({ results: [passResult, failResult, second, warnResult, errorResult] })), catalogue);
    expect(text.match(/^#### FAIL /gm)).toHaveLength(2);
    expect(text).toContain('second failure');
  });

  it('says so when there is nothing to report, and passes', () => {
    const text = renderMarkdown(makeReport(makeRun({ results: [passResult] })), catalogue);
    expect(text.split('\n')[0]).toBe('# Conformance: PASS');
    expect(text).toContain('No failures.');
    expect(text).toContain('No warnings.');
    expect(text).toContain('No errors.');
  });

  it('escapes pipes in table cells', () => {
    expect(mdCell('a|b')).toBe('a\\|b');
    expect(mdCell('a\nb')).toBe('a<br>b');
    const report = makeReport(makeRun({ results: [passResult] }));
    report.suites = [{ ...report.suites[0]!, area: 'x|y' }];
    const text = renderMarkdown(report, catalogue);
    expect(text).toContain('| x\\|y | 1 |');
  });

  it('keeps code fences intact when content has backticks', () => {
    const text = renderMarkdown(
      makeReport(makeRun({ results: [{ ...failResult, response: { status: 200, excerpt: '```js\nboom\n```' } }] })),
      catalogue,
    );
    expect(text).toContain('````text');
  });
});
