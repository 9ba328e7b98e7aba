// What a run will do, resolved before anything starts: the flags, the config file and a recording's own settings
// read once, checked against each other, and the harness (catalogue, schemas, checks, suites) loaded.

import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseModelFlag, readProfileConfig, type ProfileConfig } from '../profile/profile.ts';
import type { AnyRole, Credentials } from '../profile/types.ts';
import type { ReferenceServer } from '../reference/index.ts';
import type { PluginLimits } from '../schema/plugin-limits.ts';
import { DEFAULT_FUZZ_BUDGET_MS, DEFAULT_FUZZ_RUNS } from '../fuzz/names.ts';
import { manifestReadable } from '../transport/cassette.ts';
import { shellWord } from '../util/shell-word.ts';
import { intFlag, readingFlags, type parseFlags, type RUN_FLAGS } from './args.ts';
import { credentialsFrom } from './credentials.ts';
import type { Io } from './io.ts';
import { pluginLimitsOf } from './plugin-limits-of.ts';
import { loadHarness, type Harness } from './setup.ts';
import { recordedSettings, transportMode, WRITING_MODES, type RecordedSettings } from './transports.ts';
import { shardSeed } from './shard-seed.ts';
import { parseShard } from '../engine/shard.ts';
import { UsageError } from './usage-error.ts';

export type RunFlags = ReturnType<typeof parseFlags<typeof RUN_FLAGS>>['values'];

