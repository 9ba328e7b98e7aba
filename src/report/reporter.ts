// The one shape of a reporter: a file written from the finished report, or output printed while the run goes and
// at its end. The table of them and the dispatcher that redacts once are in reporting.ts.

import type { RunEvent } from '../engine/types.ts';
import type { Report, ReportPaths } from './types.ts';

/** Writes one report file from the finished report, and returns its path. */
export interface FileReporter {
  readonly kind: 'file';
  readonly name: keyof ReportPaths;
  write(report: Report): Promise<string>;
}

/** Prints: while the run goes (its events), and once at its end, when the files are written (it may name them). */
export interface OutputReporter {
  readonly kind: 'output';
  readonly name: string;
  /** Whether it reads a case's results from `case-end` (the console with --verbose): else they are not redacted for it. */
  readonly readsCaseResults?: boolean;
  onEvent?(event: RunEvent): void;
  end(report: Report, files: ReportPaths): void;
}

export type Reporter = FileReporter | OutputReporter;
