// report.json: the results themselves, pretty-printed (schemas/report.schema.json).

import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import type { Report } from './types.ts';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export async function writeJsonReport(dir: string, report: Report): Promise<string> {
  const path = join(dir, 'report.json');
  await writeFileAtomic(path, renderJson(report));
  return path;
}
