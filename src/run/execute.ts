// `conformance run` as stages, shared by the CLI and the library: resolve the plan → start the target → choose the
// suites → build the transport stack → execute → emit the reports. Returns the report, the run's problems and the
// exit code; prints only through the Io it is given.

import { resolve } from 'node:path';
import { runSuites, selectCases, type CaseFilter } from '../engine/index.ts';
import { preflight, stillAnswers } from '../engine/preflight.ts';
import { parseShard, partition, suiteCost } from '../engine/shard.ts';
import type { RunProblem, RunResult } from '../engine/types.ts';
import { FUZZ_SUITE_NAMES } from '../fuzz/names.ts';
import { buildProfile } from '../profile/profile.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { ReferenceServer } from '../reference/index.ts';
import { REMOTE_PLUGIN_VARIANTS } from '../reference/remote-plugins.ts';
import { Reporting, type ReporterContext, type ReportMeta } from '../report/index.ts';
import { Progress } from '../report/progress.ts';
import type { Report } from '../report/types.ts';
import { LiveTransport } from '../transport/live.ts';
import type { ManifestSettings } from '../transport/record.ts';
import { ThrottledTransport } from '../transport/throttle.ts';
import type { Transport } from '../transport/types.ts';
import { Redactor } from '../util/redact.ts';
import { intFlag } from './args.ts';
import { reproduceCredentialsHint } from './credentials.ts';
import { emitReports, refused, type RunOutcome } from './emit.ts';
import type { Io } from './io.ts';
import { reproducer, resolvePlan, target, type RunPlan, type RunRequest } from './plan.ts';
import { checkRecordingFolder, namesOf, replaySelection } from './recording-folder.ts';
import { selectSuites, type Selection } from './suite-selection.ts';
import { SPEC_NAME, TOOL } from './tool.ts';
import { createTransport } from './transports.ts';
import { UsageError } from './usage-error.ts';
import { widenYoungGenerationForRun } from './young-generation.ts';

export type { RunOutcome } from './emit.ts';

export async function executeRun(request: RunRequest, io: Io): Promise<RunOutcome> {
  const plan = await resolvePlan(request);
  const reference = await startTarget(plan);
  let probe: LiveTransport | undefined;
  try {
    const chosen = await chooseSuites(plan, reference, io);
    if ('problem' in chosen) return refused(chosen.problem, { redactor: chosen.redactor, subject: 'target' }, io);
    const stack = await buildTransportStack(plan, chosen, reference, io);
    probe = stack.probe;
    if ('problem' in stack) return refused(stack.problem, { redactor: chosen.redactor, subject: 'target' }, io);
    const executed = await execute(plan, { chosen, stack, reference }, io);
    return await emitRun(plan, { chosen, stack, reference, ...executed }, io);
  } finally {
    await probe?.close();
    await reference?.close();
  }
}

/** The embedded reference server, unless the run has a target of the user's or replays. */
async function startTarget(plan: RunPlan): Promise<ReferenceServer | undefined> {
  const { flags, mode, wantsTarget, readings } = plan;
  if (wantsTarget || mode === 'lockdown') return undefined;
  // A short loading period after each fine-tune, so the suites' retry-while-loading path really runs.
  const latencyMs = intFlag(flags['latency-ms'], 'latency-ms');
  // With latency the simulated training takes longer too: a job must still be running when a suite, a few
  // slow requests later, cancels it (a real fine-tune takes minutes).
  const { startReferenceServer, paceOf } = await import('../reference/index.ts');
  // Live, the embedded target also serves a remote plugin per auth variant (HTTPS, names only this run
  // resolves), so the variants' manifest rules are judged too; recordings keep the local plugin only.
  const remotePlugins = (mode === 'live' || mode === 'wild') && !flags.only;
  const pace = paceOf(flags.pace);
  const { trainingMs } = plan.timeouts;
  const timing = pace === 'slow' ? { ...(trainingMs ? { trainingMs } : {}) } : { trainingMs: trainingMs ?? 300 + 30 * (latencyMs ?? 0), modelLoadMs: 150 };
  return startReferenceServer({ ...(flags.fault ? { faults: flags.fault } : {}), ...(readings.length ? { readings } : {}), remotePlugins, pace, ...timing, ...(latencyMs ? { latencyMs } : {}) });
}

/** What the run judges, against what, and how it names it: the profile, the redactor, the suites and cases, the shard. */
interface Chosen {
  profile: TargetProfile;
  redactor: Redactor;
  reproduce: (suite: string, caseId: string) => string;
  selection: Selection;
  filter: CaseFilter;
  shardInfo: NonNullable<Report['shard']> | undefined;
  manifest: ManifestSettings;
}

