// `conformance proxy --upstream URL`: record any client's traffic and judge every exchange as it passes.

import { resolve } from 'node:path';
import { startProxy, type ExchangeDone } from '../proxy/server.ts';
import { PROXY_MODES, type ProxyMode } from '../proxy/store.ts';
import { exitCodeFor, trafficReport, trafficSession, trafficSummaryLine, type FailOn } from '../traffic/session.ts';
import { Reporting } from '../report/index.ts';
import { NO_SECRETS } from '../util/redact.ts';
import { intFlag, matchHeaderFlags, parseFlags } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import type { Io } from '../run/io.ts';
import { SPEC_NAME, TOOL } from '../run/tool.ts';
import { UsageError } from '../run/usage-error.ts';
import { untilStopped } from '../run/until-stopped.ts';
import { widenYoungGenerationForServer } from '../run/young-generation.ts';

export const PROXY_FLAGS = {
  upstream: { type: 'string' }, record: { type: 'string' }, mode: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' },
  'report-dir': { type: 'string' }, 'fail-on': { type: 'string' }, 'no-judge': { type: 'boolean' }, timeout: { type: 'string' },
  'idle-timeout': { type: 'string' }, 'drain-timeout': { type: 'string' }, 'secret-header': { type: 'string', multiple: true }, 'max-request-bytes': { type: 'string' },
  'match-header': { type: 'string', multiple: true },
  'max-kept-bytes': { type: 'string' }, quiet: { type: 'boolean', short: 'q' }, help: { type: 'boolean', short: 'h' },
} as const;

export const PROXY_HELP = `Usage: conformance proxy --upstream URL [--record DIR] [--mode MODE] [--port N] [--host H]
                         [--report-dir DIR] [--fail-on must|should] [--no-judge]

A reverse proxy: point any client's base URL at it (http://HOST:PORT/v1). Every request goes to --upstream, every
answer comes back as it arrives (streams chunk by chunk), and every exchange is judged against the spec as it
passes, by the checks a run uses: one line per exchange, the reports when it stops (SIGINT/SIGTERM).

  --upstream URL         the service (its origin, and its base path if it has one before /v1)
  --record DIR           keep the exchanges as cassettes in DIR, one per name given by the request header
                         x-conformance-cassette (default name: proxy); keys are redacted, files written atomically
  --mode MODE            record (default: replay what a cassette holds, record the rest), update (record all again),
                         lockdown (replay only; a miss answers 404), dryrun (replay, write nothing), wild (forward only)
  --port N, --host H     where it listens (default 127.0.0.1 and a free port; the URL is printed)
  --report-dir DIR       report.json, junit.xml, summary.md and report.html when it stops (default: ./reports)
  --fail-on must|should  the exit code when it stops: 1 if a must (or any) rule broke (default: must)
  --no-judge             relay and record only
  --timeout MS           until the upstream's response headers (default 600000: a long generation)
  --idle-timeout MS      the longest quiet gap inside an answer (default 600000: a fine-tune event stream)
  --drain-timeout MS     on Ctrl-C/SIGTERM, how long answers under way may finish (default 10000); then they are
                         cut off, and cassettes and reports are written
  --secret-header NAME   another header whose value is secret (repeatable); authorization, cookies and API-key
                         headers always are
  --match-header NAME    a request header recordings are matched on besides method, path and body (repeatable;
                         none by default, so a client upgrade never breaks a replay); never a secret one
  --max-request-bytes N  the largest request body forwarded (default 67108864)
  --max-kept-bytes N     how much of one answer is judged and recorded (default 16777216); longer ones are relayed whole`;

/** One exchange: FAIL, WARN, ok (judged, nothing broken), none (judged by no rule: a 5xx, no answer), rply, miss. */
function line(d: ExchangeDone, judging: boolean): string {
  const must = d.results.filter((r) => r.status === 'fail' || r.status === 'error');
  const should = d.results.filter((r) => r.status === 'warn');
  const judged = !judging || d.results.some((r) => r.status === 'pass');
  const verdict = must.length ? 'FAIL' : should.length ? 'WARN' : d.source === 'upstream' ? (judged ? 'ok  ' : 'none') : d.source === 'cassette' ? 'rply' : 'miss';
  const head = `${verdict} ${String(d.status ?? '---')} ${d.method} ${d.path}  ${Math.round(d.durationMs)} ms  [${d.cassette}]`;
  const why = [...must, ...should].slice(0, 3).map((r) => `\n       ${r.severity} ${r.requirements.join(', ') || r.check}: ${r.message}`).join('');
  return `${head}${d.error ? `  (${d.error})` : ''}${why}\n`;
}

