// The library form of `conformance run`: the same command, driven by options instead of argv, returning the
// report object. One code path for both, so a library run and a CLI run with the same settings agree: the
// options become argv (one table below) and go through the CLI's own parser, validation and messages.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RUN_FLAGS } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import { main } from '../cli/main.ts';
import type { Report } from '../report/types.ts';
import { nearest } from '../suite/errors.ts';

/** Every option of `conformance run` (`--fuzz-runs N` → `fuzzRuns: N`), but `--help` and `--no-color` (see NOT_OPTIONS). */
export interface RunConformanceOptions {
  // Target
  /** The API base, e.g. http://127.0.0.1:8080 (or …/v1). Without it the embedded reference server is used. */
  baseUrl?: string;
  /** Sent as Authorization: Bearer; else env CONFORMANCE_API_KEY (for a target of yours). */
  apiKey?: string;
  /** A key of the same organization without the owner role; else env CONFORMANCE_MEMBER_API_KEY. */
  memberApiKey?: string;
  /** Sent as Service-Organization; else env CONFORMANCE_ORGANIZATION. */
  organization?: string;
  /** A second organization the key belongs to; else env CONFORMANCE_OTHER_ORGANIZATION. */
  otherOrganization?: string;
  /** Origin serving /.well-known/ai-plugin.json. */
  pluginUrl?: string;
  /** A target profile (YAML): models, context lengths, claimed areas, timeouts. */
  config?: string;
  /** Model per role, e.g. { chat: 'my-chat-model' } (`--model chat=my-chat-model`). */
  models?: Record<string, string>;
  // Selection
  /** Built-in suites to run by name (all when omitted). */
  suites?: readonly string[];
  /** Suite files or folders of your own, added to the built-in suites (with `only`, instead of them). */
  paths?: readonly string[];
  only?: boolean;
  tags?: readonly string[];
  /** Only cases whose id or title contains this text (and the cases they depend on). */
  grep?: string;
  /** Shard I of N of the selection, e.g. '1/4' (then merge the shards' reports with `conformance merge`). */
  shard?: `${number}/${number}`;
  /** Suites run at once (default 4 live; 1 with cassettes). */
  jobs?: number;
  /** At most this many requests per second over the whole run (`--rate-limit N/s`). */
  rateLimit?: number;
  // Run
  /** Where report.json, junit.xml and summary.md go; without it they are written to a temporary folder and removed. */
  reportDir?: string;
  /** Keep the redacted request and a response excerpt of passing results too. */
  reportPasses?: boolean;
  seed?: number;
  /** Random fuzz cases per property (0 leaves the fuzz suites out). */
  fuzzRuns?: number;
  /** Time budget of each fuzz property, shrinking included (`--fuzz-budget-ms`). */
  fuzzBudgetMs?: number;
  /** Replay one fuzz counterexample (with suites: ['fuzz'], grep: property, seed). */
  fuzzPath?: string;
  /** Per-request timeout (`--timeout MS`). */
  timeoutMs?: number;
  /** Deadline of polling cases, e.g. fine-tune jobs (`--poll-deadline MS`). */
  pollDeadlineMs?: number;
  /** How long a new fine-tuned model may answer "still loading" (`--model-load-deadline MS`). */
  modelLoadDeadlineMs?: number;
  // Record and replay
  /** Replay from (or, with `record`, record to) this cassette folder. */
  cassettes?: string;
  record?: boolean;
  /** With `cassettes`: nock.back's mode (`rerecord` is an alias of `update`). */
  recordMode?: 'lockdown' | 'record' | 'update' | 'rerecord' | 'dryrun' | 'wild';
  // Reference server (no baseUrl)
  /** Faults of the embedded reference server. */
  faults?: readonly string[];
  /** Other reasonable readings of the spec the embedded reference server serves (`--reading NAME`). */
  readings?: readonly string[];
  /** A slow live service's pace for the embedded reference server (`--pace slow`). */
  pace?: 'slow';
  /** Simulated fine-tune duration of the embedded reference server. */
  trainingMs?: number;
  /** Delay before every answer of the embedded reference server. */
  latencyMs?: number;
  // Harness and output
  /** A folder of built-in suites to use instead of the shipped ones (`--suites-dir`). */
  suitesDir?: string;
  /** Print a line for every result that is not a pass (to `output`). */
  verbose?: boolean;
  /** A crash of the run puts its stack trace in `errors` (`--debug`). */
  debug?: boolean;
  /** Console output of the run (one line per suite, failures, summary); discarded when omitted. */
  output?: { write(s: string): unknown };
  signal?: AbortSignal;
}