/** A run as asked: `conformance run`'s flags and PATH arguments (the library builds the same from its options). */
export interface RunRequest {
  flags: RunFlags;
  positionals: readonly string[];
  /** Where a sharded run finds its CI run's id, for a seed every shard shares (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Suites at once against a live target: enough to hide latency, few enough for a shared service. */
export const DEFAULT_JOBS = 4;

export interface RunPlan {
  flags: RunFlags;
  positionals: readonly string[];
  config: ProfileConfig;
  mode: ReturnType<typeof transportMode>;
  /** Whether the run reads the cassette folder it is given (a replay, or a recording that continues one). */
  readsFolder: boolean;
  /** The settings a recording made: a continued recording and a replay reuse them. */
  recorded: RecordedSettings | undefined;
  /** The recorded settings of a replay (lockdown) only. */
  replayed: RecordedSettings | undefined;
  models: Partial<Record<AnyRole, string>>;
  seed: number;
  timeouts: { requestTimeoutMs?: number; pollDeadlineMs?: number; modelLoadMs?: number; trainingMs?: number };
  fuzz: { runs: number; budgetMs: number };
  jobs: number;
  ratePerSecond: number | undefined;
  pluginLimits: Partial<PluginLimits>;
  reportDir: string;
  harness: Harness;
  /** The user's target (flag or config), if any: without one, the embedded reference server. */
  wantsTarget: string | undefined;
  readings: string[];
}

export async function resolvePlan(request: RunRequest): Promise<RunPlan> {
  const { flags, positionals } = request;
  const config: ProfileConfig = flags.config ? readProfileConfig(resolve(flags.config)) : {};
  // Your own suites: files or folders given as arguments or in the config file's `suites:` (relative to it).
  const userPaths = [...positionals, ...(config.suites ?? []).map((p) => resolve(dirname(resolve(flags.config!)), p))];
  if (flags.only && userPaths.length === 0) throw new UsageError('--only runs only your own suites: give their files or folders (conformance run --only PATH...)');
  // Replays (and `--record-mode record`, which replays the suites already recorded) reuse the recorded settings.
  const mode = transportMode({ record: flags.record ?? false, cassettes: flags.cassettes, recordMode: flags['record-mode'] });
  // A recording into a folder that holds one continues it: its seed and fuzz runs unless flags say otherwise. A
  // re-record rewrites manifest.json: one it cannot read is replaced, as if there were none.
  const readsFolder = mode !== 'live' && mode !== 'wild' && !(mode === 'update' && !manifestReadable(flags.cassettes!));
  const recorded = readsFolder ? recordedSettings(resolve(flags.cassettes!)) : undefined;
  const replayed = mode === 'lockdown' ? recorded : undefined;
  const models = runModels(flags, config, mode, replayed);
  // A well-formed --shard needs a seed its sibling shards share; a malformed one is refused for its form later.
  const sharded = flags.shard !== undefined && parseShard(flags.shard) !== undefined;
  const seed = intFlag(flags.seed, 'seed') ?? recorded?.seed ?? (sharded ? shardSeed(request.env ?? process.env) : Math.floor(Math.random() * 2 ** 31));
  const timeouts = {
    requestTimeoutMs: intFlag(flags.timeout, 'timeout', 1),
    pollDeadlineMs: intFlag(flags['poll-deadline'], 'poll-deadline', 1),
    modelLoadMs: intFlag(flags['model-load-deadline'], 'model-load-deadline', 1),
    trainingMs: intFlag(flags['training-ms'], 'training-ms', 1),
  };
  // A replay runs the fuzz cases the recording holds (its manifest says how many per property).
  const fuzz = { runs: intFlag(flags['fuzz-runs'], 'fuzz-runs') ?? recorded?.fuzzRuns ?? DEFAULT_FUZZ_RUNS, budgetMs: intFlag(flags['fuzz-budget-ms'], 'fuzz-budget-ms', 1) ?? DEFAULT_FUZZ_BUDGET_MS };
  // A recording keeps one suite's cassette at a time, so it runs suites one by one. A replay serves each suite from
  // its own cassette and may run them at once, but it waits on nothing: one at a time is as fast (a full recording
  // with fuzzing, 1.5 s either way) and holds ~90 MiB less.
  const cassetteMode = mode !== 'live' && mode !== 'wild';
  const oneByOne = cassetteMode && mode !== 'lockdown';
  const jobs = intFlag(flags.jobs, 'jobs', 1) ?? (cassetteMode ? 1 : DEFAULT_JOBS);
  const ratePerSecond = parseRate(flags['rate-limit']);
  if (mode === 'lockdown' && ratePerSecond !== undefined) throw new UsageError('--rate-limit applies to runs that send requests: live runs and recordings (a replay sends nothing)');
  if (oneByOne && jobs > 1) throw new UsageError('--jobs applies to live runs and replays: a recording runs one suite at a time (each suite has its own cassette)');
  // The config file is read once: its plugin_limits come from the same parse as the profile.
  const pluginLimits = flags.config ? pluginLimitsOf(config, resolve(flags.config)) : {};
  // Where the run will write must be writable before anything is sent: not a crash after the whole run.
  // Relative to where the user runs it, never inside the installed package.
  const reportDir = resolve(flags['report-dir'] ?? 'reports');
  ensureWritableDir(reportDir, '--report-dir');
  if (flags.cassettes && WRITING_MODES.has(mode)) ensureWritableDir(resolve(flags.cassettes), '--cassettes');
  const harness = loadHarness({ pluginLimits, userPaths, only: flags.only ?? false, ...(flags['suites-dir'] ? { suitesDir: resolve(flags['suites-dir']) } : {}) });
  const wantsTarget = flags['base-url'] ?? config.base_url;
  const readings = referenceReadings(flags, { wantsTarget, mode });
  return { flags, positionals, config, mode, readsFolder, recorded, replayed, models, seed, timeouts, fuzz, jobs, ratePerSecond, pluginLimits, reportDir, harness, wantsTarget, readings };
}

/** The readings the embedded reference server is asked to serve; its flags, with a target of the user's or a replay, are a usage error. */
function referenceReadings(flags: RunFlags, run: { wantsTarget: string | undefined; mode: string }): string[] {
  const { wantsTarget, mode } = run;
  if (flags.fault?.length && wantsTarget) throw new UsageError('--fault applies to the embedded reference server; it cannot be combined with --base-url');
  if (flags['latency-ms'] && wantsTarget) throw new UsageError('--latency-ms applies to the embedded reference server; it cannot be combined with --base-url');
  const readings = readingFlags(flags);
  if (flags.pace && wantsTarget) throw new UsageError('--pace applies to the embedded reference server; it cannot be combined with --base-url');
  if (readings.length && wantsTarget) throw new UsageError('--reading applies to the embedded reference server; it cannot be combined with --base-url');
  if (flags.fault?.length && mode === 'lockdown') throw new UsageError('--fault applies to the embedded reference server; a replay sends nothing to it');
  return readings;
}

/**
 * Where the run goes and with which credentials: flags first; then, for a live target of the user's, the
 * environment; else the embedded reference server's own, or (when replaying) the settings recorded in the
 * cassettes — placeholders for keys, never real ones. A key exported for a live service is not the embedded
 * server's, and a replay answers as recorded: neither takes credentials from the environment.
 */
export function target(plan: RunPlan, io: Io, reference: ReferenceServer | undefined) {
  const { flags, replayed } = plan;
  const fallback: Credentials = reference?.credentials ?? replayed?.credentials ?? {};
  const credentials = credentialsFrom(flags, reference || replayed ? {} : io.env, fallback);
  const baseUrl = flags['base-url'] ?? reference?.url ?? (replayed ? replayed.baseUrl : undefined) ?? (flags.cassettes ? 'http://127.0.0.1:9' : undefined);
  const pluginUrl = flags['plugin-url'] ?? reference?.pluginUrl ?? replayed?.pluginUrl;
  return { ...(baseUrl ? { baseUrl } : {}), ...(pluginUrl ? { pluginUrl } : {}), credentials };
}

/**
 * The model per role the run asks for, over the config file's: `--model` flags; for a replay, the models its
 * recording asked for (its requests hold them); and `non_chat: davinci` when the target is the embedded reference
 * server, which serves davinci without chat, or a replay of an older recording made against it. Never for a
 * target of the user's: the spec names no model without chat support, so CHAT-MODEL-SUPPORTS-CHAT is judged only
 * on a model the user declares.
 */
function runModels(flags: RunFlags, config: ProfileConfig, mode: string, replayed: RecordedSettings | undefined): Partial<Record<AnyRole, string>> {
  const models: Partial<Record<AnyRole, string>> = { ...replayed?.models };
  for (const m of flags.model ?? []) {
    const [role, name] = parseModelFlag(m);
    // A replay answers what was recorded: asking another model only finds no recorded request, suite by suite.
    const recorded = mode === 'lockdown' ? replayed?.models?.[role] : undefined;
    if (recorded !== undefined && recorded !== name) {
      throw new UsageError(`--model ${role}=${name}: the cassettes were recorded with ${role}=${recorded}, and a replay sends what the recording sent (leave --model out, or record again with it)`);
    }
    models[role] = name;
  }
  const embedded = !(flags['base-url'] ?? config.base_url) && (mode !== 'lockdown' || (replayed?.target === 'reference' && !replayed.models));
  if (embedded && !models.non_chat && !config.models?.non_chat) models.non_chat = 'davinci';
  return models;
}

/** `--rate-limit 5/s` (or `5`): requests per second; undefined without the flag. */
function parseRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(?:\/s)?$/.exec(value.trim());
  if (!m || !(Number(m[1]) > 0)) throw new UsageError(`--rate-limit expects N/s with N > 0, e.g. 5/s (got "${value}")`);
  return Number(m[1]);
}

