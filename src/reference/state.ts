// In-memory state of one reference server instance.
import type { FineTuneJob, FineTunedModel, StoredFile } from './entities.ts';



export interface Todo {
  id: number;
  title: string;
  status: 'open' | 'done';
}

export interface AppState {
  files: Map<string, StoredFile>;
  jobs: Map<string, FineTuneJob>;
  fineTunedModels: Map<string, FineTunedModel>;
  todos: Todo[];
}

export function createState(): AppState {
  return {
    files: new Map(),
    jobs: new Map(),
    fineTunedModels: new Map(),
    todos: [
      { id: 1, title: 'Write the conformance suite', status: 'open' },
      { id: 2, title: 'Run it against the reference server', status: 'done' },
    ],
  };
}

/** setTimeout handles owned by the server, so close() can clear every pending lifecycle step. */
export class Timers {
  private readonly handles = new Set<NodeJS.Timeout>();

  after(ms: number, fn: () => void): NodeJS.Timeout {
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      fn();
    }, ms);
    this.handles.add(handle);
    return handle;
  }

  cancel(handle: NodeJS.Timeout): void {
    clearTimeout(handle);
    this.handles.delete(handle);
  }

  clearAll(): void {
    for (const h of this.handles) clearTimeout(h);
    this.handles.clear();
  }
}
