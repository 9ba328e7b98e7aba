// `conformance diff --against DIR`: a differential run. The recorded requests go to another target and every
// answer is compared with the recorded one (see src/diff/). Differences are warnings (severity should): a
// difference is not a spec violation. Exit 0 unless --fail-on-difference and something differs (1), or a
// problem of the run (3).

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCatalogue } from '../catalogue/load.ts';
import { runDiff } from '../diff/run-diff.ts';
import { loadVolatility } from '../util/volatility.ts';
import { startReferenceServer, type ReferenceServer } from '../reference/index.ts';
import { buildReport } from '../report/build.ts';
import { Reporting } from '../report/index.ts';
import { readManifest } from '../transport/cassette.ts';
import { LiveTransport } from '../transport/live.ts';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../profile/profile.ts';
import { Redactor } from '../util/redact.ts';
import { shellWord } from '../util/shell-word.ts';
import { intFlag, parseFlags } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import type { Io } from '../run/io.ts';
import { SPEC_NAME, TOOL } from '../run/tool.ts';
import { UsageError } from '../run/usage-error.ts';
import { credentialsFrom } from '../run/credentials.ts';

export const DIFF_FLAGS = {
  against: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'member-api-key': { type: 'string' },
  organization: { type: 'string' },
  'other-organization': { type: 'string' },
  suite: { type: 'string', multiple: true },
  fault: { type: 'string', multiple: true },
  'report-dir': { type: 'string' },
  timeout: { type: 'string' },
  'poll-deadline': { type: 'string' },
  'fail-on-difference': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const DIFF_HELP = `Usage: conformance diff --against DIR [--base-url URL --api-key KEY] [options]

Sends the recorded requests of each cassette in DIR, in order, to a target and compares every answer with the
recorded one: status class, media type, JSON structure (keys, types, the array lengths a request fixes) and
the framing of event streams (data-only events, [DONE] last, chunk shape). What may differ between two
answers (ids, times, generated text, usage within a tolerance, embeddings by dimension and norm) is declared in
schemas/volatility.yaml. Ids the recording captured are re-bound to the target's own; a poll is repeated until
the target reaches the recorded state. Requests recorded without their bytes (multipart uploads) are skipped,
with what depends on them.

Every difference is a warning with a JSON pointer, recorded vs received: a difference is not a spec
violation. Reports go to --report-dir like those of conformance run.

  --against DIR              the cassette folder (a recording, or one imported from HAR)
  --base-url URL             the target (without it: the embedded reference server)
  --api-key KEY              or env CONFORMANCE_API_KEY
  --member-api-key KEY       for requests recorded with the member key; or env CONFORMANCE_MEMBER_API_KEY
  --organization ID          for requests recorded with the organization header; or env CONFORMANCE_ORGANIZATION
  --other-organization ID    for requests recorded with the other organization; or env CONFORMANCE_OTHER_ORGANIZATION
  --suite NAME               only this cassette; repeatable
  --fault NAME               a fault of the embedded reference server; repeatable
  --report-dir DIR           default ./reports
  --timeout MS               per request (default 30000)
  --poll-deadline MS         how long a recorded poll may take to reach its recorded state (default 60000)
  --fail-on-difference       exit 1 when anything differs (default: differences are warnings, exit 0)

Exit codes: 0 compared (with or without differences), 1 differences with --fail-on-difference, 2 usage,
3 a problem of the run (the target did not answer).`;

export async function diffCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags } = parseFlags(argv, DIFF_FLAGS);
  if (flags.help) { io.out.write(DIFF_HELP + '\n'); return EXIT.ok; }
  if (!flags.against) throw new UsageError('--against DIR names the cassette folder to compare with (conformance diff --against DIR)');
  const dir = resolve(flags.against);
  if (!existsSync(dir)) throw new UsageError(`--against ${flags.against}: no such folder`);
  if (flags.fault?.length && flags['base-url']) throw new UsageError('--fault applies to the embedded reference server; it cannot be combined with --base-url');
  const timeoutMs = intFlag(flags.timeout, 'timeout', 1) ?? 30_000;
  const pollDeadlineMs = intFlag(flags['poll-deadline'], 'poll-deadline', 1) ?? 60_000;
  const manifest = readManifest(dir);
  let reference: ReferenceServer | undefined;
  if (!flags['base-url']) reference = await startReferenceServer({ ...(flags.fault ? { faults: flags.fault } : {}), trainingMs: 300, modelLoadMs: 150 });
  const started = new Date();
  try {
    const credentials = reference?.credentials ?? credentialsFrom(flags, io.env);
    const redactor = new Redactor({ secretHeaders: ['authorization', 'service-organization'], secretValues: [credentials.apiKey, credentials.memberApiKey].filter((k): k is string => !!k) });
    const baseUrl = reference?.url ?? flags['base-url']!;
    const transport = new LiveTransport({ maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES, redactor });
    io.out.write(`conformance ${TOOL.version} diff · ${flags.against} against ${reference ? `the embedded reference server${flags.fault?.length ? ` (faults: ${flags.fault.join(', ')})` : ''}` : redactor.text(baseUrl)}\n`);
    const run = await runDiff({
      dir, baseUrl, credentials, transport, redactor, volatility: loadVolatility(), timeoutMs, pollDeadlineMs,
      ...(flags.suite ? { suites: flags.suite } : {}),
      ...(io.interrupt ? { signal: io.interrupt } : {}),
      reproduce: (suite) => ['npx conformance diff --against', shellWord(flags.against!), '--suite', shellWord(suite), ...(flags['base-url'] ? ['--base-url', shellWord(flags['base-url'])] : []), ...(flags.fault ?? []).flatMap((f) => ['--fault', shellWord(f)]), ...(flags['poll-deadline'] ? ['--poll-deadline', flags['poll-deadline']] : []), ...(flags.timeout ? ['--timeout', flags.timeout] : [])].join(' '),
      onSuite: (o) => io.out.write(`${o.counts.warn ? 'DIFF' : 'SAME'} ${o.suite}  ${o.counts.pass} same · ${o.counts.warn} different · ${o.counts.skip} not sent  (${(o.durationMs / 1000).toFixed(1)} s)\n`),
    }).finally(() => transport.close());
    const catalogue = loadCatalogue();
    const report = buildReport({ ...run, durationMs: Date.now() - started.getTime(), seed: manifest?.seed ?? 0 }, {
      tool: TOOL, spec: SPEC_NAME, startedAt: started,
      target: { baseUrl: reference ? 'reference' : redactor.text(baseUrl), transport: 'diff', models: {}, areas: [] },
    }, catalogue);
    // What is printed below is the redacted report's: a target may echo the key in an answer that differs.
    const { report: redacted, files: paths } = await new Reporting({ dir: resolve(flags['report-dir'] ?? 'reports'), catalogue, out: io.out, env: io.env }, [], redactor).end(report);
    const differences = redacted.results.filter((r) => r.status === 'warn');
    for (const [i, r] of differences.slice(0, 50).entries()) {
      io.out.write(`\n${i + 1}) ${r.suite} › ${r.caseTitle}\n`);
      for (const f of r.findings ?? []) io.out.write(`  at ${f.pointer || '/'}: ${f.message}\n    recorded: ${JSON.stringify(f.expected)}\n    received: ${JSON.stringify(f.actual)}\n`);
      if (r.reproduce) io.out.write(`  reproduce: ${r.reproduce}\n`);
    }
    if (differences.length > 50) io.out.write(`\n… and ${differences.length - 50} more in ${paths.json}\n`);
    const s = report.summary;
    io.out.write(`\n${s.passed} answers the same, ${s.warnings} different, ${s.skipped} not sent${s.errors ? `, ${s.errors} errors` : ''}\nreports: ${paths.json}, ${paths.junit}, ${paths.markdown}, ${paths.html}\n`);
    for (const p of redacted.problems) io.err.write(`error: ${p.message}\n  hint: ${p.hint ?? ''}\n`);
    if (run.interrupted) return io.interrupt?.reason === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
    if (run.problems.length > 0) return EXIT.runtime;
    return flags['fail-on-difference'] && differences.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await reference?.close();
  }
}
