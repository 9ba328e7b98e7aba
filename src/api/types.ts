// The library's public types: what runConformance takes and gives. Kept free of Node's own types, so that a user's
// TypeScript checks against the shipped declarations without @types/node.

import type { Report } from '../report/types.ts';
import type { RunProblem } from '../engine/types.ts';

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
  /**
   * Problems of the run, as data: unreachable target, refused key, missing cassette, a deadline (exit 3). Each is
   * never a verdict on the target. Empty for a run that judged everything, and for a usage error.
   */
  problems: RunProblem[];
}
