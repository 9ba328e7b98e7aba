// What a command that threw says, and with which exit code: a bad suite file or a usage error in one clear message
// (exit 2), anything else one line with a hint (exit 3), a stack trace only when asked. The CLI and the library
// answer alike. A file quoted in an error may hold one of the run's own keys: the text is redacted.

import { ProfileError } from '../profile/errors.ts';
import { UnknownFaultError } from '../reference/faults.ts';
import { UnknownReadingError } from '../reference/readings.ts';
import { SuiteError } from '../suite/errors.ts';
import { Redactor } from '../util/redact.ts';
import { EXIT } from './exit-codes.ts';
import { UsageError } from './usage-error.ts';

export function failureOf(command: string, e: unknown, how: { secrets: readonly string[]; debug: boolean }): { text: string; exitCode: number } {
  const redact = (text: string) => new Redactor({ secretHeaders: [], secretValues: [...how.secrets] }).text(text);
  if (e instanceof SuiteError) return { text: redact(e.render()) + '\n\nnothing was run: fix the files above.\n', exitCode: EXIT.usage };
  if (e instanceof UsageError || e instanceof ProfileError || e instanceof UnknownFaultError || e instanceof UnknownReadingError) return { text: redact(`conformance ${command}: ${e.message}`) + '\n', exitCode: EXIT.usage };
  return { text: redact(crashLine(command, e, how.debug)), exitCode: EXIT.runtime };
}

/** A crash is one line — what happened and what to do — and a stack trace only with --debug. */
function crashLine(command: string, e: unknown, debug: boolean): string {
  const err = e as NodeJS.ErrnoException & { hint?: unknown };
  const what = err instanceof Error ? `${err.code ? `${err.code}: ` : ''}${err.message.split('\n')[0]}` : String(e);
  const hint = typeof err?.hint === 'string' ? err.hint : err?.code === 'EADDRINUSE' ? 'the port is taken: choose another with --port'
    : err?.code === 'EACCES' || err?.code === 'EPERM' ? 'check the permissions of that path'
      : err?.code === 'ENOSPC' ? 'free some disk space'
        : 'this is a problem of the run, not a verdict on the target; run again with --debug for the stack trace, and report it if it persists';
  return `conformance ${command}: error: ${what}\n  hint: ${hint}\n${debug && err instanceof Error && err.stack ? `${err.stack}\n` : ''}`;
}
