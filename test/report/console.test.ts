import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/engine/types.ts';
import { ConsoleReporter } from '../../src/report/console.ts';
import { renderFailure } from '../../src/report/render-failure.ts';
import type { Report } from '../../src/report/types.ts';
import { failResult, makeReport, makeRun, passResult, results, suites, warnResult } from './fixtures.ts';

function run(report: Report, color: boolean, extra: RunEvent[] = []): string {
  let out = '';
  const reporter = new ConsoleReporter({ write: (s: string) => (out += s) }, { color });
  const events: RunEvent[] = [{ type: 'run-start', suites: report.suites.length, target: report.target.baseUrl, seed: report.seed }];
  for (const outcome of report.suites) {
    events.push({ type: 'suite-start', suite: outcome.suite, area: outcome.area, cases: 3 });
    events.push({ type: 'case-end', suite: outcome.suite, case: 'c', results: report.results.filter((r) => r.suite === outcome.suite) });
    events.push({ type: 'suite-end', outcome });
  }
  events.push(...extra, { type: 'run-end', durationMs: report.durationMs, interrupted: false });
  for (const e of events) reporter.onEvent(e);
  reporter.end(report, { json: 'reports/report.json', junit: 'reports/junit.xml', markdown: 'reports/summary.md', html: 'reports/report.html' });
  return out;
}

describe('ConsoleReporter', () => {
  const report = makeReport();

  it('with color off: no ANSI codes, one line per suite, full failures, summary and coverage', () => {
    const out = run(report, false);
    expect(out).not.toContain('\u001b[');
    const lines = out.split('\n');
    const suiteLines = lines.filter((l) => /^(PASS|FAIL) /.test(l));
    expect(suiteLines).toEqual([
      'FAIL completions  1 passed · 1 failed · 1 warning · 1 skipped · 1 error  (1.2 s)',
      'PASS models  1 passed · 0 failed · 0 warnings · 0 skipped  (87 ms)',
    ]);
    expect(out).toContain('1) FAIL stop_sequence_excluded: the returned text contains the stop sequence');
    expect(out).toContain('at /choices/0/text: text contains stop sequence " 5"');
    expect(out).toContain('expected: "text without \\" 5\\""');
    expect(out).toContain('actual:   " 4, 5, 6"');
    expect(out).toContain('reproduce: npx conformance run --suite completions --case stop-basic --seed 42');
    expect(out).toContain('2) ERROR echo_prefix: check threw');
    // warnings: one line each
    expect(lines.filter((l) => l.includes('error_status_code'))).toEqual([
      '  error_status_code  completions › unknown-model — an unknown model is rejected: expected 404 for an unknown model, got 400',
    ]);
    expect(out).toContain('2 passed, 1 failed, 1 warning, 1 skipped, 1 error — verdict FAIL');
    // The fixture's cases cite 6 of the catalogue's 7 testable requirements: the line counts against those 6.
    expect(out).toContain("coverage: 5/6 requirements this run's cases cite exercised (7 testable in the catalogue); 1 failed, 1 errored");
    expect(out).toContain('reports/report.json, reports/junit.xml, reports/summary.md');
  });

  it('a suite the selection left no case of gets no PASS line: one line names all of them', () => {
    const empty = { ...suites[1]!, suite: 'edits', counts: { pass: 0, fail: 0, warn: 0, skip: 0, error: 0, blocked: 0, 'not-exercised': 0 } };
    const out = run(makeReport(makeRun({ suites: [...suites, empty] })), false);
    expect(out).not.toMatch(/^PASS edits/m);
    expect(out).toContain('1 suite with no case in the selection: edits');
  });

  it('with color on: ✔/✖ marks and ANSI codes', () => {
    const out = run(report, true);
    expect(out).toContain('\u001b[');
    expect(out).toContain('✖');
    expect(out).toContain('✔');
  });

  it('a passing run says PASS', () => {
    const ok = makeReport(makeRun({ results: [passResult, warnResult], suites: [{ ...suites[0]!, counts: { pass: 1, fail: 0, warn: 1, skip: 0, error: 0, blocked: 0, 'not-exercised': 0 } }] }));
    const out = run(ok, false);
    expect(out).toContain('1 passed, 0 failed, 1 warning, 0 skipped, 0 errors — verdict PASS');
    expect(out).not.toContain('FAIL');
  });

  it('never lets server text emit escape sequences', () => {
    const evil = makeReport(makeRun({ results: [{ ...failResult, message: 'x\u001b[31mred', response: { status: 500, excerpt: '\u001b]0;title\u0007' } }] }));
    const out = run(evil, false);
    expect(out).not.toContain('\u001b');
    expect(out).toContain('x\\u001b[31mred');
  });

  it('reports failed cleanups after the run', () => {
    const out = run(report, false, [{ type: 'cleanup', suite: 'files', message: 'DELETE /v1/files/f1 returned 500', ok: false }]);
    expect(out).toContain('files: DELETE /v1/files/f1 returned 500');
  });

  it('verbose prints non-passing checks as cases end', () => {
    let out = '';
    const r = new ConsoleReporter({ write: (s: string) => (out += s) }, { color: false, verbose: true });
    r.onEvent({ type: 'case-end', suite: 'completions', case: 'x', results });
    expect(out).toContain('SKIP logprobs_shape');
    expect(out).not.toContain('PASS schema');
  });
});

