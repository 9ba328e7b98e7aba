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

/**
 * What a check returns: the ways the response broke its rule (empty: the rule held), or `notExercised` when
 * the exchange could not show the rule either way (no stop sequence was hit, the file was pure ASCII, the
 * array had one item). A pass that exercised nothing is not a pass: the engine records `not-exercised`.
 */
export type CheckVerdict = Finding[] | NotExercised;

export interface NotExercised {
  notExercised: string;
}

export function notExercised(why: string): NotExercised {
  return { notExercised: why };
}

export function isNotExercised(v: CheckVerdict): v is NotExercised {
  return !Array.isArray(v);
}

/** The findings of a verdict; none when the rule was not exercised. */
export function findingsOf(v: CheckVerdict): Finding[] {
  return isNotExercised(v) ? [] : v;
}

/**
 * The response status class a check applies to. `2xx`: judges a successful answer's body (the default for
 * resource checks); `4xx`: judges a rejection (error conventions); `any`: status-independent (headers, transport).
 * On an answer of another class the check is blocked by the case's status check, or skipped when the case has none.
 */
export type StatusClassNeed = '2xx' | '4xx' | 'any';

/**
 * A parameter a check takes from its suite (`with: { <name>: … }`). The loader holds every `with:` to these
 * declarations: a misspelt or missing parameter, or a case id that names no earlier case, is a load error at the
 * suite's file:line:col, not a check that errors or skips at run time.
 */
export interface ParamSpec {
  /**
   * `case`: the id of an earlier case of the suite (whose exchange the check reads); `cases`: a list of such ids
   * (`null` for a position with none); `string`, `number`: a value, or a template giving one; `value`: anything.
   */
  kind: 'case' | 'cases' | 'string' | 'number' | 'value';
  /** Whether the check cannot judge anything without it. */
  required?: boolean;
  /** What it is, in a few words (shown by `conformance checks`). */
  doc: string;
}

export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

interface CheckBase {
  name: string;
  /** The parameters the check reads from `with:` (none when absent). */
  params?: ParamSpecs;
  requirements: readonly string[];
  severity: Severity;
  /** One line: the rule, in the spec's words. */
  summary: string;
  /** Return a reason to skip when the check does not apply to this exchange. */
  skipWhen?: (exchange: Exchange, ctx: CheckContext) => string | undefined;
  /** The status class this check judges (default `2xx`; checks citing only error conventions default to `4xx`). */
  appliesTo?: StatusClassNeed;
  /**
   * Checks of the same exchange this one builds on: when one of them fails, this one is blocked by it instead
   * of failing again for the same reason (e.g. logprobs alignment needs logprobs to be present at all).
   */
  after?: readonly string[];
  /**
   * The items the rule is about, as a JSON pointer with `*` wildcards into the answer (`/choices/*`, `/data/*`):
   * a pass over none of them exercised nothing, and the engine records it as not exercised.
   */
  over?: string;
}

export interface ResponseCheck extends CheckBase {
  kind: 'response';
  run(exchange: Exchange, ctx: CheckContext): CheckVerdict;
}

/** Stream checks fold over events as they arrive, so a long stream is checked in constant memory. */
export interface StreamCheck<State = unknown> extends CheckBase {
  kind: 'stream';
  start(ctx: CheckContext): State;
  event(state: State, event: SseEvent, index: number, ctx: CheckContext): Finding[] | void;
  end(state: State, end: StreamEnd, exchange: Exchange, ctx: CheckContext): CheckVerdict;
}

export type Check = ResponseCheck | StreamCheck<any>;
