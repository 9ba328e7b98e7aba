// What a command reads and writes: the process's streams and environment, or a library caller's stand-ins.

import type { Report } from '../report/types.ts';

export interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  /** Process-level interrupt (SIGINT); the run stops starting cases, cleans up, and reports. */
  interrupt?: AbortSignal;
  /** Receives the (redacted) report once written: how the library API returns it. */
  onReport?: (report: Report) => void;
  /** The `conformance` process itself (not a library caller): it may size V8's young generation for the run, and keep parsed suite files between runs. */
  ownsProcess?: boolean;
}