describe('renderFailure', () => {
  it('renders rule, severity, requirements, case, request, findings, response and reproduce', () => {
    const text = renderFailure(failResult, { color: false, markdown: false });
    expect(text.split('\n')).toEqual([
      'FAIL stop_sequence_excluded: the returned text contains the stop sequence',
      '  severity: must',
      '  requirements: COMP-STOP-01',
      '  case: completions › stop-basic — stop sequence is excluded from the text  (suites/completions.yaml:42:5)',
      '  request: POST http://localhost:8080/v1/completions',
      '    authorization: Bearer [redacted]',
      '    content-type: application/json',
      '    body: {"model":"text-davinci-003","prompt":"Count: 1, 2, 3,","stop":[" 5"],"max_tokens":16}',
      '  at /choices/0/text: text contains stop sequence " 5"',
      '    expected: "text without \\" 5\\""',
      '    actual:   " 4, 5, 6"',
      '  response: 200 application/json',
      '    {"id":"cmpl-1","object":"text_completion","choices":[{"text":" 4, 5, 6","index":0}]}',
      '  reproduce: npx conformance run --suite completions --case stop-basic --seed 42',
    ]);
  });

  it('redacts secrets that slipped through, truncates bodies, summarises multipart', () => {
    const text = renderFailure(
      {
        ...failResult,
        request: {
          method: 'POST',
          url: 'http://x/v1/images/edits',
          headers: { authorization: 'Bearer sk-live-123', 'x-api-key': 'abc' },
          body: {
            kind: 'multipart',
            fields: { prompt: 'a cat', n: '1' },
            files: [{ field: 'image', filename: 'image.png', contentType: 'image/png', size: 2048, sha256: 'deadbeef'.repeat(8), fixture: 'png 256x256 alpha=transparent-region' }],
          },
        },
        findings: [{ pointer: '/data', message: 'too long', actual: 'y'.repeat(1000) }],
        response: { status: 200, contentType: 'application/json', excerpt: 'z'.repeat(1000) },
      },
      { color: false, markdown: false },
    );
    expect(text).not.toContain('sk-live-123');
    expect(text).toContain('authorization: Bearer [redacted]');
    expect(text).toContain('x-api-key: [redacted]');
    expect(text).toContain('field prompt="a cat"');
    expect(text).toContain('file image: image.png (image/png, 2048 bytes, sha256 deadbeefdead, png 256x256 alpha=transparent-region)');
    expect(text).toMatch(/actual: {3}"y{199}… \(\+\d+ chars\)/);
    expect(text).toMatch(/ {4}z{300}… \(\+700 chars\)/);
    const big = renderFailure({ ...failResult, request: { ...failResult.request!, body: { kind: 'json', value: { prompt: 'p'.repeat(2000) } } } }, { color: false, markdown: false });
    const bodyLine = big.split('\n').find((l) => l.includes('body:'))!;
    expect(bodyLine.length).toBeLessThan(460);
  });
});
