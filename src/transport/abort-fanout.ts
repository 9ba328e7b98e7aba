// One listener on a caller's signal, however many requests it may abort. A run's signal (Ctrl-C) reaches every
// request of the run: a listener added and removed for each of thousands of requests cost more than the rest of a
// request's own bookkeeping (the peer workload: ~3 µs a request).

const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `abort` when `signal` aborts (at once if it has); returns what stops that. */
export function whenAborted(signal: AbortSignal, abort: () => void): () => void {
  if (signal.aborted) {
    abort();
    return () => {};
  }
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const registered = new Set<() => void>();
    callbacks = registered;
    waiting.set(signal, registered);
    signal.addEventListener('abort', () => {
      waiting.delete(signal);
      for (const f of [...registered]) f();
      registered.clear();
    }, { once: true });
  }
  const set = callbacks;
  set.add(abort);
  return () => { set.delete(abort); };
}
