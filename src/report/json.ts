// report.json: the results themselves, pretty-printed (schemas/report.schema.json).

import { join } from 'node:path';
import { writeFileAtomicFromParts } from '../util/atomic-write.ts';
import type { Report } from './types.ts';

/** Results stringified at once: a few hundred KB of text at a time, however many results a run has. */
const RESULTS_PER_PART = 256;

export function renderJson(report: Report): string {
  return [...renderJsonParts(report)].join('');
}

/**
 * The same text as JSON.stringify(report, null, 2), in parts: the report without its results, then the results
 * a batch at a time, indented to their place in the array. A run of thousands of results never holds the whole
 * text at once.
 */
export function* renderJsonParts(report: Report): Generator<string> {
  // The results' place (buildReport's key order) is held by a marker no report can contain.
  const marker = '\u0000results\u0000';
  const frame = JSON.stringify({ ...report, results: marker }, null, 2);
  const [head, tail] = frame.split(JSON.stringify(marker)) as [string, string];
  yield head;
  const { results } = report;
  if (results.length === 0) yield '[]';
  else {
    yield '[\n';
    // The results in batches, each stringified one level deeper than the report's array: an element at depth 2
    // is indented by the 4 spaces it has in the whole text (the nesting, not a rewrite of every line, indents it).
    for (let at = 0; at < results.length; at += RESULTS_PER_PART) {
      const nested = JSON.stringify([results.slice(at, at + RESULTS_PER_PART)], null, 2);
      // "[\n  [\n" … "\n  ]\n]": what lies between is the batch's elements, joined by ",\n" as in the whole text.
      yield `${at > 0 ? ',\n' : ''}${nested.slice(6, -6)}`;
    }
    yield '\n  ]';
  }
  yield `${tail}\n`;
}

export async function writeJsonReport(dir: string, report: Report): Promise<string> {
  const path = join(dir, 'report.json');
  await writeFileAtomicFromParts(path, renderJsonParts(report));
  return path;
}
