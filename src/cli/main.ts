// The only place that prints to the terminal and decides the exit code.

import { defaultParseCacheDir, ParseCache, useParseCache } from '../suite/parse-cache.ts';
import type { Io } from '../run/io.ts';
import { TOOL } from '../run/tool.ts';
import { EXIT, EXIT_CODES_HELP } from '../run/exit-codes.ts';
import { CREDENTIAL_SOURCES } from '../run/credentials.ts';
import { failureOf } from '../run/failure.ts';

const HELP = `Usage: conformance <command> [options]

Commands
  run         run the conformance suites against a target (default: the embedded reference server)
  serve       run the reference server, or serve recordings over HTTP (--cassettes DIR)
  checks      list the registered checks and the requirements they cite
  plugin      check one plugin: manifest, OpenAPI description, plugin rules and read-only operations
  merge       merge the report.json files of the shards of one run (run --shard I/N) into one report
  diff        send the requests of a recording to a target and compare every answer with the recorded one
  import-har  turn a HAR file (browsers, Schemathesis, Polly.js) into a cassette folder
  compare     compare the reports of several implementations: a matrix of requirement × implementation
  proxy       a recording proxy for any client: forwards to a service and judges every exchange as it passes
  judge       judge a recording (a cassette folder or a HAR file) exchange by exchange, offline

Run \`conformance <command> --help\` for the options of a command.

${EXIT_CODES_HELP}`;

type Command = (argv: string[], io: Io) => Promise<number>;
// Each command's module is loaded when it runs: `run` does not pay for the differ, the HAR importer or the
// plugin checker's YAML parser, and every command starts sooner (what a CI step waits for).
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run-command.ts')).runCommand,
  serve: async () => (await import('./serve-command.ts')).serveCommand,
  checks: async () => (await import('./checks-command.ts')).checksCommand,
  plugin: async () => (await import('./plugin-command.ts')).pluginCommand,
  merge: async () => (await import('./merge-command.ts')).mergeCommand,
  diff: async () => (await import('./diff-command.ts')).diffCommand,
  'import-har': async () => (await import('./import-har-command.ts')).importHarCommand,
  compare: async () => (await import('./compare-command.ts')).compareCommand,
  proxy: async () => (await import('./proxy-command.ts')).proxyCommand,
  judge: async () => (await import('./judge-command.ts')).judgeCommand,
};

export async function main(args: string[], io: Io = processIo()): Promise<number> {
  // --debug anywhere: a crash shows its stack trace; without it, one line (what happened, what to do).
  const debug = args.includes('--debug');
  const argv = args.filter((a) => a !== '--debug');
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') { io.out.write(HELP + '\n'); return name ? 0 : 2; }
  if (name === '--version') { io.out.write(`${TOOL.version}\n`); return 0; }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) { io.err.write(`conformance: unknown command "${name}"\n\n${HELP}\n`); return 2; }
  // The CLI's own process keeps parsed suite files between runs (src/suite/parse-cache.ts); a library caller's
  // process is left as it is.
  if (io.ownsProcess) {
    const dir = defaultParseCacheDir(io.env);
    useParseCache(dir ? new ParseCache({ dir }) : undefined);
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (e) {
    const failure = failureOf(name, e, { secrets: givenSecrets(rest, io.env), debug });
    io.err.write(failure.text);
    return failure.exitCode;
  }
}

/** The credentials a command line and its environment give (flags `--api-key V` or `--api-key=V`, CONFORMANCE_* variables). */
function givenSecrets(args: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const s of CREDENTIAL_SOURCES) {
    const flag = `--${s.flag}`;
    args.forEach((a, i) => {
      if (a === flag && args[i + 1] !== undefined) values.push(args[i + 1]!);
      else if (a.startsWith(`${flag}=`)) values.push(a.slice(flag.length + 1));
    });
    const fromEnv = env[s.env];
    if (fromEnv) values.push(fromEnv);
  }
  return values;
}

/**
 * The real process: SIGINT (Ctrl-C) and SIGTERM (a CI cancel) stop the run gracefully — the request in flight
 * finishes, what the run created is deleted, reports are written, exit 130 / 143; a second signal exits at once.
 */
function processIo(): Io {
  const controller = new AbortController();
  const stop = (signal: 'SIGINT' | 'SIGTERM') => () => {
    if (controller.signal.aborted) process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    process.stderr.write(`\n${signal === 'SIGTERM' ? 'terminated' : 'interrupted'}: finishing the current request, cleaning up, writing reports (send it again to quit now)\n`);
    controller.abort(signal);
  };
  // `conformance run | head`: a closed pipe ends the printing, not the run (it still cleans up and writes reports).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', (e: NodeJS.ErrnoException) => { if (e.code !== 'EPIPE') throw e; });
  process.on('SIGINT', stop('SIGINT'));
  process.on('SIGTERM', stop('SIGTERM'));
  return { out: process.stdout, err: process.stderr, env: process.env, isTTY: !!process.stdout.isTTY, interrupt: controller.signal, ownsProcess: true };
}
