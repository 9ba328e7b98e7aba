// Write every report file of a run.

import type { Catalogue } from '../catalogue/types.ts';
import { writeJsonReport } from './json.ts';
import { writeJunit } from './junit.ts';
import { writeMarkdown } from './markdown.ts';
import type { Report, ReportPaths } from './types.ts';
import { writeHtml } from './html/write.ts';

export type { ReportPaths } from './types.ts';

/**
 * Rendered one after the other: each report of a big run is a string of megabytes (and its UTF-8 copy on the way
 * to the disk). Rendered at once, all of them were alive together, the run's peak memory; in turn, each is let go
 * first. Their waits on the disk (fsync, rename) go on together.
 */
export async function writeReports(dir: string, report: Report, catalogue: Catalogue): Promise<ReportPaths> {
  const written = await Promise.allSettled([
    writeJsonReport(dir, report),
    writeJunit(dir, report),
    writeMarkdown(dir, report, catalogue),
    writeHtml(dir, report, catalogue),
  ]);
  const failed = written.find((w) => w.status === 'rejected');
  if (failed) throw failed.reason;
  const [json, junit, markdown, html] = written.map((w) => (w as PromiseFulfilledResult<string>).value) as [string, string, string, string];
  return { json, junit, markdown, html };
}

export { buildReport, summarize, type ReportMeta } from './build.ts';
export { computeCoverage } from './coverage.ts';
export { ConsoleReporter } from './console.ts';
export { renderFailure } from './render-failure.ts';
export { renderJson, writeJsonReport } from './json.ts';
export { renderJunit, writeJunit } from './junit.ts';
export { renderMarkdown, writeMarkdown } from './markdown.ts';
