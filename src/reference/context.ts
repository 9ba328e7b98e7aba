// What a route handler gets: the server-wide App and the per-request context.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from './accounts.ts';
import type { FaultName } from './faults.ts';
import type { ReadingName } from './readings.ts';
import type { LIMITS } from './limits.ts';
import type { IdSource } from './random.ts';
import type { AppState, Timers } from './state.ts';

export interface ResolvedOptions {
  host: string;
  port: number;
  trainingMs: number;
  seed: number;
  quotaBytes: number;
  modelLoadMs: number;
  /** Added before every answer: a stand-in for a live service's latency (for measuring --jobs and shards). */
  latencyMs: number;
}

export interface App {
  options: ResolvedOptions;
  faults: ReadonlySet<FaultName>;
  fault(name: FaultName): boolean;
  /** Which of the spec's other reasonable readings this server serves (readings.ts). */
  reading(name: ReadingName): boolean;
  limits: typeof LIMITS;
  state: AppState;
  timers: Timers;
  /** Object ids, seeded: the same requests in the same order get the same ids. */
  ids: IdSource;
  /** Origin of this server, e.g. http://127.0.0.1:5123 (set once listening). */
  url: string;
  pluginUrl: string;
}

export interface Ctx {
  app: App;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  body: Buffer;
  /** Authenticated caller; routes marked public never read it. */
  caller: Caller;
  fault(name: FaultName): boolean;
  reading(name: ReadingName): boolean;
}

/** A handler returns a JSON body to send with 200, or undefined when it wrote the response itself. */
export type Handler = (ctx: Ctx) => unknown;