export interface RunConformanceResult {
  /** The CLI's exit code: 0 pass, 1 a must-failure, 2 usage, 3 a problem of the run (see README, Exit codes). */
  exitCode: number;
  /** The report (redacted), or undefined when the run stopped before one could be built (bad options). */
  report: Report | undefined;
  /** What the run wrote to its error stream (usage errors, problems of the run). */
  errors: string;
}

/** How an option's value is checked (a JavaScript caller has no compiler to stop `suites: 'models'`) and turned into argv. */
const KINDS = {
  // `--flag=value`, never `--flag value`: node:util parseArgs then takes any value as it is, "-k1" or "--debug"
  // included (the separate form calls a value that starts with "-" ambiguous, and main() would take "--debug").
  string: { what: 'a string', is: (v: unknown) => typeof v === 'string', argv: (f: string, v: unknown) => [`--${f}=${v as string}`] },
  // Passed as written, so the CLI's own checks answer for -5, 1.5 or NaN ("--seed expects an integer ≥ 0").
  number: { what: 'a number', is: (v: unknown) => typeof v === 'number', argv: (f: string, v: unknown) => [`--${f}=${v as number}`] },
  boolean: { what: 'true or false', is: (v: unknown) => typeof v === 'boolean', argv: (f: string, v: unknown) => (v ? [`--${f}`] : []) },
  // A repeatable flag, once per element.
  strings: { what: 'an array of strings', is: (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string'), argv: (f: string, v: unknown) => (v as string[]).map((s) => `--${f}=${s}`) },
  // `--model ROLE=NAME` per entry.
  pairs: {
    what: 'an object of strings, e.g. { chat: "my-model" }',
    is: (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string'),
    argv: (f: string, v: unknown) => Object.entries(v as Record<string, string>).map(([k, s]) => `--${f}=${k}=${s}`),
  },
  // Not flags: handed to main() as its io.
  writer: { what: 'an object with a write(text) method', is: (v: unknown) => typeof (v as { write?: unknown } | null)?.write === 'function', argv: () => [] },
  signal: { what: 'an AbortSignal', is: (v: unknown) => v instanceof AbortSignal, argv: () => [] },
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
function optionProblem(o: object): string | undefined {
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

/** Options → the argv `conformance run` takes, so both forms share one parser and one validation. */
export function runArgv(o: RunConformanceOptions): string[] {
  const argv: string[] = [];
  for (const name of NAMES) {
    const { kind, flag } = TABLE[name];
    if (flag !== undefined && o[name] !== undefined) argv.push(...KINDS[kind].argv(flag, o[name]));
  }
  // After "--" every argument is a PATH, "-my-suites" included.
  return o.paths?.length ? [...argv, '--', ...o.paths] : argv;
}

export async function runConformance(options: RunConformanceOptions = {}): Promise<RunConformanceResult> {
  let errors = '';
  // Not options.output itself when it is no writer: that is the usage error to report.
  const output = KINDS.writer.is(options.output) ? options.output : undefined;
  const err = { write: (s: string) => { errors += s; return output?.write(s) ?? true; } };
  // Checked before anything runs, and answered as main() answers a bad flag: one line, exit 2, no report.
  const problem = optionProblem(options);
  if (problem) {
    err.write(`conformance run: ${problem}\n`);
    return { exitCode: EXIT.usage, report: undefined, errors };
  }
  const reportDir = options.reportDir ?? mkdtempSync(join(tmpdir(), 'conformance-report-'));
  let report: Report | undefined;
  const discard = { write: () => true };
  try {
    // Through main(), so bad options and bad suite files map to the same exit codes and messages as on the CLI.
    const exitCode = await main(['run', ...runArgv({ ...options, reportDir })], {
      out: output ?? discard,
      err,
      env: libraryEnv(),
      isTTY: false,
      ...(options.signal ? { interrupt: options.signal } : {}),
      onReport: (r) => { report = r; },
    });
    return { exitCode, report, errors };
  } finally {
    if (options.reportDir === undefined) rmSync(reportDir, { recursive: true, force: true });
  }
}

/**
 * The environment a library run sees: the process's (keys in CONFORMANCE_* variables included), as under CI,
 * but without GITHUB_STEP_SUMMARY: the CLI appends the run's summary to the job's page; a library run, perhaps
 * one of many in a test file, writes only where it is asked to (reportDir).
 */
function libraryEnv(): NodeJS.ProcessEnv {
  const { GITHUB_STEP_SUMMARY: _summary, ...env } = process.env;
  return { ...env, CI: 'true' };
}