async function chooseSuites(plan: RunPlan, reference: ReferenceServer | undefined, io: Io): Promise<Chosen | { problem: RunProblem; redactor: Redactor }> {
  const { flags, mode, timeouts } = plan;
  const profile = buildProfile(plan.config, {
    ...target(plan, io, reference),
    models: plan.models,
    ...(timeouts.requestTimeoutMs ? { requestTimeoutMs: timeouts.requestTimeoutMs } : {}),
    ...(timeouts.pollDeadlineMs ? { pollDeadlineMs: timeouts.pollDeadlineMs } : {}),
    ...(timeouts.modelLoadMs ? { modelLoadMs: timeouts.modelLoadMs } : {}),
  });
  const secrets = [profile.credentials.apiKey, profile.credentials.memberApiKey].filter((s): s is string => !!s);
  const redactor = new Redactor({ secretHeaders: profile.secretHeaders, secretValues: secrets });
  const reproduce = reproducer(plan, !!reference);
  const chosen = selectSuites(flags.suite ?? [], plan.harness.plans, await codedSuites(plan, reference, reproduce), flags.only ? [] : FUZZ_SUITE_NAMES);
  let selection = chosen;
  if (mode === 'lockdown') {
    const replay = replaySelection(chosen, flags.cassettes!, flags.suite ?? []);
    if ('kind' in replay) return { problem: replay, redactor };
    selection = replay;
  }
  // A replay selects the cases its recording selected, unless told otherwise (it holds no others).
  const recordedFilter = mode === 'lockdown' && !flags.grep && !flags.tag ? plan.replayed?.filter : undefined;
  const filter: CaseFilter = recordedFilter ? { ...recordedFilter } : { ...(flags.grep ? { grep: flags.grep } : {}), ...(flags.tag ? { tags: flags.tag } : {}) };
  const part = shardOf(plan, { selection, filter, profile });
  const manifest: ManifestSettings = {
    tool: `${TOOL.name}@${TOOL.version}`, spec: SPEC_NAME, seed: plan.seed, fuzz_runs: plan.fuzz.runs,
    target: reference ? 'reference' : redactor.text(profile.baseUrl),
    ...(flags.fault?.length ? { faults: [...flags.fault] } : {}),
    // What the requests asked for, so a replay asks the same without repeating --model or the config.
    models: { ...profile.models, ...profile.optionalModels },
    ...(filter.grep !== undefined || filter.tags?.length ? { filter: { ...filter } } : {}),
  };
  if ((mode === 'record' || mode === 'dryrun' || mode === 'update') && plan.readsFolder) {
    const problem = checkRecordingFolder(mode, flags.cassettes!, namesOf(part.selection), manifest);
    if (problem) return { problem, redactor };
  }
  return { profile, redactor, reproduce, selection: part.selection, filter, shardInfo: part.shardInfo, manifest };
}

/** The suites written in code: fuzzing, the plugin checker, and the embedded target's remote plugins. --only: none. */
async function codedSuites(plan: RunPlan, reference: ReferenceServer | undefined, reproduce: Chosen['reproduce']): Promise<Selection['programmatic']> {
  const { flags, pluginLimits, fuzz: f } = plan;
  const fuzz = f.runs > 0 && !flags.only ? (await import('../fuzz/suite.ts')).fuzzSuites({ runs: f.runs, budgetMs: f.budgetMs, reproduce, ...(flags['fuzz-path'] ? { path: flags['fuzz-path'] } : {}) }) : [];
  const remote = reference?.remotePlugins;
  const { pluginSuite } = flags.only ? { pluginSuite: undefined } : await import('../plugin/suite.ts');
  const remoteSuites = remote && pluginSuite ? REMOTE_PLUGIN_VARIANTS.map((variant) => {
    const name = `plugins-${variant.replace('_', '-')}`;
    return pluginSuite({ name, url: remote.urls[variant], limits: pluginLimits, reproduce: (c) => reproduce(name, c) });
  }) : [];
  return pluginSuite ? [pluginSuite({ limits: pluginLimits, reproduce: (c) => reproduce('plugins', c) }), ...remoteSuites, ...fuzz] : [];
}

/**
 * --shard I/N: this machine's part of the selection, the same on every machine for the same selection. Judged on
 * the whole selection first: a --grep that matches cases of other shards' suites only leaves this shard an empty
 * part (an empty report, exit 0), not a usage error that fails the CI job and leaves merge a shard short.
 */
