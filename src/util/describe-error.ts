/** One line for an error a check or the harness threw: its class and message. */
export function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
