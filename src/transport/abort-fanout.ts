// One listener on a caller's signal for the requests in flight it may abort. A run's signal (Ctrl-C) reaches every
// request of the run: a listener added and removed for each of thousands of requests cost more than the rest of a
// request's own bookkeeping (the peer workload: ~3 µs a request). With requests sent ahead (src/engine/pipeline.ts)
// the next one is in flight before the last ends, so the one listener stays while requests follow each other.
// It goes when none is left in flight: Node holds a signal with an 'abort' listener (AbortSignal.any, .timeout)
// until it aborts, so a listener left behind would keep a caller's composite signal alive for good.

interface Watch {
  callbacks: Set<() => void>;
  listener: () => void;
}

const watched = new WeakMap<AbortSignal, Watch>();

/** Calls `abort` when `signal` aborts (at once if it has); returns what stops that. */
export function whenAborted(signal: AbortSignal, abort: () => void): () => void {
  if (signal.aborted) {
    abort();
    return () => {};
  }
  let watch = watched.get(signal);
  if (watch === undefined) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      watched.delete(signal);
      for (const f of [...callbacks]) f();
      callbacks.clear();
    };
    watch = { callbacks, listener };
    watched.set(signal, watch);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = watch;
  callbacks.add(abort);
  return () => {
    callbacks.delete(abort);
    if (callbacks.size > 0 || watched.get(signal)?.callbacks !== callbacks) return;
    watched.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}
