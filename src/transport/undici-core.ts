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
  const parsed = undiciUtil.parseURL(url);
  const { dispatcher, ...rest } = options;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: rest.method || (rest.body ? 'PUT' : 'GET'),
  });
}
