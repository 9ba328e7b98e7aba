// How a command that serves (the reference server, recordings, the proxy) waits: until interrupted, or until the
// process that started it is gone. `npx conformance serve &` then `kill $!` kills npm, not the server: left alone,
// the server kept its port as an orphan. When its parent goes, the server stops as if interrupted.

import type { Io } from './io.ts';

const PARENT_CHECK_MS = 500;

export function untilStopped(io: Io): Promise<'interrupted' | 'orphaned'> {
  return new Promise((resolve) => {
    if (io.interrupt?.aborted) return resolve('interrupted');
    let watch: NodeJS.Timeout | undefined;
    io.interrupt?.addEventListener('abort', () => { clearInterval(watch); resolve('interrupted'); }, { once: true });
    if (!io.ownsProcess) return;
    const parent = process.ppid;
    watch = setInterval(() => {
      if (process.ppid !== parent) {
        clearInterval(watch);
        resolve('orphaned');
      }
    }, PARENT_CHECK_MS);
    watch.unref();
  });
}
