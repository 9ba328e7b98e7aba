// A report.json given to `merge` or `compare`: read, and checked against schemas/report.schema.json, so a
// truncated artifact, another tool's file or another format version is bad input (exit 2, one line), never a
// crash of the harness halfway through.

import { readFileSync } from 'node:fs';
import type { Report } from '../report/types.ts';
import { ownValidator } from '../schema/own-validators.ts';
import { UsageError } from './usage-error.ts';

export function readReport(path: string): Report {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  const validate = ownValidator('report');
  if (validate(value)) return value as Report;
  const e = validate.errors?.[0];
  throw new UsageError(`${path} is not a report.json of this tool (schemas/report.schema.json): ${e ? `${e.instancePath || 'the report'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
}
