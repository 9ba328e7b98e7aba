// Resources a run creates on the target, so it can delete them — and only them — afterwards.

import type { Exchange } from '../transport/types.ts';
import { isRecord } from '../util/json-type.ts';

import { createdBy, type ResourceKind } from './resources.ts';

export type { ResourceKind } from './resources.ts';

export interface Resource {
  kind: ResourceKind;
  id: string;
  /** The organization header it was created under (undefined = the key's default). */
  organization: 'default' | 'other';
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

export class ResourceLedger {
  private readonly live = new Map<string, Resource & { terminal?: boolean }>();

  /** Learn from a response: creations add resources, deletions remove them, job states update. */
  observe(request: { method: string; path: string; organization: 'default' | 'other' }, exchange: Exchange): void {
    const { method, path, organization } = request;
    const status = exchange.response?.status ?? 0;
    const body = exchange.response?.json;
    if (status < 200 || status >= 300 || !isRecord(body)) return;
    const cleanPath = path.split('?')[0]!;
    const created = createdBy(method, cleanPath);
    if (created && typeof body.id === 'string') this.add({ kind: created, id: body.id, organization });
    if (method === 'DELETE' && body.deleted === true && typeof body.id === 'string') {
      this.live.delete(key('file', body.id));
      this.live.delete(key('model', body.id));
    }
    for (const job of jobsIn(body)) this.observeJob(job);
  }

  private observeJob(job: Record<string, unknown>): void {
    const known = typeof job.id === 'string' ? this.live.get(key('fine-tune', job.id)) : undefined;
    if (!known) return; // never adopt a job this run did not create
    if (typeof job.status === 'string') known.terminal = TERMINAL.has(job.status);
    if (typeof job.fine_tuned_model === 'string') this.add({ kind: 'model', id: job.fine_tuned_model, organization: known.organization });
    if (Array.isArray(job.result_files)) {
      for (const f of job.result_files) if (isRecord(f) && typeof f.id === 'string') this.add({ kind: 'file', id: f.id, organization: known.organization });
    }
  }

  private add(r: Resource): void {
    if (!this.live.has(key(r.kind, r.id))) this.live.set(key(r.kind, r.id), { ...r });
  }

  /** What to undo, in a safe order: stop jobs first (so no new model appears), then models, then files. */
  pending(): Array<Resource & { action: 'cancel' | 'delete' }> {
    const all = [...this.live.values()];
    return [
      ...all.filter((r) => r.kind === 'fine-tune' && !r.terminal).map((r) => ({ ...r, action: 'cancel' as const })),
      ...all.filter((r) => r.kind === 'model').map((r) => ({ ...r, action: 'delete' as const })),
      ...all.filter((r) => r.kind === 'file').map((r) => ({ ...r, action: 'delete' as const })),
    ];
  }

  forget(r: Resource): void {
    this.live.delete(key(r.kind, r.id));
  }
}

function key(kind: ResourceKind, id: string): string {
  return `${kind}:${id}`;
}

function jobsIn(body: Record<string, unknown>): Array<Record<string, unknown>> {
  if (body.object === 'fine-tune') return [body];
  if (body.object === 'list' && Array.isArray(body.data)) return body.data.filter((j): j is Record<string, unknown> => isRecord(j) && j.object === 'fine-tune');
  return [];
}
