// The suite format as written in YAML (see schemas/suite.schema.json), and the plan it compiles to.

import type { HttpMethod } from '../transport/types.ts';

export const AREAS = [
  'auth', 'models', 'engines', 'completions', 'chat', 'edits', 'images', 'embeddings',
  'audio', 'files', 'fine-tunes', 'moderations', 'plugins',
] as const;
export type Area = (typeof AREAS)[number];

/** Optional credentials or targets a case needs; without them it is skipped, not failed. */
export const NEEDS = ['member_api_key', 'organization', 'other_organization', 'api_key', 'plugin_url'] as const;
export type Need = (typeof NEEDS)[number];

export type StatusExpectation = number | `${1 | 2 | 3 | 4 | 5}xx` | number[];

export interface PngFixture { width: number; height: number; alpha?: 'opaque' | 'transparent-region' | 'none'; noise?: boolean }
export interface WavFixture { seconds: number; sampleRate?: number }

export interface FileFixtureSpec {
  field: string;
  filename: string;
  content_type?: string;
  png?: PngFixture;
  wav?: WavFixture;
  text?: string;
  jsonl?: unknown[];
  /** `size` bytes of filler, for size-limit cases. */
  bytes?: { size: number; fill?: string };
  /** A recorded media file shipped in fixtures/media/ (audio of every listed type, real speech). */
  media?: string;
}

export interface RequestSpec {
  method: HttpMethod;
  /** The spec does not show the method: after a 404 or 405, these are tried in turn (the first other answer is judged). */
  fallback_methods?: HttpMethod[];
  path: string;
  /** Which base the path is relative to: the API (`--base-url`) or the plugin host (`--plugin-url`). */
  base?: 'api' | 'plugin';
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Which key to send: the run's key, the member key, a deliberately wrong one, or none. */
  auth?: 'default' | 'member' | 'invalid' | 'altered' | 'other-scheme' | 'none';
  /** Which organization header to send. */
  organization?: 'default' | 'other' | 'none';
  json?: unknown;
  multipart?: { fields?: Record<string, unknown>; files?: FileFixtureSpec[] };
  stream?: boolean;
  /** A stream that lasts as long as a job: bounded by the poll deadline, not the stream timeouts (schema: lasts). */
  lasts?: 'job';
}

export interface CheckUse {
  name: string;
  with?: Record<string, unknown>;
}

export interface ExpectSpec {
  status?: StatusExpectation;
  schema?: string;
  headers?: Record<string, HeaderExpectation>;
  checks?: Array<string | CheckUse>;
  /** Inline assertions on values of the answer: checks like every other, reported at their own file:line:col. */
  assert?: Assertion[];
}

/** What an assertion looks at: the JSON body, the parsed `data:` events of a stream, or a stream's assembled text. */
export type AssertSubject = 'body' | 'events' | 'assembled';

/** A closed set of predicates over the selected value; every one given must hold. */
export interface Predicates {
  equals?: unknown;
  not_equals?: unknown;
  matches?: string;
  exists?: boolean;
  type?: 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';
  contains?: unknown;
  length?: number;
  min_length?: number;
  max_length?: number;
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
  in?: unknown[];
  /** Each item of the selected array satisfies these predicates. */
  every?: Predicates;
  /** The number of items of the selected array (or of path matches) satisfies these predicates. */
  count?: Predicates;
}

/** Every predicate, once: a Record over the keys of Predicates, so adding one there without here fails to compile. */
const PREDICATE_KEY_SET: Record<keyof Predicates, true> = {
  equals: true, not_equals: true, matches: true, exists: true, type: true, contains: true, length: true,
  min_length: true, max_length: true, gt: true, gte: true, lt: true, lte: true, in: true, every: true, count: true,
};
export const PREDICATE_KEYS = Object.keys(PREDICATE_KEY_SET) as ReadonlyArray<keyof Predicates>;

export interface Assertion extends Predicates {
  subject?: AssertSubject;
  /** RFC 6901 JSON Pointer into the subject: selects one value. */
  pointer?: string;
  /** RFC 9535 JSONPath over the subject: selects the list of every match. */
  path?: string;
  /** must (default) fails the run; should warns. */
  severity?: 'must' | 'should';
}

export interface HeaderExpectation {
  equals?: string;
  matches?: string;
  present?: boolean;
}

export interface PollSpec {
  /** Condition on the response that ends the polling. */
  until: PollCondition;
  interval_ms?: number;
  /** Default: the profile's deadline named by `deadline` (`--poll-deadline`). */
  deadline_ms?: number;
  /**
   * What the answer shows while the target is still on its way (e.g. `/status` in pending, running): a deadline that
   * runs out then is a problem of the run; on any other answer it is the poll's failure. Default: any 2xx, a 5xx or
   * no answer in time.
   */
  while?: PollCondition;
  /** Which of the profile's deadlines bounds the poll: `poll` (--poll-deadline, the default) or `model-load` (--model-load-deadline). */
  deadline?: 'poll' | 'model-load';
  /** Most requests the poll may send (default: as many as the deadline allows); the wait doubles from interval_ms up to 5 s, and honours Retry-After. */
  max_requests?: number;
  /** What the poll establishes: a poll that runs out fails only these (default: the case's first requirement). */
  requirements?: string[];
}

export type PollCondition =
  | { status: StatusExpectation }
  | { pointer: string; equals?: unknown; in?: unknown[]; exists?: boolean; not_equals?: unknown };

/**
 * What a case fetches after its answer, for checks to judge together with it (checks never do I/O).
 * `urls`: a JSON pointer with `*` wildcards selecting URLs in the response body to GET without credentials
 * (image URLs). `each`: the same kind of pointer selecting items (e.g. every listed model id); for each item
 * `request` is sent with `{{item}}` bound to it, at most `limit` items (and never more than the profile's
 * follow budget), so "every listed model is retrievable" is one case, one request per model.
 */
export type FollowSpec = { urls: string } | FollowEachSpec;

export interface FollowEachSpec {
  each: string;
  request: RequestSpec;
  limit?: number;
}

export interface CaseSpec {
  id: string;
  title: string;
  requirements: string[];
  tags?: string[];
  needs?: Need[];
  request: RequestSpec;
  expect?: ExpectSpec;
  capture?: Record<string, string>;
  poll?: PollSpec;
  follow?: FollowSpec;
  /** Skip this case (with the reason) instead of running it. */
  skip?: string;
}

export interface SuiteSpec {
  version: 1;
  name: string;
  title?: string;
  description?: string;
  area: Area;
  tags?: string[];
  /** A catalogue of the user's own, relative to the suite file. */
  requirements?: string;
  variables?: Record<string, unknown>;
  cases: CaseSpec[];
}

/** A position in a source file, 1-based. */
export interface SourcePos { file: string; line: number; col: number }

/** A validated suite, ready to run: the spec plus where each case came from. */
export interface SuitePlan {
  spec: SuiteSpec;
  file: string;
  casePositions: SourcePos[];
  /** Per case, the position of each inline assertion (for failures that point at it). */
  assertPositions?: SourcePos[][];
  /** A suite of the user's own (given as a path), or one of ours. */
  origin?: 'builtin' | 'user';
  /** Where the suite's name is written (for name clashes). */
  namePosition?: SourcePos;
  /** The user's own catalogue this suite cites (`requirements: path`), resolved. */
  catalogueFile?: string;
}
