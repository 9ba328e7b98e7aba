// `conformance import-har FILE.har --out DIR [--suite NAME]`: a HAR recording (a browser's, Schemathesis's,
// Polly.js's) becomes a cassette folder: DIR/<suite>.json, diffable with conformance diff --against DIR and
// loadable with useCassettes. Credentials are redacted on the way in.

import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { cassettePath, writeCassette } from '../transport/cassette.ts';
import { harName, harToCassette, HarError, nothingUnder, readHar } from '../transport/har.ts';
import { parseFlags } from '../run/args.ts';
import { EXIT } from '../run/exit-codes.ts';
import type { Io } from '../run/io.ts';
import { UsageError } from '../run/usage-error.ts';

export const IMPORT_HAR_FLAGS = { out: { type: 'string' }, suite: { type: 'string' }, prefix: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export const IMPORT_HAR_HELP = `Usage: conformance import-har FILE.har --out DIR [--suite NAME] [--prefix /v1/]

Converts the entries of a HAR 1.2 file (browsers, Schemathesis, Polly.js write HAR; Playwright's .har.zip too)
whose path starts with --prefix (default /v1/) into the cassette DIR/<NAME>.json (default NAME: the file's name).
Credentials (Authorization, api-key headers, cookies) are redacted wherever they occur. Then:
  conformance diff --against DIR --base-url URL     compare another implementation with the recording
  useCassettes(DIR, { match: 'loose' })             serve it to your own tests`;

export async function importHarCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, IMPORT_HAR_FLAGS);
  if (flags.help) { io.out.write(IMPORT_HAR_HELP + '\n'); return EXIT.ok; }
  if (positionals.length !== 1) throw new UsageError('give one HAR file (conformance import-har FILE.har --out DIR)');
  if (!flags.out) throw new UsageError('--out DIR names the cassette folder to write');
  const file = positionals[0]!;
  let har;
  try { har = readHar(file); } catch (e) { if (e instanceof HarError) throw new UsageError(e.message); throw e; }
  const suite = flags.suite ?? harName(file);
  const left: string[] = [];
  const defs = harToCassette(har, suite, flags.prefix ?? '/v1/', left);
  for (const l of left) io.err.write(`left out (not captured whole): ${l}\n`);
  if (defs.length === 0 && left.length === 0) throw new UsageError(nothingUnder(har, file, flags.prefix ?? '/v1/'));
  if (defs.length === 0) throw new UsageError(`${file}: every entry under ${flags.prefix ?? '/v1/'} was left out: none was captured whole`);
  const dir = resolve(flags.out);
  await mkdir(dir, { recursive: true });
  const path = cassettePath(dir, suite);
  await writeCassette(path, defs);
  io.out.write(`${defs.length} of ${har.log.entries.length} entries → ${path}\n`);
  return EXIT.ok;
}
