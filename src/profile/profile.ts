// Target profile: defaults from the spec, then a config file, then flags (last wins).

import { SECRET_HEADERS } from '../util/secret-headers.ts';
import { readFileSync } from 'node:fs';
import { ownValidator } from '../schema/own-validators.ts';
import { parseYaml } from '../suite/yaml-source.ts';
import { problemFor } from '../suite/load.ts';
import { SuiteError } from '../suite/errors.ts';
import { ProfileError } from './errors.ts';
import { AREAS, type Area } from '../suite/types.ts';
import { OPTIONAL_ROLES, ROLES, type AnyRole, type Credentials, type OptionalRole, type Role, type TargetProfile, type Timeouts } from './types.ts';

/**
 * Model per role. The spec names: `curie` (fine-tune default base; ada/babbage/curie/davinci are the base models),
 * `text-davinci-edit-001`, `text-embedding-ada-002`, `whisper-1`, `text-moderation-latest`.
 * It names no chat model and no completion model besides the base models: `davinci` (a base model) and
 * `gpt-3.5-turbo` (the chat model of the service the spec describes) are our choices.
 */
export const DEFAULT_MODELS: Readonly<Record<Role, string>> = {
  completion: 'davinci',
  chat: 'gpt-3.5-turbo',
  edit: 'text-davinci-edit-001',
  embedding: 'text-embedding-ada-002',
  transcription: 'whisper-1',
  moderation: 'text-moderation-latest',
  fine_tune_base: 'curie',
};

/**
 * "2048 tokens for most models; 4096 for the latest models that support it" (Limits). Known: the base models the
 * spec names (2048), and our default chat model and text-davinci-003 (4096). Any other model's context length
 * comes from the profile's context_lengths, or is unknown (its context-boundary cases are skipped).
 */
export const DEFAULT_CONTEXT_LENGTHS: Readonly<Record<string, number>> = {
  ada: 2048,
  babbage: 2048,
  curie: 2048,
  davinci: 2048,
  'gpt-3.5-turbo': 4096,
  'text-davinci-003': 4096,
};

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = {
  requestMs: 30_000,
  streamIdleMs: 10_000,
  streamTotalMs: 120_000,
  pollDeadlineMs: 120_000,
  modelLoadMs: 300_000,
};

/**
 * Time a generation may take per token it asks for, on top of --timeout: a long completion from a slow server (a CPU
 * llama.cpp at 10 tokens/s) is slow, not broken. 2000 tokens add 200 s.
 */
export const GENERATION_MS_PER_TOKEN = 100;

/** Time per item a request without max_tokens asks for (an image on a CPU server, a chat answer of any length): 30 s. */
export const GENERATION_MS_PER_ITEM = 30_000;

export const DEFAULT_SECRET_HEADERS = SECRET_HEADERS;

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Requests one case may send for followed items: every model of a long list, not an unbounded crawl. */
export const DEFAULT_FOLLOW_BUDGET = 200;

export { ProfileError } from './errors.ts';

/** The config file (`--config conformance.yaml`); every field optional. */
export interface ProfileConfig {
  base_url?: string;
  plugin_url?: string;
  models?: Partial<Record<AnyRole, string>>;
  context_lengths?: Record<string, number>;
  areas?: Area[];
  organization?: string;
  other_organization?: string;
  secret_headers?: string[];
  max_response_bytes?: number;
  follow_budget?: number;
  timeouts?: { request_ms?: number; stream_idle_ms?: number; stream_total_ms?: number; poll_deadline_ms?: number; model_load_ms?: number };
  /** Plugin limits that "may change over time" (read and checked by the plugin checker). */
  plugin_limits?: Record<string, number>;
  /** Your own suite files or folders, relative to the config file (added to ours; with --only, instead). */
  suites?: string[];
}

export interface ProfileOverrides {
  baseUrl?: string;
  pluginUrl?: string;
  models?: Partial<Record<AnyRole, string>>;
  credentials?: Credentials;
  requestTimeoutMs?: number;
  pollDeadlineMs?: number;
  modelLoadMs?: number;
  areas?: Area[];
}


/**
 * Read and validate the config file against schemas/config.schema.json (published for editors): a wrong value
 * stops the run before anything is sent, with file:line:col, the line and what is wrong — never a stack trace
 * later, and never a silently ignored value.
 */
