// The verdict of judged traffic: no pass for exchanges no rule judged, and no problem for a session that only
// replayed (a cassette's answer is not judged again) or saw no traffic.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/judge/results.ts';
import { trafficReport, trafficSession, trafficSummaryLine } from '../../src/traffic/session.ts';

const meta = (judgeable: number) => ({ target: 'http://127.0.0.1:1', transport: 'proxy', tool: { name: 't', version: '0' }, spec: 's', startedAt: new Date(0), durationMs: 1, judgeable });
const { catalogue } = trafficSession('http://127.0.0.1:1');
const notExercised = { suite: 's', case: 'c', caseTitle: 'c', source: 'c', check: 'timestamps_are_integers', requirements: ['RES-TIMESTAMPS-INT'], severity: 'must', status: 'not-exercised', message: 'm', durationMs: 0 } as CheckResult;

describe('the verdict of judged traffic', () => {
  it('is an error of the run when exchanges were forwarded and no rule judged one', () => {
    const report = trafficReport([notExercised], meta(2), catalogue);
    expect([report.verdict, report.problems.map((p) => p.kind)]).toEqual(['error', ['nothing-judged']]);
  });
  it('is a pass when nothing could be judged: only replays, or no traffic', () => {
    expect(trafficReport([], meta(0), catalogue).verdict).toBe('pass');
  });
  it('is a pass when a rule judged something', () => {
    expect(trafficReport([{ ...notExercised, status: 'pass' } as CheckResult], meta(1), catalogue).verdict).toBe('pass');
  });
});

describe('the last line of proxy and judge', () => {
  it('names errors, which fail the run as failures do, beside "0 failed"', () => {
    const report = trafficReport([{ ...notExercised, status: 'error', message: 'the check threw' } as CheckResult, { ...notExercised, status: 'pass' } as CheckResult], meta(2), catalogue);
    expect(trafficSummaryLine(report.summary, 'r.html')).toBe('2 results: 0 failed, 1 error, 0 warnings, 1 passed, 0 not exercised · r.html\n');
  });
  it('says nothing of errors when there are none', () => {
    const report = trafficReport([{ ...notExercised, status: 'fail' } as CheckResult], meta(1), catalogue);
    expect(trafficSummaryLine(report.summary, 'r.html')).toBe('1 results: 1 failed, 0 warnings, 0 passed, 0 not exercised · r.html\n');
  });
});
