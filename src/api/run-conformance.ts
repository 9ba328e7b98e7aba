// The library form of `conformance run`: the same run, driven by options instead of argv, returning the report
// object. The options become the run's flags (the table in options.ts) and go to run/execute.ts, as the CLI's parsed argv
// does: one validation, the same messages and exit codes, and the library never calls the CLI.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CREDENTIAL_SOURCES } from '../run/credentials.ts';
import { executeRun } from '../run/execute.ts';
import { EXIT } from '../run/exit-codes.ts';
import { failureOf } from '../run/failure.ts';
import type { RunFlags } from '../run/plan.ts';
import { KINDS, optionProblem, runRequest } from './options.ts';
import type { RunConformanceOptions, RunConformanceResult } from './types.ts';

export type { RunConformanceOptions, RunConformanceResult } from './types.ts';

export async function runConformance(options: RunConformanceOptions = {}): Promise<RunConformanceResult> {
  let errors = '';
  // Not options.output itself when it is no writer: that is the usage error to report.
  const output = KINDS.writer.is(options.output) ? options.output : undefined;
  const err = { write: (s: string) => { errors += s; return output?.write(s) ?? true; } };
  // Checked before anything runs, and answered as main() answers a bad flag: one line, exit 2, no report.
  const problem = optionProblem(options);
  if (problem) {
    err.write(`conformance run: ${problem}\n`);
    return { exitCode: EXIT.usage, report: undefined, errors, problems: [] };
  }
  const reportDir = options.reportDir ?? mkdtempSync(join(tmpdir(), 'conformance-report-'));
  const request = runRequest({ ...options, reportDir });
  try {
    const outcome = await executeRun(request, {
      out: output ?? { write: () => true },
      err,
      env: libraryEnv(),
      isTTY: false,
      ...(options.signal ? { interrupt: options.signal } : {}),
    });
    return { exitCode: outcome.exitCode, report: outcome.report, errors, problems: [...outcome.problems] };
  } catch (e) {
    // Answered as the CLI answers: a usage error or a bad suite file in one message (exit 2), a crash in one line.
    const failure = failureOf('run', e, { secrets: secretsOf(request.flags), debug: options.debug ?? false });
    err.write(failure.text);
    return { exitCode: failure.exitCode, report: undefined, errors, problems: [] };
  } finally {
    if (options.reportDir === undefined) rmSync(reportDir, { recursive: true, force: true });
  }
}

/** The run's keys and organizations, from its options or the environment: never in an error's text. */
function secretsOf(flags: RunFlags): string[] {
  const given = CREDENTIAL_SOURCES.map((s) => (flags as Record<string, unknown>)[s.flag] ?? process.env[s.env]);
  return given.filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * The environment a library run sees: the process's (keys in CONFORMANCE_* variables included), as under CI,
 * but without GITHUB_STEP_SUMMARY: the CLI appends the run's summary to the job's page; a library run, perhaps
 * one of many in a test file, writes only where it is asked to (reportDir).
 */
function libraryEnv(): NodeJS.ProcessEnv {
  const { GITHUB_STEP_SUMMARY: _summary, ...env } = process.env;
  return { ...env, CI: 'true' };
}
