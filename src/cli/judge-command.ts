// `conformance judge DIR|FILE.har`: a recording judged exchange by exchange, offline, as the proxy judges traffic.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { cassettePath, readCassette, type CassetteDefinition } from '../transport/cassette.ts';
import { readCassetteFolder } from '../transport/cassette-folder.ts';
import { harName, harToCassette, HarError, nothingUnder, readHar } from '../transport/har.ts';
import { judgeCassette } from '../traffic/judge-recording.ts';
import { endpointFor } from '../judge/endpoints.ts';
import { exitCodeFor, trafficReport, trafficSession, trafficSummaryLine, type FailOn } from '../traffic/session.ts';
import { Reporting } from '../report/index.ts';
import { NO_SECRETS } from '../util/redact.ts';
import { parseFlags } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import type { Io } from '../run/io.ts';
import { SPEC_NAME, TOOL } from '../run/tool.ts';
import { UsageError } from '../run/usage-error.ts';

export const JUDGE_FLAGS = { 'report-dir': { type: 'string' }, 'fail-on': { type: 'string' }, prefix: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export const JUDGE_HELP = `Usage: conformance judge DIR|FILE.har [--report-dir DIR] [--fail-on must|should] [--prefix /v1/]

Judges every exchange of a recording against the spec, as the proxy does while traffic passes: a cassette folder
(the proxy's, a run's, useCassettes') or a HAR 1.2 file, Playwright's .har.zip too (entries under --prefix,
default /v1/). Each exchange is a case named by its method, path and position; the reports go to --report-dir
(default: ./reports).
Exit 1 when a must rule broke (with --fail-on should: any rule).`;

/**
 * The recording's exchanges by cassette name; `left` gets what was left out and why. `uncaptured`: how many
 * entries under the prefix were left out as not captured whole (they count as traffic no rule could judge).
 */
function recordings(path: string, prefix: string, left: string[]): { byName: Map<string, CassetteDefinition[]>; uncaptured: number } {
  let isDir: boolean;
  try { isDir = statSync(path).isDirectory(); } catch { throw new UsageError(`no recording at ${path}`); }
  if (!isDir) {
    let har;
    try { har = readHar(path); } catch (e) { if (e instanceof HarError || e instanceof SyntaxError) throw new UsageError(e.message); throw e; }
    const name = harName(path);
    const defs = harToCassette(har, name, prefix, left);
    const uncaptured = left.length;
    // Nothing under the prefix: a wrong prefix, or a service under a base path; not a recording that passed.
    if (defs.length === 0 && uncaptured === 0) throw new UsageError(nothingUnder(har, path, prefix));
    return { byName: new Map([[name, ofOneHost(defs, left)]]), uncaptured };
  }
  const folder = readCassetteFolder(path);
  const broken = [...folder.defects.values()].filter((d) => d.kind !== 'unlisted' && folder.suites.has(d.suite));
  if (broken.length) throw new UsageError(broken.map((d) => d.message).join('\n'));
  const names = [...folder.suites].sort();
  if (names.length === 0) throw new UsageError(`${path} holds no cassette`);
  return { byName: new Map(names.map((name) => [name, readCassette(cassettePath(path, name))])), uncaptured: 0 };
}

/**
 * A browser's HAR holds other services' traffic under /v1/ too (a payment or analytics API): only the host that
 * answered the most requests this API defines is judged; the others are named as left out.
 */
function ofOneHost(defs: CassetteDefinition[], left: string[]): CassetteDefinition[] {
  const known = new Map<string, number>();
  for (const d of defs) if (endpointFor(d.method, d.path.split('?')[0]!)) known.set(d.scope, (known.get(d.scope) ?? 0) + 1);
  const host = [...known].sort((a, b) => b[1] - a[1])[0]?.[0] ?? defs[0]?.scope;
  const others = new Map<string, number>();
  for (const d of defs) if (d.scope !== host) others.set(d.scope, (others.get(d.scope) ?? 0) + 1);
  for (const [scope, n] of others) left.push(`${n} exchange(s) with ${scope}: another host than the API judged (${host})`);
  if (others.size === 0) return defs;
  const kept = defs.filter((d) => d.scope === host);
  // The file's header rides on the first entry: it stays first.
  if (kept[0] !== defs[0] && defs[0]?.conformance) kept[0] = { conformance: { ...defs[0].conformance, target: host!, base_url: `${host!}${new URL(defs[0].conformance.base_url).pathname.replace(/\/$/, '')}` }, ...kept[0]! };
  return kept;
}

export async function judgeCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, JUDGE_FLAGS);
  if (flags.help) { io.out.write(JUDGE_HELP + '\n'); return EXIT.ok; }
  if (positionals.length !== 1) throw new UsageError('give one cassette folder or HAR file (conformance judge DIR|FILE.har)');
  const failOn = (flags['fail-on'] ?? 'must') as FailOn;
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`--fail-on must be must or should, not ${JSON.stringify(flags['fail-on'])}`);
  const startedAt = new Date();
  const left: string[] = [];
  const { byName, uncaptured } = recordings(positionals[0]!, flags.prefix ?? '/v1/', left);
  if (left.length) io.out.write(`not judged: ${left.length} entr${left.length === 1 ? 'y' : 'ies'} of the recording\n${left.slice(0, 20).map((l) => `  ${l}\n`).join('')}${left.length > 20 ? `  … and ${left.length - 20} more\n` : ''}`);
  const first = [...byName.values()].flat()[0];
  const session = trafficSession(first?.scope ?? 'http://recording.invalid');
  const results = [...byName].flatMap(([name, defs]) => {
    const judged = judgeCassette(defs, session.judge, name);
    const failed = judged.filter((r) => r.status === 'fail').length;
    const errors = judged.filter((r) => r.status === 'error').length;
    io.out.write(`${failed + errors ? 'FAIL' : 'ok  '} ${name}: ${defs.length} exchange(s), ${failed} must-failure(s)${errors ? `, ${errors} error(s)` : ''}, ${judged.filter((r) => r.status === 'warn').length} warning(s)\n`);
    for (const r of judged.filter((x) => x.status === 'fail' || x.status === 'error' || x.status === 'warn').slice(0, 20)) io.out.write(`       ${r.case} · ${r.severity} ${r.requirements.join(', ') || r.check}: ${r.message}\n`);
    return judged;
  });
  const report = trafficReport(results, { target: first?.scope ?? positionals[0]!, transport: 'recording', tool: TOOL, spec: SPEC_NAME, startedAt, durationMs: Date.now() - startedAt.getTime(), judgeable: uncaptured + [...byName.values()].reduce((n, defs) => n + defs.length, 0) }, session.catalogue);
  // Cassettes were redacted when recorded, a HAR file as it was read (harToCassette).
  const { files: paths } = await new Reporting({ dir: resolve(flags['report-dir'] ?? 'reports'), catalogue: session.catalogue, out: io.out, env: io.env }, [], NO_SECRETS).end(report);
  io.out.write(trafficSummaryLine(report.summary, paths.html));
  for (const p of report.problems) io.err.write(`conformance judge: ${p.message}\n${p.hint ? `  ${p.hint}\n` : ''}`);
  return report.verdict === 'error' ? EXIT.runtime : exitCodeFor(results, failOn);
}