export function readProfileConfig(path: string): ProfileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, ''); // a byte-order mark would shift the first line's columns
  } catch (e) {
    throw new ProfileError(`cannot read config ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const { source, problems } = parseYaml(path, text);
  if (problems.length) throw new SuiteError(problems, new Map([[path, text]]));
  const data: unknown = source.doc.toJS();
  if (data === null || data === undefined) return {};
  const configValidator = ownValidator('config');
  if (!configValidator(data)) {
    const found = (configValidator.errors ?? []).filter((e) => e.keyword !== 'if').map((e) => problemFor(source, e.instancePath, e, 'the config file'));
    const seen = new Set<string>();
    throw new SuiteError(found.filter((p) => !seen.has(`${p.pos.line}:${p.pos.col}:${p.message}`) && seen.add(`${p.pos.line}:${p.pos.col}:${p.message}`)), new Map([[path, text]]));
  }
  return data as ProfileConfig;
}

/** Parse `--model ROLE=NAME`. */
const ALL_ROLES: readonly AnyRole[] = [...ROLES, ...OPTIONAL_ROLES];

export function parseModelFlag(flag: string): [AnyRole, string] {
  const eq = flag.indexOf('=');
  const role = flag.slice(0, eq) as AnyRole;
  const name = flag.slice(eq + 1);
  if (eq <= 0 || !name) throw new ProfileError(`--model expects ROLE=NAME, got "${flag}"`);
  if (!ALL_ROLES.includes(role)) throw new ProfileError(`--model: unknown role "${role}" (roles: ${ALL_ROLES.join(', ')})`);
  return [role, name];
}

function isOptionalRole(role: string): role is OptionalRole {
  return (OPTIONAL_ROLES as readonly string[]).includes(role);
}

/** Split a role → model map into the roles with defaults and the optional ones. */
function splitModels(models: Partial<Record<AnyRole, string>> = {}): { roles: Partial<Record<Role, string>>; optional: Partial<Record<OptionalRole, string>> } {
  const roles: Partial<Record<Role, string>> = {};
  const optional: Partial<Record<OptionalRole, string>> = {};
  for (const [role, name] of Object.entries(models)) {
    if (name === undefined) continue;
    if (isOptionalRole(role)) optional[role] = name;
    else roles[role as Role] = name;
  }
  return { roles, optional };
}

export function buildProfile(config: ProfileConfig, overrides: ProfileOverrides): TargetProfile {
  const baseUrl = (overrides.baseUrl ?? config.base_url ?? '').replace(/\/+$/, '');
  if (!baseUrl) throw new ProfileError('no target: give --base-url or base_url in the config file');
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new ProfileError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  }
  const t = config.timeouts ?? {};
  const credentials: Credentials = {
    ...(config.organization ? { organization: config.organization } : {}),
    ...(config.other_organization ? { otherOrganization: config.other_organization } : {}),
    ...stripUndefined(overrides.credentials ?? {}),
  };
  const pluginUrl = overrides.pluginUrl ?? config.plugin_url;
  return {
    baseUrl,
    ...(pluginUrl ? { pluginUrl: pluginUrl.replace(/\/+$/, '') } : {}),
    models: { ...DEFAULT_MODELS, ...splitModels(config.models).roles, ...splitModels(overrides.models).roles },
    optionalModels: { ...splitModels(config.models).optional, ...splitModels(overrides.models).optional },
    contextLengths: { ...DEFAULT_CONTEXT_LENGTHS, ...config.context_lengths },
    areas: new Set(overrides.areas ?? config.areas ?? AREAS),
    credentials,
    timeouts: {
      requestMs: overrides.requestTimeoutMs ?? t.request_ms ?? DEFAULT_TIMEOUTS.requestMs,
      streamIdleMs: t.stream_idle_ms ?? Math.min(DEFAULT_TIMEOUTS.streamIdleMs, overrides.requestTimeoutMs ?? Infinity),
      streamTotalMs: t.stream_total_ms ?? DEFAULT_TIMEOUTS.streamTotalMs,
      pollDeadlineMs: overrides.pollDeadlineMs ?? t.poll_deadline_ms ?? DEFAULT_TIMEOUTS.pollDeadlineMs,
      modelLoadMs: overrides.modelLoadMs ?? t.model_load_ms ?? DEFAULT_TIMEOUTS.modelLoadMs,
    },
    maxResponseBytes: config.max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    followBudget: config.follow_budget ?? DEFAULT_FOLLOW_BUDGET,
    secretHeaders: config.secret_headers ?? DEFAULT_SECRET_HEADERS,
  };
}

/** The model's context length when the profile knows it; unknown otherwise (never a guess). */
export function contextLengthOf(profile: TargetProfile, model: string): number | undefined {
  return Object.hasOwn(profile.contextLengths, model) ? profile.contextLengths[model] : undefined;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
