// One turn of the event loop. undici writes a request on a reused keep-alive socket one setImmediate after it is
// given it (its check that the target has not closed the socket meanwhile, GHSA-35p6-xmwp-9g52): code that
// sends a request and then computes must let this turn pass first, or the request waits for the computation.
// An immediate queued after undici's runs after it, so the request is on the wire when this resolves.

export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
