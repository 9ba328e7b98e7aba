// The reports' public surface: build a report, and emit it through the reporters (reporting.ts).

export type { ReportPaths } from './types.ts';

export { buildReport, summarize, type ReportMeta } from './build.ts';
export { computeCoverage } from './coverage.ts';
export { ConsoleReporter } from './console.ts';
export { renderFailure } from './render-failure.ts';
export { renderJson, writeJsonReport } from './json.ts';
export { renderJunit, writeJunit } from './junit.ts';
export { renderMarkdown, writeMarkdown } from './markdown.ts';
export { REPORTERS, Reporting, type Emitted, type OutputName, type ReporterContext } from './reporting.ts';
export type { FileReporter, OutputReporter, Reporter } from './reporter.ts';
