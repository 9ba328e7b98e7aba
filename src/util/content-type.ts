// What a Content-Type says the body is. Written once: the stream checks, the judge and the transports ask it.

/** Whether a Content-Type (with or without parameters, any case) declares a server-sent event stream. */
export function isEventStreamType(contentType: string | undefined): boolean {
  return /^text\/event-stream\b/i.test(contentType ?? '');
}

/** Whether a Content-Type declares JSON (`application/json`, or a `+json` type such as `application/problem+json`). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/([\w.-]+\+)?json\b/i.test(contentType ?? '');
}
