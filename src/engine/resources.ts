// The resources a run creates on the target, and how each is made, read and undone: the one table of their paths,
// shared by the suites' cleanup, the ledger and fuzzing. The engine spells no other API path.

import { endpointKey } from './endpoint-key.ts';

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

/** The endpoints (as endpointKey writes them) that create a resource or undo one. */
const CHANGING: ReadonlySet<string> = new Set(Object.values(RESOURCES).flatMap((r) => [r.create, r.undo('id')]).filter((c): c is Call => c !== undefined).map((c) => endpointKey(c.method, c.path)));

/**
 * Whether a request sent a second time gets the answer the first would have had: not one that creates a resource
 * (a second would be left behind, unknown to the ledger) nor one that undoes one (a second is answered "already
 * gone" or "already cancelled"). `path`: the request's path as the suites write it, below the base URL (a base
 * URL's own path may hold a `v1` segment of its own).
 */
export function answersTheSameTwice(method: string, path: string): boolean {
  return !CHANGING.has(endpointKey(method, path));
}
