// `conformance run` on the command line: argv → the run's flags, then the run itself (run/execute.ts), which the
// library drives too. Prints the usage text; everything else is the run's.

import { parseFlags, RUN_FLAGS, RUN_HELP } from '../run/args.ts';
import { executeRun } from '../run/execute.ts';
import type { Io } from '../run/io.ts';

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, RUN_FLAGS);
  if (flags.help) { io.out.write(RUN_HELP + '\n'); return 0; }
  return (await executeRun({ flags, positionals, env: io.env }, io)).exitCode;
}
