// `conformance run`: the main job. Prints, picks the exit code; everything else is delegated.

import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildProfile, parseModelFlag, readProfileConfig, type ProfileConfig } from '../profile/profile.ts';
import type { AnyRole, Credentials } from '../profile/types.ts';
import { credentialsFrom, reproduceCredentialsHint } from '../run/credentials.ts';
import { runSuites, selectCases, type CaseFilter } from '../engine/index.ts';
import { preflight, stillAnswers } from '../engine/preflight.ts';
import type { RunProblem } from '../engine/types.ts';
import { LiveTransport } from '../transport/live.ts';
import { cassettePath, manifestReadable, readCassetteFolder, type CassetteDefect, type CassetteFolder } from '../transport/cassette.ts';
import type { ManifestSettings } from '../transport/record.ts';
import type { Selection } from '../run/suite-selection.ts';
import { EXIT } from '../run/exit-codes.ts';
import { SPEC_NAME, TOOL } from '../run/tool.ts';
import { parseShard, partition, suiteCost } from '../engine/shard.ts';
import { reportToGithub } from '../report/github.ts';
import { buildReport, ConsoleReporter, writeReports } from '../report/index.ts';
import type { Report } from '../report/types.ts';
import type { Io } from '../run/io.ts';
import { Progress } from '../report/progress.ts';
import { ThrottledTransport } from '../transport/throttle.ts';
import { Redactor } from '../util/redact.ts';
import { intFlag, parseFlags, readingFlags, RUN_FLAGS, RUN_HELP } from '../run/args.ts';
import { loadHarness } from '../run/setup.ts';
import { UsageError } from '../run/usage-error.ts';
import { createTransport, recordedSettings, transportMode, WRITING_MODES, type RecordedSettings } from '../run/transports.ts';
import { selectSuites } from '../run/suite-selection.ts';
import type { ReferenceServer } from '../reference/index.ts';
import { REMOTE_PLUGIN_VARIANTS } from '../reference/remote-plugins.ts';
import { widenYoungGenerationForRun } from '../run/young-generation.ts';
import { DEFAULT_FUZZ_BUDGET_MS, DEFAULT_FUZZ_RUNS, FUZZ_SUITE_NAMES } from '../fuzz/names.ts';
import { shellWord } from '../util/shell-word.ts';

export { TOOL, SPEC_NAME } from '../run/tool.ts';
/** Suites at once against a live target: enough to hide latency, few enough for a shared service. */
export const DEFAULT_JOBS = 4;

