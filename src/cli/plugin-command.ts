// `conformance plugin URL`: check one plugin (manifest, OpenAPI description, plugin rules, read-only
// operations) and print a short report for its author; the usual report files are written too.

import { emitReports } from '../run/emit.ts';
import { EXIT_CODES_HELP } from '../run/exit-codes.ts';
import { join, resolve } from 'node:path';
import { loadCatalogue } from '../catalogue/load.ts';
import { defaultRegistry } from '../checks/index.ts';
import { runSuites } from '../engine/index.ts';
import { buildProfile } from '../profile/profile.ts';
import { Reporting } from '../report/index.ts';
import { DEFAULT_PLUGIN_LIMITS, type PluginLimits } from '../schema/plugin-limits.ts';
import { SchemaRegistry } from '../schema/registry.ts';
import { LiveTransport } from '../transport/live.ts';
import { Redactor } from '../util/redact.ts';
import { repoRoot } from '../util/paths.ts';
import { DOCUMENT_CAP_BYTES, operationCapBytes } from '../plugin/fetch.ts';
import { DEFAULT_HOST_ORIGIN, manifestUrlFor, pluginSuite } from '../plugin/suite.ts';
import { intFlag, parseFlags } from '../run/args.ts';
import type { Io } from '../run/io.ts';
import { readPluginLimits } from '../run/plugin-limits.ts';
import { SPEC_NAME, TOOL } from '../run/tool.ts';
import { UsageError } from '../run/usage-error.ts';
import { shellWord } from '../util/shell-word.ts';