export async function proxyCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags } = parseFlags(argv, PROXY_FLAGS);
  if (flags.help) { io.out.write(PROXY_HELP + '\n'); return EXIT.ok; }
  if (!flags.upstream) throw new UsageError('--upstream URL names the service to forward to');
  if (!/^https?:\/\/[^/]/.test(flags.upstream)) throw new UsageError(`--upstream must be an http(s) URL, not ${JSON.stringify(flags.upstream)}`);
  const mode = (flags.mode ?? 'record') as ProxyMode;
  if (!PROXY_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${PROXY_MODES.join(', ')}, not ${JSON.stringify(flags.mode)}`);
  if (flags.mode && !flags.record && mode !== 'wild') throw new UsageError(`--mode ${mode} needs --record DIR (the cassettes it reads or writes)`);
  const failOn = (flags['fail-on'] ?? 'must') as FailOn;
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`--fail-on must be must or should, not ${JSON.stringify(flags['fail-on'])}`);
  const matchHeaders = matchHeaderFlags(flags['match-header'], flags['secret-header']);
  if (io.ownsProcess) widenYoungGenerationForServer();
  const startedAt = new Date();
  const session = flags['no-judge'] ? undefined : trafficSession(flags.upstream);
  const timeout = intFlag(flags.timeout, 'timeout', 1);
  const idle = intFlag(flags['idle-timeout'], 'idle-timeout', 1);
  const drain = intFlag(flags['drain-timeout'], 'drain-timeout', 0);
  const maxRequest = intFlag(flags['max-request-bytes'], 'max-request-bytes', 1);
  const maxKept = intFlag(flags['max-kept-bytes'], 'max-kept-bytes', 1);
  let forwarded = 0;
  const proxy = await startProxy({
    upstream: flags.upstream, ...(flags.host ? { host: flags.host } : {}), port: intFlag(flags.port, 'port') ?? 0,
    ...(flags.record ? { record: { dir: resolve(flags.record), mode } } : {}), ...(session ? { judge: session.judge } : {}),
    secretHeaders: flags['secret-header'] ?? [], matchHeaders, ...(timeout ? { headersTimeoutMs: timeout } : {}), ...(idle ? { idleTimeoutMs: idle } : {}), ...(drain !== undefined ? { drainMs: drain } : {}),
    ...(maxRequest ? { maxRequestBytes: maxRequest } : {}), ...(maxKept ? { maxKeptBytes: maxKept } : {}),
    onExchange: (d) => { if (d.source === 'upstream') forwarded++; if (!flags.quiet || d.results.some((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error')) io.out.write(line(d, session !== undefined)); },
  });
  io.out.write(`conformance proxy on ${proxy.url} → ${flags.upstream}${flags.record ? ` (cassettes in ${resolve(flags.record)}, mode ${mode})` : ''}\n  point your client at ${proxy.url}/v1 · Ctrl-C stops it and writes the reports\n`);
  if ((await untilStopped(io)) === 'orphaned') io.err.write('the process that started this one is gone: stopping\n');
  const closed = await proxy.close();
  for (const failure of closed.writeFailures) io.err.write(`conformance proxy: a cassette was not written: ${failure}\n`);
  if (closed.unused.length) io.out.write(`${closed.unused.length} recorded interaction(s) no request used:\n${closed.unused.slice(0, 20).map((u) => `  ${u}\n`).join('')}`);
  if (!session) return closed.writeFailures.length ? EXIT.runtime : EXIT.ok;
  const report = trafficReport(proxy.results, { target: flags.upstream, transport: 'proxy', tool: TOOL, spec: SPEC_NAME, startedAt, durationMs: Date.now() - startedAt.getTime(), judgeable: forwarded }, session.catalogue);
  // Each exchange was redacted as it was judged.
  const { files: paths } = await new Reporting({ dir: resolve(flags['report-dir'] ?? 'reports'), catalogue: session.catalogue, out: io.out, env: io.env }, [], NO_SECRETS).end(report);
  io.out.write(`\n${trafficSummaryLine(report.summary, paths.html)}`);
  for (const p of report.problems) io.err.write(`conformance proxy: ${p.message}\n${p.hint ? `  ${p.hint}\n` : ''}`);
  return closed.writeFailures.length || report.verdict === 'error' ? EXIT.runtime : exitCodeFor(proxy.results, failOn);
}