type RunFlags = ReturnType<typeof parseFlags<typeof RUN_FLAGS>>['values'];

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, RUN_FLAGS);
  if (flags.help) { io.out.write(RUN_HELP + '\n'); return 0; }
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
  const seed = intFlag(flags.seed, 'seed') ?? recorded?.seed ?? Math.floor(Math.random() * 2 ** 31);
  const requestTimeoutMs = intFlag(flags.timeout, 'timeout', 1);
  const pollDeadlineMs = intFlag(flags['poll-deadline'], 'poll-deadline', 1);
  const modelLoadMs = intFlag(flags['model-load-deadline'], 'model-load-deadline', 1);
  const trainingMs = intFlag(flags['training-ms'], 'training-ms', 1);
  // A replay runs the fuzz cases the recording holds (its manifest says how many per property).
  const fuzzRuns = intFlag(flags['fuzz-runs'], 'fuzz-runs') ?? recorded?.fuzzRuns ?? DEFAULT_FUZZ_RUNS;
  const fuzzBudgetMs = intFlag(flags['fuzz-budget-ms'], 'fuzz-budget-ms', 1) ?? DEFAULT_FUZZ_BUDGET_MS;
  // Record and replay keep one suite's cassette at a time: they run suites one by one.
  const cassetteMode = mode !== 'live' && mode !== 'wild';
  const jobs = intFlag(flags.jobs, 'jobs', 1) ?? (cassetteMode ? 1 : DEFAULT_JOBS);
  const ratePerSecond = parseRate(flags['rate-limit']);
  if (cassetteMode && ratePerSecond !== undefined) throw new UsageError('--rate-limit applies to live runs (a replay sends nothing)');
  if (cassetteMode && jobs > 1) throw new UsageError('--jobs applies to live runs: record and replay run one suite at a time (each suite has its own cassette)');
  // Modules a run may not need (the config's YAML parser, the reference server, fuzzing, the plugin checker) are
  // loaded only when it does: a run against a URL with --only starts in a fraction of the time.
  const pluginLimits = flags.config ? (await import('../run/plugin-limits.ts')).readPluginLimits(resolve(flags.config)) : {};
  // Where the run will write must be writable before anything is sent: not a crash after the whole run.
  // Relative to where the user runs it, never inside the installed package.
  const reportDir = resolve(flags['report-dir'] ?? 'reports');
  ensureWritableDir(reportDir, '--report-dir');
  if (flags.cassettes && WRITING_MODES.has(mode)) ensureWritableDir(resolve(flags.cassettes), '--cassettes');
  const harness = loadHarness({ pluginLimits, userPaths, only: flags.only ?? false, ...(flags['suites-dir'] ? { suitesDir: resolve(flags['suites-dir']) } : {}) });

  const wantsTarget = flags['base-url'] ?? config.base_url;
  if (flags.fault?.length && wantsTarget) throw new UsageError('--fault applies to the embedded reference server; it cannot be combined with --base-url');
  if (flags['latency-ms'] && wantsTarget) throw new UsageError('--latency-ms applies to the embedded reference server; it cannot be combined with --base-url');
  const readings = readingFlags(flags);
  if (flags.pace && wantsTarget) throw new UsageError('--pace applies to the embedded reference server; it cannot be combined with --base-url');
  if (readings.length && wantsTarget) throw new UsageError('--reading applies to the embedded reference server; it cannot be combined with --base-url');
  if (flags.fault?.length && mode === 'lockdown') throw new UsageError('--fault applies to the embedded reference server; a replay sends nothing to it');

  let reference: ReferenceServer | undefined;
  let probe: LiveTransport | undefined;
  if (!wantsTarget && mode !== 'lockdown') {
    // A short loading period after each fine-tune, so the suites' retry-while-loading path really runs.
    const latencyMs = intFlag(flags['latency-ms'], 'latency-ms');
    // With latency the simulated training takes longer too: a job must still be running when a suite, a few
    // slow requests later, cancels it (a real fine-tune takes minutes).
    const { startReferenceServer, paceOf } = await import('../reference/index.ts');
    // Live, the embedded target also serves a remote plugin per auth variant (HTTPS, names only this run
    // resolves), so the variants' manifest rules are judged too; recordings keep the local plugin only.
    const remotePlugins = (mode === 'live' || mode === 'wild') && !flags.only;
    const pace = paceOf(flags.pace);
    const timing = pace === 'slow' ? { ...(trainingMs ? { trainingMs } : {}) } : { trainingMs: trainingMs ?? 300 + 30 * (latencyMs ?? 0), modelLoadMs: 150 };
    reference = await startReferenceServer({ ...(flags.fault ? { faults: flags.fault } : {}), ...(readings.length ? { readings } : {}), remotePlugins, pace, ...timing, ...(latencyMs ? { latencyMs } : {}) });
  }
  try {
    const profile = buildProfile(config, {
      ...target(flags, io, reference, replayed),
      models,
      ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
      ...(pollDeadlineMs ? { pollDeadlineMs } : {}),
      ...(modelLoadMs ? { modelLoadMs } : {}),
    });
    const secrets = [profile.credentials.apiKey, profile.credentials.memberApiKey].filter((s): s is string => !!s);
    const redactor = new Redactor({ secretHeaders: profile.secretHeaders, secretValues: secrets });
    const reproduce = reproducer(flags, positionals, seed, !!reference);
    const fuzz = fuzzRuns > 0 && !flags.only ? (await import('../fuzz/suite.ts')).fuzzSuites({ runs: fuzzRuns, budgetMs: fuzzBudgetMs, reproduce, ...(flags['fuzz-path'] ? { path: flags['fuzz-path'] } : {}) }) : [];
    // --only: your suites alone, without ours (fuzz and plugin suites included).
    const remote = reference?.remotePlugins;
    const { pluginSuite } = flags.only ? { pluginSuite: undefined } : await import('../plugin/suite.ts');
    const remoteSuites = remote && pluginSuite ? REMOTE_PLUGIN_VARIANTS.map((variant) => {
      const name = `plugins-${variant.replace('_', '-')}`;
      return pluginSuite({ name, url: remote.urls[variant], limits: pluginLimits, reproduce: (c) => reproduce(name, c) });
    }) : [];
    const programmatic = pluginSuite ? [pluginSuite({ limits: pluginLimits, reproduce: (c) => reproduce('plugins', c) }), ...remoteSuites, ...fuzz] : [];
    const chosen = selectSuites(flags.suite ?? [], harness.plans, programmatic, flags.only ? [] : FUZZ_SUITE_NAMES);
    let selection = chosen;
    if (mode === 'lockdown') {
      const replay = replaySelection(chosen, flags.cassettes!, flags.suite ?? []);
      if ('kind' in replay) {
        io.err.write(problemLine(replay, redactor));
        return EXIT.runtime;
      }
      selection = replay;
    }
    // --shard I/N: this machine's part of the selection, the same on every machine for the same selection.
    const shardSpec = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
    if (flags.shard !== undefined && !shardSpec) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N (got "${flags.shard}")`);
    // A replay selects the cases its recording selected, unless told otherwise (it holds no others).
    const recordedFilter = mode === 'lockdown' && !flags.grep && !flags.tag ? replayed?.filter : undefined;
    const filter: CaseFilter = recordedFilter ? { ...recordedFilter } : { ...(flags.grep ? { grep: flags.grep } : {}), ...(flags.tag ? { tags: flags.tag } : {}) };
    // Judged on the whole selection, before this machine's part of it: a --grep that matches cases of other
    // shards' suites only leaves this shard an empty part (an empty report, exit 0), not a usage error that fails
    // the CI job and leaves merge a shard short.
    if (!selectsAnything(selection, filter, profile)) {
      throw new UsageError(`the selection matches no case (${[flags.grep ? `--grep ${JSON.stringify(flags.grep)}` : '', ...(flags.tag ?? []).map((t) => `--tag ${t}`)].filter(Boolean).join(' ')}): nothing to run`);
    }
    const selectionNames = [...selection.plans.map((p) => p.spec.name), ...selection.programmatic.map((s) => s.name)];
    let shardInfo: NonNullable<Report['shard']> | undefined;
    if (shardSpec) {
      const costs = [...selection.plans.map((p) => ({ name: p.spec.name, cost: suiteCost(p) })), ...selection.programmatic.map((s) => ({ name: s.name, cost: suiteCost(s) }))];
      const mine = new Set(partition(costs, shardSpec.count)[shardSpec.index - 1]);
      selection = { plans: selection.plans.filter((p) => mine.has(p.spec.name)), programmatic: selection.programmatic.filter((s) => mine.has(s.name)) };
      shardInfo = { ...shardSpec, suites: selectionNames.filter((n) => mine.has(n)), selection: selectionNames, fuzzRuns };
    }
    // The cases selected within the suites are part of the selection too: a shard run with another --grep is
    // another run, and merge must refuse it (it merged a green report of a fraction of the cases).
    if (shardInfo && (filter.grep !== undefined || filter.tags?.length)) shardInfo.filter = { ...filter };
    const manifest: ManifestSettings = {
      tool: `${TOOL.name}@${TOOL.version}`, spec: SPEC_NAME, seed, fuzz_runs: fuzzRuns,
      target: reference ? 'reference' : redactor.text(profile.baseUrl),
      ...(flags.fault?.length ? { faults: [...flags.fault] } : {}),
      // What the requests asked for, so a replay asks the same without repeating --model or the config.
      models: { ...profile.models, ...profile.optionalModels },
      ...(filter.grep !== undefined || filter.tags?.length ? { filter: { ...filter } } : {}),
    };
    if ((mode === 'record' || mode === 'dryrun' || mode === 'update') && readsFolder) {
      const problem = checkRecordingFolder(mode, flags.cassettes!, namesOf(selection), manifest);
      if (problem) {
        io.err.write(problemLine(problem, redactor));
        return EXIT.runtime;
      }
    }
    if (mode !== 'lockdown' && needsApi(selection)) {
      // Can the run reach the target, and does it take the key? If not, say so once and judge nothing.
      // The same connection later asks whether a target that stopped answering a case still answers at all.
      probe = new LiveTransport({ maxResponseBytes: profile.maxResponseBytes, redactor });
      const problem = await preflight(probe, profile, io.interrupt);
      if (problem) {
        io.err.write(problemLine(problem, redactor));
        return EXIT.runtime;
      }
    }
    const transport = await createTransport({
      profile, redactor, record: flags.record ?? false, seed,
      ...(flags.cassettes ? { cassettes: resolve(flags.cassettes) } : {}),
      ...(flags['record-mode'] ? { recordMode: flags['record-mode'] } : {}),
      onNotice: (message) => io.err.write(`${message}\n`),
      manifest,
      ...(reference ? { placeholderOrigins: [reference.url] } : {}),
      // Only the embedded target's remote plugins need it (and node:tls, node:dns): loaded for them alone.
      ...(reference?.remotePlugins ? { connect: (await import('../reference/remote-connect.ts')).remoteConnect(reference.remotePlugins) } : {}),
    });

    // Live runs: a shared token bucket, and retries of rate-limit answers kept out of the verdicts.
    const throttled = cassetteMode ? undefined : new ThrottledTransport(transport, { ...(ratePerSecond !== undefined ? { ratePerSecond } : {}), ...(io.interrupt ? { interrupt: io.interrupt } : {}) });
    const color = io.isTTY && !flags['no-color'] && io.env.CI !== 'true' && !io.env.NO_COLOR;
    const progress = new Progress(io.out, { mode: io.isTTY && io.env.CI !== 'true' ? 'tty' : 'plain', columns: () => (io.out as { columns?: number }).columns });
    // Reproduce commands leave credentials out: say so when this run's came from flags the environment lacks.
    const reproduceHint = reference || replayed ? undefined : reproduceCredentialsHint(flags, io.env);
    const reporter = new ConsoleReporter(io.out, { color, verbose: flags.verbose ?? false, progress, ...(reproduceHint ? { reproduceHint } : {}) });
    // The console sees only redacted results: a target may echo the key back ("Incorrect API key provided: sk-…").
    // Only what the console prints is redacted on the way: a case's results are printed only with --verbose (the
    // progress line counts them), so without it they are not copied through the redactor, case after case; and
    // an event that holds no secret is passed on as it is (Redactor.shared: the reporter only reads it).
    const listener = (event: Parameters<typeof reporter.listener>[0]): void =>
      reporter.listener(event.type === 'case-end' && !flags.verbose ? { ...event, results: [] } : redactor.shared(event));
    const shownTarget = reference ? 'the embedded reference server' : mode === 'lockdown' ? `cassettes in ${flags.cassettes}` : profile.baseUrl;
    const suiteCount = selection.plans.length + selection.programmatic.length;
    io.out.write(`conformance ${TOOL.version} · target ${shownTarget}${reference?.faults.length ? ` (faults: ${reference.faults.join(', ')})` : ''} · seed ${seed} · ${suiteCount} suites\n`);

    const startedAt = new Date();
    if (io.ownsProcess) widenYoungGenerationForRun();
    let run: Awaited<ReturnType<typeof runSuites>> | undefined;
    try {
      run = await runSuites({
        ...selection,
        transport: throttled ?? transport, profile, registry: harness.registry, schemas: harness.schemas, seed, jobs, reportPasses: flags['report-passes'] ?? false,
        severityOf: (id) => harness.catalogue.byId.get(id)?.severity,
        filter,
        listener, reproduce,
        suiteMeta: { tool: `${TOOL.name}@${TOOL.version}`, spec: SPEC_NAME, target: reference ? 'reference' : profile.baseUrl },
        ...(io.interrupt ? { signal: io.interrupt } : {}),
        ...(probe ? { stillAnswers: stillAnswers(probe, profile, { ...(io.interrupt ? { signal: io.interrupt } : {}), ...(throttled ? { beforeSend: () => throttled.acquire() } : {}) }) } : {}),
      });
    } finally {
      // A run that was interrupted or crashed replaces no cassette: the folder keeps one recording, never a mix.
      await transport.close({ complete: run !== undefined && !run.interrupted });
    }
    const report = buildReport(run, {
      tool: TOOL, spec: SPEC_NAME, startedAt,
      target: {
        baseUrl: reference ? 'reference' : profile.baseUrl,
        ...(profile.pluginUrl ? { pluginUrl: reference ? 'reference' : profile.pluginUrl } : {}),
        transport: transport.name, models: { ...profile.models }, areas: [...profile.areas],
        ...(reference?.faults.length ? { faults: [...reference.faults] } : {}),
      },
    }, harness.catalogue);
    if (shardInfo) report.shard = shardInfo;
    if (throttled && (throttled.stats.count > 0 || throttled.stats.waitedMs > 0)) report.retries = { ...throttled.stats, byStatus: { ...throttled.stats.byStatus } };
    // The reports see only redacted text; results without a secret in them are not copied (see Redactor.shared).
    const redacted = redactor.shared(report);
    const paths = await writeReports(reportDir, redacted, harness.catalogue);
    reporter.finish(redacted, paths);
    io.onReport?.(redacted);
    for (const line of reportToGithub(redacted, io.env)) io.out.write(`${line}\n`);
    for (const problem of run.problems) io.err.write(problemLine(problem, redactor));
    if (run.interrupted) return io.interrupt?.reason === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
    if (run.problems.length > 0) return EXIT.runtime;
    return report.verdict === 'pass' ? EXIT.ok : EXIT.failed;
  } finally {
    await probe?.close();
    await reference?.close();
  }
}

/**
 * Where the run goes and with which credentials: flags first; then, for a live target of the user's, the
 * environment; else the embedded reference server's own, or (when replaying) the settings recorded in the
 * cassettes — placeholders for keys, never real ones. A key exported for a live service is not the embedded
 * server's, and a replay answers as recorded: neither takes credentials from the environment.
 */
function target(flags: RunFlags, io: Io, reference: ReferenceServer | undefined, replayed: RecordedSettings | undefined) {
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

/**
 * A replay replays what was recorded: the suites the folder holds, unless --suite names others. A suite it lacks,
 * or holds but cannot replay as recorded, is a problem of the run (the recording's), never a verdict on the target.
 */
function replaySelection(chosen: Selection, dir: string, asked: readonly string[]): Selection | RunProblem {
  const folder = readCassetteFolder(dir);
  const held = folder.suites;
  const names = namesOf(chosen);
  // Also names the selection dropped before this point (a fuzz suite, when the recording has no fuzz runs).
  const dropped = asked.filter((n) => !held.has(n) && ![...held].some((h) => h.startsWith(`${n}-`)));
  const missing = [...new Set([...names.filter((n) => !held.has(n)), ...dropped])];
  if (asked.length && missing.length) {
    const unreadable = missing.map((n) => folder.defects.get(n)).filter((d) => d !== undefined);
    if (unreadable.length > 0) return defectsProblem(dir, unreadable, folder.manifest);
    return { kind: 'cassette-missing', message: `${dir} holds no recording of ${missing.join(', ')} (it holds: ${[...held].sort().join(', ') || 'nothing'})`, hint: 'record them (--record --cassettes DIR), or select recorded suites' };
  }
  const selection = { plans: chosen.plans.filter((p) => held.has(p.spec.name)), programmatic: chosen.programmatic.filter((s) => held.has(s.name)) };
  const selected = namesOf(selection);
  if (selected.length === 0) return { kind: 'cassette-missing', message: `${dir} holds no cassette`, hint: 'record one with --record --cassettes DIR' };
  const defects = selected.map((n) => folder.defects.get(n)).filter((d) => d !== undefined);
  return defects.length > 0 ? defectsProblem(dir, defects, folder.manifest) : selection;
}

function namesOf(selection: Selection): string[] {
  return [...selection.plans.map((p) => p.spec.name), ...selection.programmatic.map((s) => s.name)];
}

/**
 * Before anything is sent to the target. `record` and `dryrun` replay the cassettes the folder has: those of the
 * selection must be readable, and this folder's recording's. A recording (`record`, `update`) must not leave the
 * folder holding two recordings: a replay takes one seed and target, from the manifest, for every suite. That one
 * is the user's to mend by flags: a usage error (thrown), not a problem of the run.
 */
function checkRecordingFolder(mode: 'record' | 'dryrun' | 'update', dir: string, names: readonly string[], run: ManifestSettings): RunProblem | undefined {
  const folder = readCassetteFolder(dir);
  if (mode !== 'update') {
    const defects = names.map((n) => folder.defects.get(n)).filter((d): d is CassetteDefect => d !== undefined && d.kind !== 'missing');
    if (defects.length > 0) return defectsProblem(dir, defects, folder.manifest);
  }
  if (mode === 'dryrun') return undefined;
  // `record` replays the suites that have a cassette, and records only the others.
  const recording = mode === 'update' ? names : names.filter((n) => !existsSync(cassettePath(dir, n)));
  const mixed = mixedRecording(dir, folder, recording, run);
  if (mixed !== undefined) throw new UsageError(mixed);
  return undefined;
}

/** Why recording these suites into the folder would mix two recordings in it, if it would. */
function mixedRecording(dir: string, folder: CassetteFolder, recording: readonly string[], run: ManifestSettings): string | undefined {
  const held = folder.manifest;
  const kept = [...folder.suites].filter((s) => !recording.includes(s)).sort();
  if (held === undefined || recording.length === 0 || kept.length === 0) return undefined;
  const differences = [
    ...(held.seed !== run.seed ? [{ what: `seed ${held.seed} (this run: ${run.seed})`, fix: `pass --seed ${held.seed}` }] : []),
    ...(targetName(held) !== targetName(run) ? [{ what: `target ${targetName(held)} (this run: ${targetName(run)})`, fix: `record against ${targetAdvice(held)}` }] : []),
    // A replay runs every fuzz suite with the manifest's fuzz runs.
    ...(held.fuzz_runs !== run.fuzz_runs && kept.some((s) => FUZZ_SUITE_NAMES.includes(s)) ? [{ what: `--fuzz-runs ${held.fuzz_runs} (this run: ${run.fuzz_runs})`, fix: `pass --fuzz-runs ${held.fuzz_runs}` }] : []),
  ];
  if (differences.length === 0) return undefined;
  return `--cassettes ${dir} holds a recording made with ${differences.map((d) => d.what).join(' and ')}: recording only ${recording.join(', ')} into it would leave ${kept.join(', ')} of the other recording, and the folder would not replay; ${differences.map((d) => d.fix).join(' and ')}, re-record all its suites (add ${kept.map((s) => `--suite ${s}`).join(' ')}), or record into an empty folder`;
}

function targetAdvice(m: { target: string; faults?: string[] }): string {
  if (m.target !== 'reference') return m.target;
  return `the embedded reference server (no --base-url${m.faults?.length ? `, ${m.faults.map((f) => `--fault ${f}`).join(' ')}` : ''})`;
}

/** The target as a manifest names it, with the embedded server's faults (they change its answers). */
function targetName(m: { target: string; faults?: string[] }): string {
  return m.faults?.length ? `${m.target} (faults: ${[...m.faults].sort().join(', ')})` : m.target;
}

/** Cassettes a replay cannot use, as one problem: each file and what is wrong with it, and how to mend the folder. */
function defectsProblem(dir: string, defects: readonly CassetteDefect[], manifest: { seed?: number; faults?: string[] } | undefined): RunProblem {
  const broken = defects.filter((d) => d.kind !== 'unlisted').map((d) => d.suite);
  const strays = defects.filter((d) => d.kind === 'unlisted').map((d) => d.file);
  // The command is refused unless it names the recording's target as the recording did: its seed and its faults.
  const same = `${manifest?.seed !== undefined ? ` --seed ${manifest.seed}` : ''}${(manifest?.faults ?? []).map((f) => ` --fault ${shellWord(f)}`).join('')}`;
  const hints = [
    ...(broken.length ? [`re-record ${broken.join(', ')} into it against the same target (--record --cassettes ${shellWord(dir)} ${broken.map((n) => `--suite ${n}`).join(' ')}${same}), or leave ${broken.length === 1 ? 'it' : 'them'} out with --suite`] : []),
    ...(strays.length ? [`move ${strays.join(', ')} out of the folder (another recording's), or record ${strays.length === 1 ? 'its suite' : 'their suites'} into this folder`] : []),
  ];
  return { kind: 'cassette-missing', message: `${dir} cannot be replayed as recorded: ${defects.map((d) => d.message).join('; ')}`, hint: hints.join('; ') };
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

/** Whether a --grep/--tag selection matches any case of any selected suite (no selection matches everything). */
function selectsAnything(selection: Selection, filter: CaseFilter, profile: Parameters<typeof preflight>[1]): boolean {
  if (!filter.grep && !filter.tags?.length) return true;
  return selection.plans.some((p) => selectCases(p.spec.cases, filter, p.spec.tags).size > 0) || selection.programmatic.some((s) => s.selects(filter, profile));
}

/** Suites other than the plugin checker talk to the API, so the preflight applies to them. */
function needsApi(selection: Selection): boolean {
  return selection.plans.length > 0 || selection.programmatic.some((s) => s.area !== 'plugins');
}

/** One line for a problem of the run: what happened, and what to do. Keys the target echoed are redacted. */
function problemLine(problem: RunProblem, redactor: Redactor): string {
  const where = problem.suite ? ` (suite ${problem.suite})` : '';
  return redactor.text(`error: ${problem.message}${where}${problem.hint ? `\n  hint: ${problem.hint}` : ''}\n  nothing was judged${problem.suite ? ' after this point in that suite' : ''}: this is not a verdict on the target (exit 3)\n`);
}

/**
 * The one-line command that reruns a case: every argument that changes behaviour or finds the suite (a user's
 * own suite files and folders, --only, --suites-dir), never a key (keys come from the environment).
 */
function reproducer(flags: RunFlags, paths: readonly string[], seed: number, reference: boolean) {
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

