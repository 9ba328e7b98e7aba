// argv → typed options. Unknown flags are usage errors (exit 2), never silently ignored.

import { MatchHeaderError, matchHeaderNames } from '../transport/match-headers.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

export const RUN_FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'member-api-key': { type: 'string' },
  organization: { type: 'string' },
  'other-organization': { type: 'string' },
  'plugin-url': { type: 'string' },
  config: { type: 'string' },
  model: { type: 'string', multiple: true },
  suite: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  grep: { type: 'string' },
  'report-dir': { type: 'string' },
  seed: { type: 'string' },
  'fuzz-runs': { type: 'string' },
  'fuzz-budget-ms': { type: 'string' },
  'fuzz-path': { type: 'string' },
  timeout: { type: 'string' },
  'poll-deadline': { type: 'string' },
  'model-load-deadline': { type: 'string' },
  record: { type: 'boolean' },
  cassettes: { type: 'string' },
  'record-mode': { type: 'string' },
  fault: { type: 'string', multiple: true },
  reading: { type: 'string', multiple: true },
  readings: { type: 'string' },
  pace: { type: 'string' },
  'training-ms': { type: 'string' },
  'suites-dir': { type: 'string' },
  only: { type: 'boolean' },
  shard: { type: 'string' },
  jobs: { type: 'string' },
  'rate-limit': { type: 'string' },
  'report-passes': { type: 'boolean' },
  'latency-ms': { type: 'string' },
  'no-color': { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const SERVE_FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  fault: { type: 'string', multiple: true },
  reading: { type: 'string', multiple: true },
  readings: { type: 'string' },
  pace: { type: 'string' },
  'training-ms': { type: 'string' },
  'latency-ms': { type: 'string' },
  cassettes: { type: 'string' },
  cassette: { type: 'string' },
  timing: { type: 'string' },
  'miss-status': { type: 'string' },
  fallback: { type: 'string' },
  'unused-report': { type: 'string' },
  'match-header': { type: 'string', multiple: true },
  'list-faults': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^.*?: /, ''));
  }
}

export function intFlag(value: string | undefined, flag: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} expects an integer ≥ ${min}, got "${value}"`);
  return n;
}

export const RUN_HELP = `Usage: conformance run [PATH...] [options]

Runs the conformance suites against a target and writes reports. PATHs are suite files or folders of your
own, added to the built-in suites (with --only, run instead of them).
Without --base-url (and without --cassettes) the embedded reference server is started on 127.0.0.1.

Target
  --base-url URL             API base, e.g. https://api.example.com (or …/v1)
  --api-key KEY              or env CONFORMANCE_API_KEY; sent as Authorization: Bearer
  --member-api-key KEY       a key of the same organization without the owner role;
                             or env CONFORMANCE_MEMBER_API_KEY
  --organization ID          sent as Service-Organization; or env CONFORMANCE_ORGANIZATION
  --other-organization ID    a second organization the key belongs to; or env CONFORMANCE_OTHER_ORGANIZATION
                             (reproduce commands read keys and organizations from these variables only)
  --plugin-url URL           origin serving /.well-known/ai-plugin.json
  --config FILE              target profile (YAML): models, context lengths, claimed areas, timeouts
  --model ROLE=NAME          model per role (completion, chat, edit, embedding, transcription,
                             moderation, fine_tune_base); repeatable

Selection
  --suite NAME               run only this suite; repeatable
  --tag T                    run only cases (or suites) with this tag; repeatable
  --grep TEXT                run only cases whose id or title contains TEXT (and the cases they depend on);
                             exactly a case's id: that case alone
  --only                     run only the suites given as PATHs (or suites: in the config file)
  --suites-dir DIR           a folder of suites used instead of the built-in suites/ (as built-in suites)
  --shard I/N                run shard I of N of the selection (then: conformance merge REPORT...)
  --jobs N                   suites run at once, longest first (default 4 live; 1 with --cassettes: a
                             recording runs one suite at a time, a replay may run more but waits on nothing);
                             cases inside a suite stay in order
  --rate-limit N/s           at most N requests per second over the whole run (all jobs); 429, and 503 with
                             Retry-After, are retried (up to 4 times, 60 s) unless the case is about that status

Run
  --report-dir DIR           where report.json, junit.xml, summary.md and report.html go (default: ./reports)
  --report-passes            keep the redacted request and a response excerpt of passing results too (the
                             HTML report then shows what a pass looked at); off by default, to keep reports small
  --seed N                   seed for generated values and fuzzing (printed on every run)
  --fuzz-runs N              random fuzz cases per property, after its boundary cases (default 25; 0 disables
                             the fuzz suites; --suite fuzz runs only them, --suite fuzz-<area> one area)
  --fuzz-budget-ms MS        time budget of each fuzz property, shrinking included (default 5000)
  --fuzz-path PATH           replay one fuzz counterexample (with --suite fuzz --grep <property> --seed N)
  --timeout MS               per-request timeout, the wait for headers, and every silence in a stream (default 30000)
  --poll-deadline MS         deadline of polling cases, e.g. fine-tune jobs, and of a job's event stream
                             (default 120000; a live fine-tune takes 10-20 minutes: 1500000). Running out while
                             the target still works is a problem of the run (exit 3), never a failure
  --model-load-deadline MS   how long a new fine-tuned model may answer "still loading" (default 300000)

Record and replay
  --record                   run live and write cassettes to --cassettes DIR
  --cassettes DIR            without --record: replay offline from DIR, network disabled
  --record-mode MODE         with --cassettes, nock.back's modes: lockdown (replay only, the default), record
                             (replay what is recorded, record the rest), update (record everything again; the
                             default with --record; alias rerecord), dryrun (replay what is recorded, run the
                             rest live, write nothing), wild (all live, cassettes ignored)

Reference server (when no --base-url)
  --fault NAME               switch on one fault of the embedded reference server; repeatable
  --reading NAME             serve another reasonable reading of the spec (conformance serve --help lists
                             them); repeatable. --readings alt serves every one at once
  --pace slow                a slow live service: jobs of tens of seconds, events tens of seconds apart, a
                             fine-tuned model that loads for seconds (raise --poll-deadline to match)
  --training-ms MS           simulated fine-tune duration
  --latency-ms MS            delay before every answer, like a live service

Output
  --verbose                  one line for every result that is not a pass
  --no-color                 plain output (also under CI=true or without a terminal)
  --debug                    a crash prints its stack trace

${EXIT_CODES_HELP}`;

/** --reading NAME... and --readings alt, as one list for the reference server. */
export function readingFlags(flags: { reading?: string[] | undefined; readings?: string | undefined }): string[] {
  if (flags.readings !== undefined && flags.readings !== 'alt') throw new UsageError(`--readings takes alt (every reading at once), got "${flags.readings}"; one reading at a time is --reading NAME`);
  return [...(flags.reading ?? []), ...(flags.readings === 'alt' ? ['alt'] : [])];
}

/** --match-header, checked before anything starts: a secret header is refused with one line. */
export function matchHeaderFlags(names: readonly string[] | undefined, secret: readonly string[] = []): string[] {
  try {
    return matchHeaderNames(names, secret);
  } catch (e) {
    if (e instanceof MatchHeaderError) throw new UsageError(`--match-header: ${e.message}`);
    throw e;
  }
}
