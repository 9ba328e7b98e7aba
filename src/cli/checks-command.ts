// `conformance checks`: what the harness knows how to check, and which requirements each check cites.

import { defaultRegistry } from '../checks/index.ts';
import type { Io } from '../run/io.ts';
import type { ParamSpec } from '../checks/types.ts';

const PARAM_KIND: Record<ParamSpec['kind'], string> = {
  case: 'an earlier case id',
  cases: 'a list of earlier case ids',
  string: 'a string',
  number: 'a number',
  value: 'any value',
};

export async function checksCommand(_argv: string[], io: Io): Promise<number> {
  for (const c of defaultRegistry().all().sort((a, b) => a.name.localeCompare(b.name))) {
    io.out.write(`${c.name.padEnd(36)} ${c.severity.padEnd(6)} ${c.kind.padEnd(8)} ${c.requirements.join(', ')}\n    ${c.summary}\n`);
    // What a suite may give it in `with:` (the loader refuses anything else).
    for (const [name, p] of Object.entries(c.params ?? {})) io.out.write(`    with ${name}${p.required ? '' : ' (optional)'}: ${PARAM_KIND[p.kind]}, ${p.doc}\n`);
  }
  return 0;
}
