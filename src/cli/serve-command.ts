// `conformance serve`: the reference server, for anyone who wants a faithful local stand-in.

import { intFlag, matchHeaderFlags, parseFlags, readingFlags, SERVE_FLAGS } from '../run/args.ts';
import type { Io } from '../run/io.ts';
import { FAULTS, paceOf, READINGS, startReferenceServer } from '../reference/index.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startProxy } from '../proxy/server.ts';
import { ANY_CASSETTE } from '../proxy/store.ts';
import type { ReplayTiming } from '../proxy/exchange.ts';
import { UsageError } from '../run/usage-error.ts';
import { untilStopped } from '../run/until-stopped.ts';
import { widenYoungGenerationForServer } from '../run/young-generation.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';

export const SERVE_HELP = `Usage: conformance serve [--port N] [--host H] [--fault NAME]... [--reading NAME]... [--readings alt]
                         [--pace slow] [--training-ms MS] [--latency-ms MS]
       conformance serve --cassettes DIR [--cassette NAME] [--timing recorded|none|xN] [--miss-status N]
                         [--fallback reference] [--unused-report FILE] [--match-header NAME]... [--port N] [--host H]

Runs the reference server (the whole spec, conformant by construction) until interrupted.
  --fault NAME     break one rule of the spec; repeatable (--list-faults lists them with what each breaks)
  --list-faults    print every fault: name, area and what it breaks, one per line
  --reading NAME   serve another reasonable reading where the spec allows several; repeatable
  --readings alt   serve every reading below at once
  --pace slow      a slow live service: long jobs, events far apart, a model that loads for seconds

Recordings over HTTP, for tests in any language (--cassettes DIR):
  each request is answered from the cassette its x-conformance-cassette header names (or --cassette NAME; neither:
  any cassette of DIR), streams at their recorded chunk boundaries; identical requests in recorded order
  --timing T       recorded (default): each chunk after its recorded delay; none: at once; xN: delays times N
  --miss-status N  the status of a request no recording holds (default 404), in the API's error shape, naming the
                   nearest recorded request and how it differs
  --fallback reference   a request no recording holds is answered by the reference server instead
  --unused-report FILE   when it stops, the recorded interactions no request used, as JSON (also printed)
  --match-header NAME    a request header recordings are matched on, as recorded with the same flag (repeatable)

Readings:
${READINGS.map((r) => `  ${r.name.padEnd(30)} ${r.description}`).join('\n')}`;

export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags } = parseFlags(argv, SERVE_FLAGS);
  if (flags.help) { io.out.write(SERVE_HELP + '\n'); return 0; }
  if (flags['list-faults']) { io.out.write(FAULTS.map((f) => `${f.name.padEnd(48)} ${f.area.padEnd(12)} ${f.description}`).join('\n') + '\n'); return 0; }
  if (flags.cassettes) return serveCassettes(flags, io);
  const port = intFlag(flags.port, 'port') ?? 8080;
  const trainingMs = intFlag(flags['training-ms'], 'training-ms', 1);
  const latencyMs = intFlag(flags['latency-ms'], 'latency-ms');
  const readings = readingFlags(flags);
  const server = await startReferenceServer({ port, ...(flags.host ? { host: flags.host } : {}), ...(flags.fault ? { faults: flags.fault } : {}), ...(readings.length ? { readings } : {}), pace: paceOf(flags.pace), ...(trainingMs ? { trainingMs } : {}), ...(latencyMs ? { latencyMs } : {}) });
  const c = server.credentials;
  io.out.write([
    `reference server listening on ${server.url} (API at ${server.url}/v1, plugin at ${server.pluginUrl})`,
    `  owner key:  ${c.apiKey}  (organizations ${c.organization}, ${c.otherOrganization})`,
    `  member key: ${c.memberApiKey}  (organization ${c.organization}, no owner role)`,
    server.faults.length ? `  faults: ${server.faults.join(', ')}` : '  faults: none',
    server.readings.length ? `  readings: ${server.readings.join(', ')}` : '  readings: the default ones',
    '',
  ].join('\n'));
  if ((await untilStopped(io)) === 'orphaned') io.err.write('the process that started this one is gone: stopping\n');
  await server.close();
  return 0;
}

function timingOf(raw: string | undefined): ReplayTiming {
  if (raw === undefined || raw === 'recorded') return 'recorded';
  if (raw === 'none') return 'none';
  const m = /^x(\d+(?:\.\d+)?)$/.exec(raw);
  if (m && Number(m[1]) >= 0) return Number(m[1]);
  throw new UsageError(`--timing must be recorded, none or xN (a factor, e.g. x0.5), not ${JSON.stringify(raw)}`);
}

/** `serve --cassettes DIR`: recordings answer, as the proxy replays them, for tests in any language. */
async function serveCassettes(flags: ReturnType<typeof parseFlags<typeof SERVE_FLAGS>>['values'], io: Io): Promise<number> {
  const dir = resolve(flags.cassettes!);
  if (!existsSync(dir)) throw new UsageError(`--cassettes: no folder at ${dir}`);
  if (flags.fallback !== undefined && flags.fallback !== 'reference') throw new UsageError(`--fallback takes reference, not ${JSON.stringify(flags.fallback)}`);
  const missStatus = intFlag(flags['miss-status'], 'miss-status', 100);
  const matchHeaders = matchHeaderFlags(flags['match-header']);
  if (io.ownsProcess) widenYoungGenerationForServer();
  const reference = flags.fallback ? await startReferenceServer({}) : undefined;
  const server = await startProxy({
    ...(reference ? { upstream: reference.url, record: { dir, mode: 'dryrun' as const } } : { record: { dir, mode: 'lockdown' as const } }),
    port: intFlag(flags.port, 'port') ?? 8080, ...(flags.host ? { host: flags.host } : {}),
    defaultCassette: flags.cassette ?? ANY_CASSETTE, timing: timingOf(flags.timing), ...(missStatus ? { missStatus } : {}), matchHeaders,
    onExchange: (d) => io.out.write(`${d.source === 'cassette' ? 'rply' : d.source === 'refused' ? 'miss' : 'fall'} ${d.status ?? '---'} ${d.method} ${d.path}  [${d.cassette}]${d.error ? `  ${d.error}` : ''}\n`),
  });
  io.out.write(`recordings of ${dir} served on ${server.url} (API at ${server.url}/v1)${reference ? `; misses answered by the reference server (key ${reference.credentials.apiKey})` : ''}\n`);
  if ((await untilStopped(io)) === 'orphaned') io.err.write('the process that started this one is gone: stopping\n');
  const { unused } = await server.close();
  await reference?.close();
  io.out.write(unused.length ? `${unused.length} recorded interaction(s) no request used:\n${unused.slice(0, 20).map((u) => `  ${u}\n`).join('')}` : 'every recorded interaction served was used\n');
  if (flags['unused-report']) await writeFileAtomic(resolve(flags['unused-report']), JSON.stringify({ cassettes: dir, unused }, null, 2) + '\n');
  return 0;
}
