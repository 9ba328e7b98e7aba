import { join } from 'node:path';
import type { Catalogue } from '../../catalogue/types.ts';
import { writeFileAtomic } from '../../util/atomic-write.ts';
import type { Report } from '../types.ts';
import { renderHtml } from './render.ts';

export async function writeHtml(dir: string, report: Report, catalogue: Catalogue): Promise<string> {
  const path = join(dir, 'report.html');
  await writeFileAtomic(path, renderHtml(report, catalogue));
  return path;
}
