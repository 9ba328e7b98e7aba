// Options of runConformance → the flags of `conformance run`: one table, typed so that every option has exactly one
// entry of the kind its type says, and every flag an option (or a reason in NOT_OPTIONS).

import type { RUN_FLAGS } from '../run/args.ts';
import type { RunFlags, RunRequest } from '../run/plan.ts';
import { nearest } from '../suite/errors.ts';
import type { RunConformanceOptions } from './types.ts';

/** How an option's value is checked (a JavaScript caller has no compiler to stop `suites: 'models'`) and turned into argv. */
export const KINDS = {
  // Each kind: how to tell a value of it, and the flag's value it becomes (undefined: the flag is left out).
  // Numbers become the text the CLI reads, so the run's own checks answer for -5, 1.5 or NaN.
  string: { what: 'a string', is: (v: unknown) => typeof v === 'string', value: (v: unknown) => v as string },
  number: { what: 'a number', is: (v: unknown) => typeof v === 'number', value: (v: unknown) => String(v as number) },
  boolean: { what: 'true or false', is: (v: unknown) => typeof v === 'boolean', value: (v: unknown) => (v ? true : undefined) },
  // A repeatable flag, once per element.
  strings: { what: 'an array of strings', is: (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string'), value: (v: unknown) => ((v as string[]).length ? [...(v as string[])] : undefined) },
  // `--model ROLE=NAME` per entry.
  pairs: {
    what: 'an object of strings, e.g. { chat: "my-model" }',
    is: (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string'),
    value: (v: unknown) => { const pairs = Object.entries(v as Record<string, string>).map(([k, s]) => `${k}=${s}`); return pairs.length ? pairs : undefined; },
  },
  // Not flags: handed to main() as its io.
  writer: { what: 'an object with a write(text) method', is: (v: unknown) => typeof (v as { write?: unknown } | null)?.write === 'function', value: () => undefined },
  signal: { what: 'an AbortSignal', is: (v: unknown) => v instanceof AbortSignal, value: () => undefined },
} as const;

type KindOf<T> = T extends boolean ? 'boolean' : T extends number ? 'number' : T extends string ? 'string'
  : T extends readonly string[] ? 'strings' : T extends AbortSignal ? 'signal' : T extends Record<string, string> ? 'pairs' : 'writer';
/** `--debug` is read by main() itself, before the command parses its flags. */
type RunFlag = keyof typeof RUN_FLAGS | 'debug';

/**
 * Option → flag of `conformance run`. Typed so that every option has exactly one entry, of the kind its type says;
 * `paths` are the command's PATH arguments, `output` and `signal` are not flags.
 */
const OPTIONS = {
  baseUrl: { kind: 'string', flag: 'base-url' },
  apiKey: { kind: 'string', flag: 'api-key' },
  memberApiKey: { kind: 'string', flag: 'member-api-key' },
  organization: { kind: 'string', flag: 'organization' },
  otherOrganization: { kind: 'string', flag: 'other-organization' },
  pluginUrl: { kind: 'string', flag: 'plugin-url' },
  config: { kind: 'string', flag: 'config' },
  models: { kind: 'pairs', flag: 'model' },
  suites: { kind: 'strings', flag: 'suite' },
  paths: { kind: 'strings' },
  only: { kind: 'boolean', flag: 'only' },
  tags: { kind: 'strings', flag: 'tag' },
  grep: { kind: 'string', flag: 'grep' },
  shard: { kind: 'string', flag: 'shard' },
  jobs: { kind: 'number', flag: 'jobs' },
  rateLimit: { kind: 'number', flag: 'rate-limit' },
  reportDir: { kind: 'string', flag: 'report-dir' },
  reportPasses: { kind: 'boolean', flag: 'report-passes' },
  seed: { kind: 'number', flag: 'seed' },
  fuzzRuns: { kind: 'number', flag: 'fuzz-runs' },
  fuzzBudgetMs: { kind: 'number', flag: 'fuzz-budget-ms' },
  fuzzPath: { kind: 'string', flag: 'fuzz-path' },
  timeoutMs: { kind: 'number', flag: 'timeout' },
  pollDeadlineMs: { kind: 'number', flag: 'poll-deadline' },
  modelLoadDeadlineMs: { kind: 'number', flag: 'model-load-deadline' },
  cassettes: { kind: 'string', flag: 'cassettes' },
  record: { kind: 'boolean', flag: 'record' },
  recordMode: { kind: 'string', flag: 'record-mode' },
  faults: { kind: 'strings', flag: 'fault' },
  readings: { kind: 'strings', flag: 'reading' },
  pace: { kind: 'string', flag: 'pace' },
  trainingMs: { kind: 'number', flag: 'training-ms' },
  latencyMs: { kind: 'number', flag: 'latency-ms' },
  suitesDir: { kind: 'string', flag: 'suites-dir' },
  verbose: { kind: 'boolean', flag: 'verbose' },
  debug: { kind: 'boolean', flag: 'debug' },
  output: { kind: 'writer' },
  signal: { kind: 'signal' },
} as const satisfies { [K in keyof RunConformanceOptions]-?: { kind: KindOf<NonNullable<RunConformanceOptions[K]>>; flag?: RunFlag } };
/** The same table, read by name at run time. */
const TABLE: Readonly<Record<keyof RunConformanceOptions, { kind: keyof typeof KINDS; flag?: RunFlag }>> = OPTIONS;

/** Flags of `conformance run` that are no option here, and why. */
const NOT_OPTIONS = {
  help: 'prints the usage text and runs nothing: the options are this interface',
  'no-color': 'a library run never colours its output (it runs as under CI, without a terminal)',
  readings: '`readings: [\'alt\']` is the same as --readings alt',
} as const satisfies Partial<Record<RunFlag, string>>;
// A flag added to RUN_FLAGS without an option (or a reason in NOT_OPTIONS) fails the type-check here.
type Mapped = { [K in keyof typeof OPTIONS]: (typeof OPTIONS)[K] extends { flag: infer F } ? F : never }[keyof typeof OPTIONS];
type Unmapped = Exclude<keyof typeof RUN_FLAGS, Mapped | keyof typeof NOT_OPTIONS>;
const everyFlagMapped: [Unmapped] extends [never] ? true : Unmapped = true;
void everyFlagMapped;

const NAMES = Object.keys(TABLE) as (keyof RunConformanceOptions)[];

/** The first option that is unknown or of the wrong type, as the CLI's one-line usage message; undefined when all are fine. */
export function optionProblem(o: object): string | undefined {
  for (const [key, value] of Object.entries(o)) {
    if (!Object.hasOwn(TABLE, key)) {
      const guess = nearest(key, NAMES);
      return `unknown option ${JSON.stringify(key)}${guess ? ` — did you mean "${guess}"?` : ` (options: ${NAMES.join(', ')})`}`;
    }
    const kind = KINDS[TABLE[key as keyof RunConformanceOptions].kind];
    // undefined is absent (as in `{ grep: process.env.GREP }`); anything else must have the option's type.
    if (value !== undefined && !kind.is(value)) return `option "${key}" expects ${kind.what} (got ${shown(value)})`;
  }
  return undefined;
}

/** A wrong value in a message: a string quoted, else its type (never JSON.stringify, which throws on 5n or a cycle). */
function shown(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** Options → the run's flags and PATH arguments, as the CLI's parser would give them for the same flags. */
export function runRequest(o: RunConformanceOptions): RunRequest {
  const flags: Record<string, unknown> = {};
  for (const name of NAMES) {
    const { kind, flag } = TABLE[name];
    if (flag === undefined || flag === 'debug' || o[name] === undefined) continue;
    const value = KINDS[kind].value(o[name]);
    if (value !== undefined) flags[flag] = value;
  }
  return { flags: flags as RunFlags, positionals: [...(o.paths ?? [])] };
}
