// The part of undici the harness uses: one Agent, and its request API (the proxy's relay, useCassettes' pass-through;
// the live transport dispatches with a handler of its own, answer-handler.ts). undici's index loads everything the
// package offers (fetch and its web streams, WebSocket, caches with SQLite, mocks, proxies, interceptors):
// 120–180 ms of every start, measured on the project's Node 24, against 50–80 ms for the two modules below and
// what they require. The request function is the one undici's index exports, minus the global dispatcher: every
// request here names its Agent.
// These are paths inside undici, not its public entry: an upgrade that moves them fails this module's import at
// once (every live transport test), never silently.

import type { Agent as AgentType, Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';
import undiciUtil from 'undici/lib/core/util.js';

export const Agent: typeof AgentType = AgentClass;
export type Agent = AgentType;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: AgentType };

/** undici's `request(url, options)`, as its index builds it (makeDispatcher), for a URL string. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  return apiRequest.call(dispatcher, { ...rest, ...originAndPath(url), method: rest.method || (rest.body ? 'PUT' : 'GET') });
}

/**
 * What undici's dispatch wants of a URL, as its index splits it: the origin, and the path with its query. Kept for
 * the next request to the same URL (a run sends thousands of requests to a few dozen); bounded: emptied when full.
 */
export function originAndPath(url: string): { origin: string; path: string } {
  let known = SPLIT.get(url);
  if (known === undefined) {
    const parsed = undiciUtil.parseURL(url);
    known = { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
    if (SPLIT.size >= MAX_SPLIT) SPLIT.clear();
    SPLIT.set(url, known);
  }
  return known;
}

const SPLIT = new Map<string, { origin: string; path: string }>();
const MAX_SPLIT = 1024;
