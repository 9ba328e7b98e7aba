// The library form of `conformance run`: the same command, driven by options instead of argv, returning the
// report object. One code path for both, so a library run and a CLI run with the same settings agree.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../cli/main.ts';
import type { Report } from '../report/types.ts';

export interface RunConformanceOptions {
  /** The API base, e.g. http://127.0.0.1:8080 (or …/v1). Without it the embedded reference server is used. */
  baseUrl?: string;
  apiKey?: string;
  memberApiKey?: string;
  organization?: string;
  otherOrganization?: string;
  pluginUrl?: string;
  /** A target profile (YAML): models, context lengths, claimed areas, timeouts. */
  config?: string;
  /** Model per role, e.g. { chat: 'my-chat-model' }. */
  models?: Record<string, string>;
  /** Built-in suites to run by name (all when omitted). */
  suites?: string[];
  /** Suite files or folders of your own, added to the built-in suites (with `only`, instead of them). */
  paths?: string[];
  only?: boolean;
  tags?: string[];
  grep?: string;
  seed?: number;
  /** Random fuzz cases per property (0 leaves the fuzz suites out). */
  fuzzRuns?: number;
  timeoutMs?: number;
  /** Replay from (or, with `record`, record to) this cassette folder. */
  cassettes?: string;
  record?: boolean;
  /** Faults of the embedded reference server (no baseUrl). */
  faults?: string[];
  /** Where report.json, junit.xml and summary.md go; without it they are written to a temporary folder and removed. */
  reportDir?: string;
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

/** Options → the argv `conformance run` takes, so both forms share one parser and one validation. */
export function runArgv(o: RunConformanceOptions, reportDir: string): string[] {
  const argv: string[] = [...(o.paths ?? [])];
  const flag = (name: string, value: string | number | undefined) => { if (value !== undefined) argv.push(`--${name}`, String(value)); };
  flag('base-url', o.baseUrl);
  flag('api-key', o.apiKey);
  flag('member-api-key', o.memberApiKey);
  flag('organization', o.organization);
  flag('other-organization', o.otherOrganization);
  flag('plugin-url', o.pluginUrl);
  flag('config', o.config);
  for (const [role, name] of Object.entries(o.models ?? {})) flag('model', `${role}=${name}`);
  for (const s of o.suites ?? []) flag('suite', s);
  if (o.only) argv.push('--only');
  for (const t of o.tags ?? []) flag('tag', t);
  flag('grep', o.grep);
  flag('seed', o.seed);
  flag('fuzz-runs', o.fuzzRuns);
  flag('timeout', o.timeoutMs);
  flag('cassettes', o.cassettes);
  if (o.record) argv.push('--record');
  for (const f of o.faults ?? []) flag('fault', f);
  flag('report-dir', reportDir);
  return argv;
}

export async function runConformance(options: RunConformanceOptions = {}): Promise<RunConformanceResult> {
  const reportDir = options.reportDir ?? mkdtempSync(join(tmpdir(), 'conformance-report-'));
  let report: Report | undefined;
  let errors = '';
  const discard = { write: () => true };
  try {
    // Through main(), so bad options and bad suite files map to the same exit codes and messages as on the CLI.
    const exitCode = await main(['run', ...runArgv(options, reportDir)], {
      out: options.output ?? discard,
      err: { write: (s: string) => { errors += s; return options.output?.write(s) ?? true; } },
      env: { ...process.env, CI: 'true' },
      isTTY: false,
      ...(options.signal ? { interrupt: options.signal } : {}),
      onReport: (r) => { report = r; },
    });
    return { exitCode, report, errors };
  } finally {
    if (options.reportDir === undefined) rmSync(reportDir, { recursive: true, force: true });
  }
}
