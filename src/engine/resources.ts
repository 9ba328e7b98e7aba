// The resources a run creates on the target, and how each is made, read and undone: the one table of their paths,
// shared by the suites' cleanup, the ledger and fuzzing. The engine spells no other API path.

export type ResourceKind = 'file' | 'fine-tune' | 'model';

type Call = { method: 'GET' | 'POST' | 'DELETE'; path: string };

interface ResourceEndpoints {
  /** The request that lists them. */
  list?: Call;
  /** The request that creates one (none: a model is made by a job). */
  create?: Call;
  /** The request that reads one again. */
  read?: (id: string) => Call;
  /** The request that undoes one: a file or a model is deleted, a job cancelled. */
  undo: (id: string) => Call;
}

const at = (id: string) => encodeURIComponent(id);

/** The request every target answers whatever areas it claims: the model list (the preflight, the liveness probe). */
export const PROBE: Call = { method: 'GET', path: '/v1/models' };

export const RESOURCES: Readonly<Record<ResourceKind, ResourceEndpoints>> = {
  file: { create: { method: 'POST', path: '/v1/files' }, undo: (id) => ({ method: 'DELETE', path: `/v1/files/${at(id)}` }) },
  'fine-tune': {
    create: { method: 'POST', path: '/v1/fine-tunes' },
    read: (id) => ({ method: 'GET', path: `/v1/fine-tunes/${at(id)}` }),
    undo: (id) => ({ method: 'POST', path: `/v1/fine-tunes/${at(id)}/cancel` }),
  },
  model: { list: PROBE, undo: (id) => ({ method: 'DELETE', path: `/v1/models/${at(id)}` }) },
};

/** The kind of resource a request creates, if it is one of the table's creations. */
export function createdBy(method: string, path: string): ResourceKind | undefined {
  const kinds = Object.keys(RESOURCES) as ResourceKind[];
  return kinds.find((k) => RESOURCES[k].create?.method === method && RESOURCES[k].create?.path === path);
}
