// A suite written in code (fuzzing, the plugin checker), run with the same shell as a YAML suite.

import { unjudged } from './problems.ts';
import { emptyCounts, type CheckResult, type ResultStatus, type SuiteOutcome } from './types.ts';
import type { ProgrammaticSuite } from './programmatic.ts';
import { type WatchedOptions } from './options.ts';
import { outcome } from './run-suite.ts';

export async function runProgrammatic(suite: ProgrammaticSuite, opts: WatchedOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
  const started = Date.now();
  const emit = opts.listener ?? (() => {});
  emit({ type: 'suite-start', suite: suite.name, area: suite.area, cases: 0 });
  const suiteResults: CheckResult[] = [];
  const emitCase = (caseId: string, rs: CheckResult[]): void => {
    // Once a run problem stopped the suite, nothing it goes on to report is a verdict.
    const problem = opts.watch?.stoppedBy(suite.name);
    const judged = problem ? unjudged(rs, problem, undefined) : rs;
    suiteResults.push(...judged);
    emit({ type: 'case-end', suite: suite.name, case: caseId, results: judged });
  };
  if (!opts.profile.areas.has(suite.area)) {
    // Recorded too (an empty cassette), as a YAML suite of an unclaimed area is: its replay reports the same skip.
    await opts.transport.beginSuite?.(suite.name);
    emitCase('area', [{ suite: suite.name, case: 'area', caseTitle: suite.name, check: 'case', requirements: [], severity: 'must', status: 'skip', message: `area "${suite.area}" is not claimed by the target` }]);
    await opts.transport.endSuite?.(suite.name, { seed: opts.seed, ...opts.suiteMeta, complete: !opts.signal?.aborted });
  } else {
    await opts.transport.beginSuite?.(suite.name);
    let complete = false;
    try {
      await suite.run({
        transport: opts.transport, profile: opts.profile, registry: opts.registry, schemas: opts.schemas, seed: opts.seed, emitCase,
        ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.filter ? { filter: opts.filter } : {}),
      });
      complete = !opts.signal?.aborted && !opts.watch?.stoppedBy(suite.name);
    } catch (e) {
      emitCase('harness', [{ suite: suite.name, case: 'harness', caseTitle: suite.name, check: 'harness', requirements: [], severity: 'must', status: 'error', message: `the ${suite.name} suite broke: ${e instanceof Error ? e.stack ?? e.message : String(e)}` }]);
    } finally {
      await opts.transport.endSuite?.(suite.name, { seed: opts.seed, ...opts.suiteMeta, complete });
    }
  }
  // Results are final when emitted: a problem met in the middle of the suite unjudges what comes after it (emitCase),
  // as in a YAML suite, never what was reported before, when the target still answered.
  const problem = opts.watch?.stoppedBy(suite.name);
  sink.push(...suiteResults);
  const counts: Record<ResultStatus, number> = emptyCounts();
  for (const r of suiteResults) counts[r.status]++;
  // As for a YAML suite: the console says STOP, not PASS, and report.json's outcome says what stopped it.
  return { suite: suite.name, area: suite.area, file: `(built-in: ${suite.name})`, durationMs: Date.now() - started, counts, ...(problem ? { stopped: problem.message } : {}) };
}
