// `conformance serve`: the reference server, for anyone who wants a faithful local stand-in.

import { intFlag, parseFlags, readingFlags, SERVE_FLAGS } from '../run/args.ts';
import type { Io } from '../run/io.ts';
import { paceOf, READINGS, startReferenceServer } from '../reference/index.ts';

export const SERVE_HELP = `Usage: conformance serve [--port N] [--host H] [--fault NAME]... [--reading NAME]... [--readings alt]
                         [--pace slow] [--training-ms MS] [--latency-ms MS]

Runs the reference server (the whole spec, conformant by construction) until interrupted.
  --fault NAME     break one rule of the spec (the names: src/reference/faults.ts); repeatable
  --reading NAME   serve another reasonable reading where the spec allows several; repeatable
  --readings alt   serve every reading below at once
  --pace slow      a slow live service: long jobs, events far apart, a model that loads for seconds

Readings:
${READINGS.map((r) => `  ${r.name.padEnd(30)} ${r.description}`).join('\n')}`;

export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags } = parseFlags(argv, SERVE_FLAGS);
  if (flags.help) { io.out.write(SERVE_HELP + '\n'); return 0; }
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
  await new Promise<void>((resolve) => {
    if (io.interrupt?.aborted) resolve();
    io.interrupt?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return 0;
}