function shardOf(plan: RunPlan, whole: { selection: Selection; filter: CaseFilter; profile: TargetProfile }): { selection: Selection; shardInfo: Chosen['shardInfo'] } {
  const { flags } = plan;
  const { selection, filter, profile } = whole;
  const shardSpec = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  if (flags.shard !== undefined && !shardSpec) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N (got "${flags.shard}")`);
  if (!selectsAnything(selection, filter, profile)) {
    throw new UsageError(`the selection matches no case (${[flags.grep ? `--grep ${JSON.stringify(flags.grep)}` : '', ...(flags.tag ?? []).map((t) => `--tag ${t}`)].filter(Boolean).join(' ')}): nothing to run`);
  }
  if (!shardSpec) return { selection, shardInfo: undefined };
  const selectionNames = namesOf(selection);
  const costs = [...selection.plans.map((p) => ({ name: p.spec.name, cost: suiteCost(p) })), ...selection.programmatic.map((s) => ({ name: s.name, cost: suiteCost(s) }))];
  const mine = new Set(partition(costs, shardSpec.count)[shardSpec.index - 1]);
  const shardInfo: NonNullable<Report['shard']> = { ...shardSpec, suites: selectionNames.filter((n) => mine.has(n)), selection: selectionNames, fuzzRuns: plan.fuzz.runs };
  // The cases selected within the suites are part of the selection too: a shard run with another --grep is
  // another run, and merge must refuse it (it merged a green report of a fraction of the cases).
  if (filter.grep !== undefined || filter.tags?.length) shardInfo.filter = { ...filter };
  return { selection: { plans: selection.plans.filter((p) => mine.has(p.spec.name)), programmatic: selection.programmatic.filter((s) => mine.has(s.name)) }, shardInfo };
}

/** The transports, outermost first: throttle → live, record → throttle → live, or replay; and the preflight's own connection. */
interface Stack { transport: Transport; throttled: ThrottledTransport | undefined; probe: LiveTransport | undefined }

async function buildTransportStack(plan: RunPlan, chosen: Chosen, reference: ReferenceServer | undefined, io: Io): Promise<Stack | { problem: RunProblem; probe: LiveTransport | undefined }> {
  const { flags, mode } = plan;
  const { profile, redactor } = chosen;
  let probe: LiveTransport | undefined;
  if (mode !== 'lockdown' && needsApi(chosen.selection)) {
    // Can the run reach the target, and does it take the key? If not, say so once and judge nothing.
    // The same connection later asks whether a target that stopped answering a case still answers at all.
    probe = new LiveTransport({ maxResponseBytes: profile.maxResponseBytes, redactor });
    const listRequired = chosen.selection.plans.some((p) => p.spec.area === 'models');
    const problem = await preflight(probe, profile, { ...(io.interrupt ? { signal: io.interrupt } : {}), listRequired });
    if (problem) return { problem, probe };
  }
  // Whatever sends live (a recording too): a shared token bucket, and retries of rate-limit answers kept out of the
  // verdicts. A replay sends nothing and has none.
  let throttled: ThrottledTransport | undefined;
  const throttle = (live: Transport) => (throttled = new ThrottledTransport(live, { ...(plan.ratePerSecond !== undefined ? { ratePerSecond: plan.ratePerSecond } : {}), ...(io.interrupt ? { interrupt: io.interrupt } : {}) }));
  const transport = await createTransport({
    profile, redactor, record: flags.record ?? false, seed: plan.seed, throttle,
    ...(flags.cassettes ? { cassettes: resolve(flags.cassettes) } : {}),
    ...(flags['record-mode'] ? { recordMode: flags['record-mode'] } : {}),
    onNotice: (message) => io.err.write(`${message}\n`),
    manifest: chosen.manifest,
    ...(reference ? { placeholderOrigins: [reference.url] } : {}),
    // Only the embedded target's remote plugins need it (and node:tls, node:dns): loaded for them alone.
    ...(reference?.remotePlugins ? { connect: (await import('../reference/remote-connect.ts')).remoteConnect(reference.remotePlugins) } : {}),
  });
  return { transport, throttled, probe };
}

interface Running { chosen: Chosen; stack: Stack; reference: ReferenceServer | undefined }

async function execute(plan: RunPlan, running: Running, io: Io): Promise<{ run: RunResult; reporting: Reporting; startedAt: Date }> {
  const { flags, harness } = plan;
  const { chosen, stack, reference } = running;
  const { profile, selection } = chosen;
  // The console sees only redacted results: a target may echo the key back ("Incorrect API key provided: sk-…").
  const reporting = new Reporting(reporterContext(plan, running, io), ['console', 'github'], chosen.redactor);
  const shownTarget = reference ? 'the embedded reference server' : plan.mode === 'lockdown' ? `cassettes in ${flags.cassettes}` : profile.baseUrl;
  const suiteCount = selection.plans.length + selection.programmatic.length;
  io.out.write(`conformance ${TOOL.version} · target ${shownTarget}${reference?.faults.length ? ` (faults: ${reference.faults.join(', ')})` : ''} · seed ${plan.seed} · ${suiteCount} suites\n`);
  const startedAt = new Date();
  if (io.ownsProcess) widenYoungGenerationForRun();
  const { transport, throttled, probe } = stack;
  let run: RunResult | undefined;
  try {
    run = await runSuites({
      ...selection,
      transport, profile, registry: harness.registry, schemas: harness.schemas, seed: plan.seed, jobs: plan.jobs, reportPasses: flags['report-passes'] ?? false,
      severityOf: (id) => harness.catalogue.byId.get(id)?.severity,
      filter: chosen.filter,
      listener: reporting.listener, reproduce: chosen.reproduce,
      suiteMeta: { tool: `${TOOL.name}@${TOOL.version}`, spec: SPEC_NAME, target: reference ? 'reference' : profile.baseUrl },
      ...(io.interrupt ? { signal: io.interrupt } : {}),
      ...(probe ? { stillAnswers: stillAnswers(probe, profile, { ...(io.interrupt ? { signal: io.interrupt } : {}), ...(throttled ? { beforeSend: () => throttled.acquire() } : {}) }) } : {}),
    });
  } finally {
    // A run that was interrupted or crashed replaces no cassette: the folder keeps one recording, never a mix.
    await transport.close({ complete: run !== undefined && !run.interrupted });
  }
  return { run, reporting, startedAt };
}

function reporterContext(plan: RunPlan, running: Running, io: Io): ReporterContext {
  const { flags } = plan;
  const color = io.isTTY && !flags['no-color'] && io.env.CI !== 'true' && !io.env.NO_COLOR;
  const progress = new Progress(io.out, { mode: io.isTTY && io.env.CI !== 'true' ? 'tty' : 'plain', columns: () => (io.out as { columns?: number }).columns });
  // Reproduce commands leave credentials out: say so when this run's came from flags the environment lacks.
  const reproduceHint = running.reference || plan.replayed ? undefined : reproduceCredentialsHint(flags, io.env);
  return {
    dir: plan.reportDir, catalogue: plan.harness.catalogue, out: io.out, env: io.env,
    console: { color, verbose: flags.verbose ?? false, progress, ...(reproduceHint ? { reproduceHint } : {}) },
  };
}

async function emitRun(plan: RunPlan, done: Running & { run: RunResult; reporting: Reporting; startedAt: Date }, io: Io): Promise<RunOutcome> {
  const { chosen, stack, reference, run, reporting, startedAt } = done;
  const { profile, redactor } = chosen;
  const meta: ReportMeta = {
    tool: TOOL, spec: SPEC_NAME, startedAt,
    target: {
      baseUrl: reference ? 'reference' : profile.baseUrl,
      ...(profile.pluginUrl ? { pluginUrl: reference ? 'reference' : profile.pluginUrl } : {}),
      transport: stack.transport.name, models: { ...profile.models }, areas: [...profile.areas],
      ...(reference?.faults.length ? { faults: [...reference.faults] } : {}),
    },
  };
  const { throttled } = stack;
  return emitReports(run, {
    meta, catalogue: plan.harness.catalogue, reporting, redactor, subject: 'target',
    extend: (report) => {
      if (chosen.shardInfo) report.shard = chosen.shardInfo;
      if (throttled && (throttled.stats.count > 0 || throttled.stats.waitedMs > 0)) report.retries = { ...throttled.stats, byStatus: { ...throttled.stats.byStatus } };
    },
  }, io);
}

/** Whether a --grep/--tag selection matches any case of any selected suite (no selection matches everything). */
function selectsAnything(selection: Selection, filter: CaseFilter, profile: TargetProfile): boolean {
  if (!filter.grep && !filter.tags?.length) return true;
  return selection.plans.some((p) => selectCases(p.spec.cases, filter, p.spec.tags).size > 0) || selection.programmatic.some((s) => s.selects(filter, profile));
}

/** Suites other than the plugin checker talk to the API, so the preflight applies to them. */
function needsApi(selection: Selection): boolean {
  return selection.plans.length > 0 || selection.programmatic.some((s) => s.area !== 'plugins');
}
