// The table of reporters, and the dispatcher in front of them: the one place where a run's events and its report
// are redacted before any reporter sees them. A redaction call at each exit was one forgotten call from a leaked key.

import type { Catalogue } from '../catalogue/types.ts';
import type { RunListener } from '../engine/types.ts';
import type { Redactor } from '../util/redact.ts';
import { ConsoleReporter, type ConsoleOptions } from './console.ts';
import { reportToGithub } from './github.ts';
import { GroupedConsoleReporter } from './grouped-console.ts';
import { writeHtml } from './html/write.ts';
import { writeJsonReport } from './json.ts';
import { writeJunit } from './junit.ts';
import { writeMarkdown } from './markdown.ts';
import type { FileReporter, OutputReporter } from './reporter.ts';
import type { Report, ReportPaths } from './types.ts';

/** What a reporter may need: where the files go, the catalogue they cite, and the process's output. */
export interface ReporterContext {
  dir: string;
  catalogue: Catalogue;
  out: { write(s: string): unknown };
  env: NodeJS.ProcessEnv;
  /** The console's settings (colour, --verbose, progress); colour alone for the grouped console. Plain when absent. */
  console?: ConsoleOptions;
}

const FILE_REPORTERS: { readonly [N in keyof ReportPaths]: (c: ReporterContext) => FileReporter } = {
  json: (c) => ({ kind: 'file', name: 'json', write: (r) => writeJsonReport(c.dir, r) }),
  junit: (c) => ({ kind: 'file', name: 'junit', write: (r) => writeJunit(c.dir, r) }),
  markdown: (c) => ({ kind: 'file', name: 'markdown', write: (r) => writeMarkdown(c.dir, r, c.catalogue) }),
  html: (c) => ({ kind: 'file', name: 'html', write: (r) => writeHtml(c.dir, r, c.catalogue) }),
};

const OUTPUT_REPORTERS = {
  console: (c: ReporterContext): OutputReporter => new ConsoleReporter(c.out, c.console ?? { color: false }),
  'console-grouped': (c: ReporterContext): OutputReporter => new GroupedConsoleReporter(c.out, c.console?.color ?? false),
  // Under GitHub Actions: the step summary, and annotations in the log.
  github: (c: ReporterContext): OutputReporter => ({
    kind: 'output', name: 'github',
    end: (report) => { for (const line of reportToGithub(report, c.env)) c.out.write(`${line}\n`); },
  }),
} as const;

export type OutputName = keyof typeof OUTPUT_REPORTERS;

/** Every reporter by name: the four files every command writes, and what may print. */
export const REPORTERS = { ...FILE_REPORTERS, ...OUTPUT_REPORTERS } as const;

export interface Emitted {
  /** The redacted report, as every reporter saw it. */
  report: Report;
  files: ReportPaths;
}

/**
 * The four report files, and the outputs given (by name, or a caller's own), in that order; every result they
 * see redacted once, here.
 */
export class Reporting {
  readonly #files: readonly FileReporter[];
  readonly #outputs: readonly OutputReporter[];
  readonly #listening: readonly OutputReporter[];
  readonly #redactor: Redactor;
  readonly #caseResults: boolean;

  constructor(context: ReporterContext, outputs: ReadonlyArray<OutputName | OutputReporter>, redactor: Redactor) {
    this.#files = Object.values(FILE_REPORTERS).map((make) => make(context));
    this.#outputs = outputs.map((o) => (typeof o === 'string' ? OUTPUT_REPORTERS[o](context) : o));
    this.#listening = this.#outputs.filter((r) => r.onEvent);
    this.#redactor = redactor;
    this.#caseResults = this.#listening.some((r) => r.readsCaseResults);
  }

  /**
   * The engine's listener. A case's results are copied through the redactor only when a reporter reads them (the
   * progress line only counts them), and an event that holds no secret is passed on as it is (Redactor.shared:
   * reporters only read it).
   */
  readonly listener: RunListener = (event) => {
    if (this.#listening.length === 0) return;
    const shown = this.#redactor.shared(event.type === 'case-end' && !this.#caseResults ? { ...event, results: [] } : event);
    for (const r of this.#listening) r.onEvent!(shown);
  };

  /**
   * Writes the files, then lets each output end, in the order named. The files are rendered one after the other:
   * each report of a big run is a string of megabytes, and rendered at once all of them were alive together, the
   * run's peak memory. Their waits on the disk (fsync, rename) go on together.
   */
  async end(report: Report): Promise<Emitted> {
    const redacted = this.#redactor.shared(report);
    const written = await Promise.allSettled(this.#files.map((r) => r.write(redacted)));
    const failed = written.find((w) => w.status === 'rejected');
    if (failed) throw failed.reason;
    const files = Object.fromEntries(this.#files.map((r, i) => [r.name, (written[i] as PromiseFulfilledResult<string>).value])) as unknown as ReportPaths;
    for (const r of this.#outputs) r.end(redacted, files);
    return { report: redacted, files };
  }
}