/** A folder the run writes to: created if missing; anything that prevents writing there is a usage error. */
function ensureWritableDir(dir: string, flag: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`${flag} ${dir}: cannot write there (${err.code ?? err.message}): choose a folder the run can create and write`);
  }
}

/**
 * The one-line command that reruns a case: every argument that changes behaviour or finds the suite (a user's
 * own suite files and folders, --only, --suites-dir), never a key (keys come from the environment).
 */
export function reproducer(plan: RunPlan, reference: boolean) {
  const { flags, positionals: paths, seed } = plan;
  const fixed: string[] = ['npx conformance run', ...paths.map(shellWord)];
  if (flags.only) fixed.push('--only');
  if (flags['suites-dir']) fixed.push(`--suites-dir ${shellWord(flags['suites-dir'])}`);
  if (!reference && flags['base-url']) fixed.push(`--base-url ${shellWord(flags['base-url'])}`);
  if (flags.config) fixed.push(`--config ${shellWord(flags.config)}`);
  for (const m of flags.model ?? []) fixed.push(`--model ${shellWord(m)}`);
  for (const f of flags.fault ?? []) fixed.push(`--fault ${f}`);
  if (flags.timeout) fixed.push(`--timeout ${flags.timeout}`);
  if (flags['poll-deadline']) fixed.push(`--poll-deadline ${flags['poll-deadline']}`);
  if (flags['model-load-deadline']) fixed.push(`--model-load-deadline ${flags['model-load-deadline']}`);
  if (flags['fuzz-runs']) fixed.push(`--fuzz-runs ${flags['fuzz-runs']}`);
  if (flags['fuzz-budget-ms']) fixed.push(`--fuzz-budget-ms ${flags['fuzz-budget-ms']}`);
  if (flags['training-ms']) fixed.push(`--training-ms ${flags['training-ms']}`);
  if (flags['latency-ms'] && reference) fixed.push(`--latency-ms ${flags['latency-ms']}`);
  if (flags['plugin-url'] && !reference) fixed.push(`--plugin-url ${shellWord(flags['plugin-url'])}`);
  if (flags.cassettes && !flags.record) fixed.push(`--cassettes ${shellWord(flags.cassettes)}`);
  // Joined once: the command is made for every case of a run (thousands in a generated suite), used on failure.
  const prefix = fixed.join(' ');
  return (suite: string, caseId: string) => `${prefix} --suite ${suite} --grep ${caseId} --seed ${seed}`;
}
