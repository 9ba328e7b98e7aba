// `conformance checks`: what the harness knows how to check, and which requirements each check cites.

import { defaultRegistry } from '../checks/index.ts';
import type { Io } from './run-command.ts';

export async function checksCommand(_argv: string[], io: Io): Promise<number> {
  for (const c of defaultRegistry().all().sort((a, b) => a.name.localeCompare(b.name))) {
    io.out.write(`${c.name.padEnd(36)} ${c.severity.padEnd(6)} ${c.kind.padEnd(8)} ${c.requirements.join(', ')}\n    ${c.summary}\n`);
  }
  return 0;
}
