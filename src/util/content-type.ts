// What a Content-Type says the body is. Written once: the stream checks, the judge and the transports ask it.

/** Whether a Content-Type (with or without parameters, any case) declares a server-sent event stream. */
export function isEventStreamType(contentType: string | undefined): boolean {
  return /^text\/event-stream\b/i.test(contentType ?? '');
}
