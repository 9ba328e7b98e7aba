// report.json: the results themselves, pretty-printed (schemas/report.schema.json).

import { join } from 'node:path';
import { writeFileAtomicFromParts } from '../util/atomic-write.ts';
import type { Report } from './types.ts';

export function renderJson(report: Report): string {
  return [...renderJsonParts(report)].join('');
}

/**
 * The same text as JSON.stringify(report, null, 2), in parts: the report without its results, then each
 * result, indented to its place in the array. A run of thousands of results never holds the whole text at once.
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
    // Strings in JSON hold no raw line breaks, so indenting every line of a result's text is exact.
    for (let i = 0; i < results.length; i++) yield `    ${JSON.stringify(results[i], null, 2).replace(/\n/g, '\n    ')}${i + 1 < results.length ? ',\n' : '\n'}`;
    yield '  ]';
  }
  yield `${tail}\n`;
}

export async function writeJsonReport(dir: string, report: Report): Promise<string> {
  const path = join(dir, 'report.json');
  writeFileAtomicFromParts(path, renderJsonParts(report));
  return path;
}