export const PLUGIN_FLAGS = {
  origin: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'report-dir': { type: 'string' },
  timeout: { type: 'string' },
  config: { type: 'string' },
  'max-name-for-model': { type: 'string' },
  'max-name-for-human': { type: 'string' },
  'max-description-for-model': { type: 'string' },
  'max-description-for-human': { type: 'string' },
  'max-response-chars': { type: 'string' },
  'max-openapi-summary': { type: 'string' },
  'max-openapi-description': { type: 'string' },
  'max-parameter-description': { type: 'string' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Limit flags ↔ DEFAULT_PLUGIN_LIMITS keys ↔ `plugin_limits` keys of the config file. */
const LIMIT_FLAGS: ReadonlyArray<[flag: keyof typeof PLUGIN_FLAGS, key: keyof PluginLimits]> = [
  ['max-name-for-model', 'name_for_model'],
  ['max-name-for-human', 'name_for_human'],
  ['max-description-for-model', 'description_for_model'],
  ['max-description-for-human', 'description_for_human'],
  ['max-response-chars', 'apiResponseChars'],
  ['max-openapi-summary', 'openapiSummary'],
  ['max-openapi-description', 'openapiDescription'],
  ['max-parameter-description', 'openapiParameterDescription'],
];

export const PLUGIN_HELP = `Usage: conformance plugin URL [options]

Checks a plugin: GET URL/.well-known/ai-plugin.json, the OpenAPI description at its api.url, the logo,
the plugin rules (HTTPS, local development, CORS, description_for_model heuristics) and the read-only
GET operations whose parameters the description can fill. Nothing else is called without --allow-writes.

Options
  --origin O                       host application's web origin for CORS (default ${DEFAULT_HOST_ORIGIN})
  --allow-writes                   also call POST/PUT/PATCH/DELETE operations
  --report-dir DIR                 where report.json, junit.xml and summary.md go (default: reports/plugin)
  --timeout MS                     per-request timeout (default 10000)
  --config FILE                    YAML with plugin_limits: {name_for_model, name_for_human, description_for_model,
                                   description_for_human, apiResponseChars, openapiSummary, openapiDescription,
                                   openapiParameterDescription} (other keys are ignored)

Limits (spec "Limits"; they may change over time — defaults in brackets)
  --max-name-for-model N           [${DEFAULT_PLUGIN_LIMITS.name_for_model}]
  --max-name-for-human N           [${DEFAULT_PLUGIN_LIMITS.name_for_human}]
  --max-description-for-model N    [${DEFAULT_PLUGIN_LIMITS.description_for_model}]
  --max-description-for-human N    [${DEFAULT_PLUGIN_LIMITS.description_for_human}]
  --max-response-chars N           [${DEFAULT_PLUGIN_LIMITS.apiResponseChars}]
  --max-openapi-summary N          [${DEFAULT_PLUGIN_LIMITS.openapiSummary}]
  --max-openapi-description N      [${DEFAULT_PLUGIN_LIMITS.openapiDescription}]
  --max-parameter-description N    [${DEFAULT_PLUGIN_LIMITS.openapiParameterDescription}]

${EXIT_CODES_HELP}`;

export async function pluginCommand(argv: string[], io: Io): Promise<number> {
  const { values: flags, positionals } = parseFlags(argv, PLUGIN_FLAGS);
  if (flags.help) { io.out.write(PLUGIN_HELP + '\n'); return 0; }
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `unexpected argument "${positionals[1]}"` : 'give the plugin URL, e.g. conformance plugin https://plugin.example.com');
  const url = positionals[0]!;
  let manifestUrl: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    manifestUrl = manifestUrlFor(url);
  } catch {
    throw new UsageError(`the plugin URL must be an http(s) URL, got "${url}"`);
  }
  const origin = flags.origin ?? DEFAULT_HOST_ORIGIN;
  try { new URL(origin); } catch { throw new UsageError(`--origin must be an origin such as ${DEFAULT_HOST_ORIGIN}, got "${origin}"`); }

  const limits: Partial<PluginLimits> = flags.config ? readPluginLimits(resolve(flags.config)) : {};
  for (const [flag, key] of LIMIT_FLAGS) {
    const v = intFlag(flags[flag] as string | undefined, flag, 1);
    if (v !== undefined) limits[key] = v;
  }
  const timeoutMs = intFlag(flags.timeout, 'timeout', 1) ?? 10_000;
  const resolved = { ...DEFAULT_PLUGIN_LIMITS, ...limits };

  const catalogue = loadCatalogue();
  const schemas = SchemaRegistry.load(undefined, { pluginLimits: limits });
  const profile = buildProfile({}, { baseUrl: new URL(manifestUrl).origin, pluginUrl: url, requestTimeoutMs: timeoutMs, areas: ['plugins'] });
  const redactor = new Redactor({ secretHeaders: profile.secretHeaders, secretValues: [] });
  const transport = new LiveTransport({ maxResponseBytes: Math.max(DOCUMENT_CAP_BYTES, operationCapBytes(resolved.apiResponseChars)), redactor });
  const color = io.isTTY && !flags['no-color'] && io.env.CI !== 'true' && !io.env.NO_COLOR;

  io.out.write(`conformance plugin ${TOOL.version} · ${manifestUrl} · origin ${origin}${flags['allow-writes'] ? ' · writes allowed' : ''}\n`);
  const reportDir = resolve(flags['report-dir'] ?? join('reports', 'plugin'));
  const reporting = new Reporting({ dir: reportDir, catalogue, out: io.out, env: io.env, console: { color } }, ['console-grouped'], redactor);
  const startedAt = new Date();
  let run;
  try {
    run = await runSuites({
      plans: [], transport, profile, registry: defaultRegistry(), schemas, seed: 0, listener: reporting.listener,
      reproduce: () => '',
      programmatic: [pluginSuite({
        url, origin, allowWrites: flags['allow-writes'] ?? false, limits, timeoutMs,
        reproduce: (caseId) => reproducer(url, flags, caseId),
      })],
      ...(io.interrupt ? { signal: io.interrupt } : {}),
    });
  } finally {
    await transport.close();
  }
  const meta = {
    tool: TOOL, spec: SPEC_NAME, startedAt,
    target: { baseUrl: new URL(manifestUrl).origin, pluginUrl: url, transport: transport.name, models: {}, areas: ['plugins'] },
  };
  // An unreachable host, or TLS it refuses, judged nothing: said in one line with what to do, exit 3 (as `run`).
  return (await emitReports(run, { meta, catalogue, reporting, redactor, subject: 'plugin' }, io)).exitCode;
}

function reproducer(url: string, flags: Record<string, unknown>, _caseId: string): string {
  const out = ['npx conformance plugin', shellWord(url)];
  for (const [k, v] of Object.entries(flags)) {
    if (k === 'report-dir' || k === 'no-color' || k === 'help' || v === undefined || v === false) continue;
    out.push(v === true ? `--${k}` : `--${k} ${shellWord(String(v))}`);
  }
  return out.join(' ');
}
