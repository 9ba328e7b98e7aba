// A mistake in how the command was called (a flag, a path): one line and exit 2. Its own module, so that
// every command (and main, before it knows which command runs) can name it without loading the harness.
export class UsageError extends Error {}
