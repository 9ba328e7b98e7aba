// The table of transports: live, and (with --cassettes) the modes of nock.back, one to one.
//
//   no --cassettes                          live
//   --cassettes DIR                         lockdown: replay only, network disabled
//   --record --cassettes DIR                update: every suite recorded again (alias: rerecord)
//   --record-mode record                    record: suites with a cassette replay, missing ones are recorded
//   --record-mode dryrun                    dryrun: suites with a cassette replay, the others run live, nothing written
//   --record-mode wild                      wild: everything live, the cassettes ignored, nothing written

import { OPTIONAL_ROLES, ROLES, type AnyRole, type Credentials, type TargetProfile } from '../profile/types.ts';
import type { Transport } from '../transport/types.ts';
import { LiveTransport, type LiveTransportOptions } from '../transport/live.ts';
import { readManifest } from '../transport/cassette.ts';
import { readCassetteMeta } from '../transport/cassette-folder.ts';
import type { ManifestSettings } from '../transport/record.ts';
import type { Redactor } from '../util/redact.ts';
import { UsageError } from './usage-error.ts';

export interface TransportRequest {
  profile: TargetProfile;
  redactor: Redactor;
  record: boolean;
  cassettes?: string;
  recordMode?: string;
  seed: number;
  /** Where notices go (recorded interactions never used, suites not written); default stderr. */
  onNotice?: (message: string) => void;
  /** What a complete recording writes to DIR/manifest.json. */
  manifest?: ManifestSettings;
  /** Origins the run chose (the embedded reference server's), recorded as placeholders. */
  placeholderOrigins?: readonly string[];
  /** Live modes: how connections resolve names and what they trust (the embedded target's remote plugins). */
  connect?: LiveTransportOptions['connect'];
  /** What every request sent live goes through (the rate limit, retries of 429), recordings included. */
  throttle?: (live: Transport) => Transport;
}

export type TransportMode = 'live' | 'lockdown' | 'record' | 'update' | 'dryrun' | 'wild';
const CASSETTE_MODES = ['lockdown', 'record', 'update', 'dryrun', 'wild'] as const;
/** Names this harness used before it took nock.back's. */
const MODE_ALIASES: Record<string, (typeof CASSETTE_MODES)[number]> = { rerecord: 'update' };
/** Modes that write cassettes (the others only read them, or ignore them). */
export const WRITING_MODES: ReadonlySet<TransportMode> = new Set(['record', 'update']);

export function transportMode(req: { record: boolean; cassettes?: string | undefined; recordMode?: string | undefined }): TransportMode {
  const named = req.recordMode === undefined ? undefined : (MODE_ALIASES[req.recordMode] ?? req.recordMode);
  if (named !== undefined && !(CASSETTE_MODES as readonly string[]).includes(named)) {
    throw new UsageError(`--record-mode must be one of ${CASSETTE_MODES.join(', ')} (or rerecord, an alias of update; got "${req.recordMode}")`);
  }
  const mode = named as TransportMode | undefined;
  if (req.cassettes === undefined) {
    if (req.record) throw new UsageError('--record needs --cassettes DIR');
    if (mode !== undefined) throw new UsageError('--record-mode needs --cassettes DIR');
    return 'live';
  }
  if (req.record) {
    if (mode !== undefined && !WRITING_MODES.has(mode)) throw new UsageError(`--record cannot be combined with --record-mode ${req.recordMode} (it writes nothing)`);
    return mode ?? 'update';
  }
  return mode ?? 'lockdown';
}

/** Placeholder keys for a replay of a run that had keys: requests carry "Bearer REDACTED" as in the recording. */
export const REPLAY_API_KEY = 'sk-replay-placeholder-api-key';
export const REPLAY_MEMBER_API_KEY = 'sk-replay-placeholder-member-api-key';

export interface RecordedSettings {
  seed: number;
  /** From the folder's manifest (recordings made before manifests have none). */
  fuzzRuns?: number;
  suites?: string[];
  baseUrl: string;
  pluginUrl?: string;
  credentials: Credentials;
  /** "reference" or the recorded base URL (redacted), from the manifest. */
  target?: string;
  /** The model per role the recording asked for, from the manifest. */
  models?: Partial<Record<AnyRole, string>>;
  /** The cases the recording selected (--grep, --tag), from the manifest. */
  filter?: { grep?: string; tags?: string[] };
}

/**
 * What a replay reuses from the cassettes' metadata: seed, base URL, plugin URL, which keys, organizations. A
 * recording into the folder reuses its seed and fuzz runs, so the folder keeps one recording.
 */
export function recordedSettings(dir: string | undefined): RecordedSettings | undefined {
  if (dir === undefined) return undefined;
  const meta = readCassetteMeta(dir);
  if (meta === undefined) return undefined;
  const manifest = readManifest(dir);
  return {
    seed: manifest?.seed ?? meta.seed,
    ...(manifest ? { fuzzRuns: manifest.fuzz_runs, suites: manifest.suites, target: manifest.target } : {}),
    ...(manifest?.models ? { models: recordedModels(manifest.models) } : {}),
    ...(manifest?.filter ? { filter: manifest.filter } : {}),
    baseUrl: meta.base_url,
    ...(meta.plugin_url !== undefined ? { pluginUrl: meta.plugin_url } : {}),
    credentials: {
      ...(meta.credentials.api_key ? { apiKey: REPLAY_API_KEY } : {}),
      ...(meta.credentials.member_api_key ? { memberApiKey: REPLAY_MEMBER_API_KEY } : {}),
      ...(meta.credentials.organization !== undefined ? { organization: meta.credentials.organization } : {}),
      ...(meta.credentials.other_organization !== undefined ? { otherOrganization: meta.credentials.other_organization } : {}),
    },
  };
}

/** The manifest's models, for the roles this version knows (a newer recording may name more). */
function recordedModels(models: Record<string, string>): Partial<Record<AnyRole, string>> {
  const known = new Set<string>([...ROLES, ...OPTIONAL_ROLES]);
  return Object.fromEntries(Object.entries(models).filter(([role, name]) => known.has(role) && typeof name === 'string'));
}

export async function createTransport(req: TransportRequest): Promise<Transport> {
  const mode = transportMode(req);
  const onNotice = req.onNotice ?? ((m: string) => void process.stderr.write(`notice: ${m}\n`));
  switch (mode) {
    case 'live':
    case 'wild': {
      const live = new LiveTransport({ maxResponseBytes: req.profile.maxResponseBytes, redactor: req.redactor, ...(req.connect ? { connect: req.connect } : {}) });
      return req.throttle?.(live) ?? live;
    }
    case 'lockdown': {
      // Imported only here: importing nock intercepts sockets.
      const { ReplayTransport } = await import('../transport/replay.ts');
      return new ReplayTransport({ dir: req.cassettes!, redactor: req.redactor, maxResponseBytes: req.profile.maxResponseBytes, onNotice });
    }
    case 'record':
    case 'update':
    case 'dryrun': {
      const { RecordTransport } = await import('../transport/record.ts');
      return new RecordTransport({
        dir: req.cassettes!, mode, redactor: req.redactor, profile: req.profile, seed: req.seed, onNotice,
        ...(req.manifest ? { manifest: req.manifest } : {}),
        ...(req.placeholderOrigins ? { placeholderOrigins: req.placeholderOrigins } : {}),
        ...(req.throttle ? { through: req.throttle } : {}),
      });
    }
  }
}
