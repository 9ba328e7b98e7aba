// The exit codes of every command: one table, read by main.ts, the README and `--help`.

export const EXIT = {
  /** No `must` check failed, nothing errored, nothing blocked the run. */
  ok: 0,
  /** A `must` check failed, or a check could not be evaluated. */
  failed: 1,
  /** Usage or configuration error, a bad suite file, or a selection that matches no case: nothing ran. */
  usage: 2,
  /** A problem of the run, not of the target: unreachable, TLS refused, key refused, cassette missing, crash. */
  runtime: 3,
  /** Interrupted by SIGINT (Ctrl-C): the request in flight finished, created resources were deleted. */
  interrupted: 130,
  /** Terminated by SIGTERM (a CI cancel): as for SIGINT. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes
  0    no must check failed
  1    a must check failed, or a check could not be evaluated
  2    usage or configuration error, a bad suite file, or a selection that matches no case
  3    runtime error: target unreachable, TLS refused, key refused, cassette missing (not a verdict)
  130  interrupted (SIGINT); 143 terminated (SIGTERM)`;
