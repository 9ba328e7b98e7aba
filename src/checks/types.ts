// A check is a small named function that IS a rule of the spec. It never does I/O.

import type { Exchange, SseEvent, StreamEnd } from '../transport/types.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { SchemaRegistry } from '../schema/registry.ts';

export type Severity = 'must' | 'should';

/** One way a response broke a rule. */
export interface Finding {
  /** RFC 6901 pointer into the response body (or `#events/<i>/pointer` for stream events). */
  pointer: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** The request as the case planned it (templates resolved), for checks that compare response to request. */
export interface PlannedRequestView {
  method: string;
  path: string;
  query: Record<string, unknown>;
  json?: unknown;
  multipartFields?: Record<string, string>;
  stream: boolean;
}

export interface CheckContext {
  request: PlannedRequestView;
  profile: TargetProfile;
  vars: Readonly<Record<string, unknown>>;
  schemas: SchemaRegistry;
  params: Readonly<Record<string, unknown>>;
  /** Earlier exchanges of the same suite, by case id — kept for the cases some check names in its `with:` parameters. */
  history: ReadonlyMap<string, Exchange>;
}

interface CheckBase {
  name: string;
  requirements: readonly string[];
  severity: Severity;
  /** One line: the rule, in the spec's words. */
  summary: string;
  /** Return a reason to skip when the check does not apply to this exchange. */
  skipWhen?: (exchange: Exchange, ctx: CheckContext) => string | undefined;
}

export interface ResponseCheck extends CheckBase {
  kind: 'response';
  run(exchange: Exchange, ctx: CheckContext): Finding[];
}

/** Stream checks fold over events as they arrive, so a long stream is checked in constant memory. */
export interface StreamCheck<State = unknown> extends CheckBase {
  kind: 'stream';
  start(ctx: CheckContext): State;
  event(state: State, event: SseEvent, index: number, ctx: CheckContext): Finding[] | void;
  end(state: State, end: StreamEnd, exchange: Exchange, ctx: CheckContext): Finding[];
}

export type Check = ResponseCheck | StreamCheck<any>;
