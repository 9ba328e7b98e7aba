import { join } from 'node:path';
import type { Catalogue } from '../../catalogue/types.ts';
import { writeFileAtomicFromParts } from '../../util/atomic-write.ts';
import type { Report } from '../types.ts';
import { renderHtmlParts } from './render.ts';

export async function writeHtml(dir: string, report: Report, catalogue: Catalogue): Promise<string> {
  const path = join(dir, 'report.html');
  await writeFileAtomicFromParts(path, renderHtmlParts(report, catalogue));
  return path;
}
