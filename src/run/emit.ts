// The last stage of any command that runs suites (`run`, `plugin`): build the report, let the reporters emit it,
// say each problem of the run in one line, and give the exit code.

import type { Catalogue } from '../catalogue/types.ts';
import type { RunProblem, RunResult } from '../engine/types.ts';
import { buildReport, type Reporting, type ReportMeta } from '../report/index.ts';
import type { Report } from '../report/types.ts';
import type { Redactor } from '../util/redact.ts';
import { EXIT } from './exit-codes.ts';
import type { Io } from './io.ts';

export interface RunOutcome {
  exitCode: number;
  /** The redacted report, when the run got as far as one. */
  report?: Report;
  problems: readonly RunProblem[];
}

/** What the problem lines call the thing judged, and how they point at it. */
const SUBJECTS = {
  target: { noun: 'target', hint: (hint: string) => hint, bySuite: true },
  // One suite, named by its URL: no suite to name, and the hint's flag is the command's argument.
  plugin: { noun: 'plugin', hint: (hint: string) => hint.replace('--base-url', 'the plugin URL'), bySuite: false },
} as const;

export type Subject = keyof typeof SUBJECTS;

export interface Emission {
  meta: ReportMeta;
  catalogue: Catalogue;
  reporting: Reporting;
  redactor: Redactor;
  subject: Subject;
  /** What the report carries beyond the run's results (a shard, the retries). */
  extend?: (report: Report) => void;
}

export async function emitReports(run: RunResult, how: Emission, io: Io): Promise<RunOutcome> {
  const report = buildReport(run, how.meta, how.catalogue);
  how.extend?.(report);
  const { report: redacted } = await how.reporting.end(report);
  io.onReport?.(redacted);
  for (const problem of run.problems) io.err.write(problemLine(problem, how));
  return { exitCode: exitCodeOf(run, redacted, io), report: redacted, problems: run.problems };
}

function exitCodeOf(run: RunResult, report: Report, io: Io): number {
  if (run.interrupted) return io.interrupt?.reason === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
  if (run.problems.length > 0) return EXIT.runtime;
  return report.verdict === 'pass' ? EXIT.ok : EXIT.failed;
}

/** A problem found before anything was judged: said once, exit 3, no report. */
export function refused(problem: RunProblem, how: Pick<Emission, 'redactor' | 'subject'>, io: Io): RunOutcome {
  io.err.write(problemLine(problem, how));
  return { exitCode: EXIT.runtime, problems: [problem] };
}

/** One line for a problem of the run: what happened, and what to do. Keys the target echoed are redacted. */
function problemLine(problem: RunProblem, how: Pick<Emission, 'redactor' | 'subject'>): string {
  const subject = SUBJECTS[how.subject];
  const suite = subject.bySuite ? problem.suite : undefined;
  const where = suite ? ` (suite ${suite})` : '';
  return how.redactor.text(`error: ${problem.message}${where}${problem.hint ? `\n  hint: ${subject.hint(problem.hint)}` : ''}\n  nothing was judged${suite ? ' after this point in that suite' : ''}: this is not a verdict on the ${subject.noun} (exit 3)\n`);
}
