// `conformance run`: the main job. Prints, picks the exit code; everything else is delegated.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildProfile, parseModelFlag, readProfileConfig, type ProfileConfig } from '../profile/profile.ts';
import type { Role } from '../profile/types.ts';
import { runSuites } from '../engine/run.ts';
import { buildReport, ConsoleReporter, writeReports } from '../report/index.ts';
import { Redactor } from '../util/redact.ts';
import { repoRoot } from '../util/paths.ts';
import { intFlag, parseFlags, RUN_FLAGS, RUN_HELP } from './args.ts';
import { loadHarness, UsageError } from './setup.ts';
import { createTransport } from './transports.ts';
import { startReferenceServer, type ReferenceServer } from '../reference/index.ts';

export const TOOL = { name: 'model-api-conformance', version: String(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version) };
export const SPEC_NAME = 'service-api-and-plugin-spec.md';

export interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  /** Process-level interrupt (SIGINT); the run stops starting cases, cleans up, and reports. */
  interrupt?: AbortSignal;
}

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, RUN_FLAGS);
  if (flags.help) { io.out.write(RUN_HELP + '\n'); return 0; }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (see conformance run --help)`);

  const config: ProfileConfig = flags.config ? readProfileConfig(resolve(flags.config)) : {};
  const models: Partial<Record<Role, string>> = {};
  for (const m of flags.model ?? []) { const [role, name] = parseModelFlag(m); models[role] = name; }
  const seed = intFlag(flags.seed, 'seed') ?? Math.floor(Math.random() * 2 ** 31);
  const requestTimeoutMs = intFlag(flags.timeout, 'timeout', 1);
  const pollDeadlineMs = intFlag(flags['poll-deadline'], 'poll-deadline', 1);
  const trainingMs = intFlag(flags['training-ms'], 'training-ms', 1);
  const harness = loadHarness({ suiteNames: flags.suite ?? [], ...(flags['suites-dir'] ? { suitesDir: resolve(flags['suites-dir']) } : {}) });

  const wantsTarget = flags['base-url'] ?? config.base_url;
  const replaying = flags.cassettes !== undefined && !flags.record;
  if (flags.record && !flags.cassettes) throw new UsageError('--record needs --cassettes DIR');
  if (flags.fault?.length && wantsTarget) throw new UsageError('--fault applies to the embedded reference server; it cannot be combined with --base-url');

  let reference: ReferenceServer | undefined;
  if (!wantsTarget && !replaying) {
    reference = await startReferenceServer({ ...(flags.fault ? { faults: flags.fault } : {}), ...(trainingMs ? { trainingMs } : { trainingMs: 300 }) });
  }
  try {
    const apiKey = flags['api-key'] ?? io.env.CONFORMANCE_API_KEY ?? reference?.credentials.apiKey;
    const profile = buildProfile(config, {
      baseUrl: flags['base-url'] ?? reference?.url ?? (replaying ? 'http://127.0.0.1:9' : undefined),
      ...(flags['plugin-url'] ?? reference?.pluginUrl ? { pluginUrl: flags['plugin-url'] ?? reference!.pluginUrl } : {}),
      models,
      credentials: {
        ...(apiKey ? { apiKey } : {}),
        ...((flags['member-api-key'] ?? reference?.credentials.memberApiKey) ? { memberApiKey: flags['member-api-key'] ?? reference!.credentials.memberApiKey } : {}),
        ...((flags.organization ?? reference?.credentials.organization) ? { organization: flags.organization ?? reference!.credentials.organization } : {}),
        ...((flags['other-organization'] ?? reference?.credentials.otherOrganization) ? { otherOrganization: flags['other-organization'] ?? reference!.credentials.otherOrganization } : {}),
      },
      ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
      ...(pollDeadlineMs ? { pollDeadlineMs } : {}),
    });
    const secrets = [profile.credentials.apiKey, profile.credentials.memberApiKey].filter((s): s is string => !!s);
    const redactor = new Redactor({ secretHeaders: profile.secretHeaders, secretValues: secrets });
    const transport = await createTransport({
      profile, redactor, record: flags.record ?? false, seed,
      ...(flags.cassettes ? { cassettes: resolve(flags.cassettes) } : {}),
      ...(flags['record-mode'] ? { recordMode: flags['record-mode'] } : {}),
    });

    const color = io.isTTY && !flags['no-color'] && io.env.CI !== 'true' && !io.env.NO_COLOR;
    const reporter = new ConsoleReporter(io.out, { color, verbose: flags.verbose ?? false });
    const target = reference ? 'the embedded reference server' : profile.baseUrl;
    io.out.write(`conformance ${TOOL.version} · target ${target}${reference?.faults.length ? ` (faults: ${reference.faults.join(', ')})` : ''} · seed ${seed} · ${harness.plans.length} suites\n`);

    const startedAt = new Date();
    const reproduce = reproducer(flags, seed, !!reference);
    let run;
    try {
      run = await runSuites({
        plans: harness.plans, transport, profile, registry: harness.registry, schemas: harness.schemas, seed,
        filter: { ...(flags.grep ? { grep: flags.grep } : {}), ...(flags.tag ? { tags: flags.tag } : {}) },
        listener: reporter.listener, reproduce,
        suiteMeta: { tool: `${TOOL.name}@${TOOL.version}`, spec: SPEC_NAME, target: reference ? 'reference' : profile.baseUrl },
        ...(io.interrupt ? { signal: io.interrupt } : {}),
      });
    } finally {
      await transport.close();
    }
    const report = buildReport(run, {
      tool: TOOL, spec: SPEC_NAME, startedAt,
      target: { baseUrl: reference ? 'reference' : profile.baseUrl, ...(profile.pluginUrl ? { pluginUrl: reference ? 'reference' : profile.pluginUrl } : {}), transport: transport.name, models: { ...profile.models }, areas: [...profile.areas] },
    }, harness.catalogue);
    const paths = await writeReports(resolve(flags['report-dir'] ?? join(repoRoot, 'reports')), redactor.value(report), harness.catalogue);
    reporter.finish(report, paths);
    if (run.interrupted) return 130;
    return report.verdict === 'pass' ? 0 : 1;
  } finally {
    await reference?.close();
  }
}

/** The one-line command that reruns a case; keys are never part of it (they come from the environment). */
function reproducer(flags: ReturnType<typeof parseFlags<typeof RUN_FLAGS>>['values'], seed: number, reference: boolean) {
  const fixed: string[] = ['npx conformance run'];
  if (!reference && flags['base-url']) fixed.push(`--base-url ${flags['base-url']}`);
  if (flags.config) fixed.push(`--config ${flags.config}`);
  for (const m of flags.model ?? []) fixed.push(`--model ${m}`);
  for (const f of flags.fault ?? []) fixed.push(`--fault ${f}`);
  if (flags.cassettes && !flags.record) fixed.push(`--cassettes ${flags.cassettes}`);
  return (suite: string, caseId: string) => [...fixed, `--suite ${suite}`, `--grep ${caseId}`, `--seed ${seed}`].join(' ');
}
