// What a suite created is deleted when it ends, and only that (the ledger knows what it created).

import type { Exchange } from '../transport/types.ts';
import { buildRequest } from './request.ts';
import { ResourceLedger } from './ledger.ts';
import { RESOURCES } from './resources.ts';
import { type EngineOptions } from './options.ts';
import { isSuccess } from '../util/status.ts';

export async function cleanUp(suite: string, ledger: ResourceLedger, opts: EngineOptions): Promise<void> {
  const emit = opts.listener ?? (() => {});
  const send = async (call: { method: 'GET' | 'POST' | 'DELETE'; path: string }, organization: 'default' | 'other'): Promise<Exchange> => {
    const { outgoing } = buildRequest({ ...call, organization }, opts.profile, `${suite}/cleanup`);
    // Cleanup runs even after an interrupt, so it gets its own bounded time instead of the run's signal.
    return opts.transport.send(outgoing, { timeoutMs: opts.profile.timeouts.requestMs });
  };
  // Cancelling a job can reveal what it produced (a job that finished since it was last seen has a
  // model and result files the ledger has never seen), so repeat until nothing new turns up.
  const tried = new Set<string>();
  for (let round = 0; round < 5; round++) {
    const todo = ledger.pending().filter((r) => !tried.has(`${r.action}:${r.kind}:${r.id}`));
    if (todo.length === 0) break;
    for (const r of todo) {
      tried.add(`${r.action}:${r.kind}:${r.id}`);
      const undo = RESOURCES[r.kind].undo(r.id);
      const read = RESOURCES[r.kind].read?.(r.id);
      let ex: Exchange;
      try {
        ex = await send(undo, r.organization);
        if (r.action === 'cancel' && read) {
          // The cancel answers the job (or is refused because the job already finished): look at the job
          // once more, so a model or result file it made in the meantime is deleted too.
          ledger.observe({ ...undo, organization: r.organization }, ex);
          const job = await send(read, r.organization);
          ledger.observe({ ...read, organization: r.organization }, job);
        }
      } catch (e) {
        emit({ type: 'cleanup', suite, ok: false, message: `cannot ${r.action} ${r.kind} ${r.id}: ${(e as Error).message}` });
        ledger.forget(r);
        continue;
      }
      const status = ex.response?.status;
      const ok = status !== undefined && ((isSuccess(status)) || status === 404 || (r.action === 'cancel' && status === 400));
      ledger.forget(r);
      emit({ type: 'cleanup', suite, ok, message: `${r.action} ${r.kind} ${r.id}: ${status ?? ex.error?.message ?? 'no response'}` });
    }
  }
}
