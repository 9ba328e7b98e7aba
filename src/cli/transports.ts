// The table of transports: live, and (with --cassettes) record or replay.
//
//   no --cassettes                          live
//   --record --cassettes DIR                rerecord (every suite recorded again)
//   --cassettes DIR --record-mode record    record: suites with a cassette replay, missing ones are recorded
//   --cassettes DIR                         lockdown: replay only, network disabled

import type { Credentials, TargetProfile } from '../profile/types.ts';
import type { Transport } from '../transport/types.ts';
import { LiveTransport } from '../transport/live.ts';
import { readCassetteMeta } from '../transport/cassette.ts';
import type { Redactor } from '../util/redact.ts';
import { UsageError } from './setup.ts';

export interface TransportRequest {
  profile: TargetProfile;
  redactor: Redactor;
  record: boolean;
  cassettes?: string;
  recordMode?: string;
  seed: number;
  /** Where notices go (recorded interactions never used, suites not written); default stderr. */
  onNotice?: (message: string) => void;
}

export type TransportMode = 'live' | 'record' | 'rerecord' | 'lockdown';
const CASSETTE_MODES = ['record', 'rerecord', 'lockdown'] as const;

export function transportMode(req: { record: boolean; cassettes?: string | undefined; recordMode?: string | undefined }): TransportMode {
  if (req.recordMode !== undefined && !(CASSETTE_MODES as readonly string[]).includes(req.recordMode)) {
    throw new UsageError(`--record-mode must be one of ${CASSETTE_MODES.join(', ')} (got "${req.recordMode}")`);
  }
  if (req.cassettes === undefined) {
    if (req.record) throw new UsageError('--record needs --cassettes DIR');
    if (req.recordMode !== undefined) throw new UsageError('--record-mode needs --cassettes DIR');
    return 'live';
  }
  if (req.record) {
    if (req.recordMode === 'lockdown') throw new UsageError('--record cannot be combined with --record-mode lockdown');
    return (req.recordMode as TransportMode | undefined) ?? 'rerecord';
  }
  return (req.recordMode as TransportMode | undefined) ?? 'lockdown';
}

/** Placeholder keys for a replay of a run that had keys: requests carry "Bearer REDACTED" as in the recording. */
export const REPLAY_API_KEY = 'sk-replay-placeholder-api-key';
export const REPLAY_MEMBER_API_KEY = 'sk-replay-placeholder-member-api-key';

export interface RecordedSettings {
  seed: number;
  baseUrl: string;
  pluginUrl?: string;
  credentials: Credentials;
}

/** What a replay reuses from the cassettes' metadata: seed, base URL, plugin URL, which keys, organizations. */
export function recordedSettings(dir: string | undefined): RecordedSettings | undefined {
  if (dir === undefined) return undefined;
  const meta = readCassetteMeta(dir);
  if (meta === undefined) return undefined;
  return {
    seed: meta.seed,
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

export async function createTransport(req: TransportRequest): Promise<Transport> {
  const mode = transportMode(req);
  const onNotice = req.onNotice ?? ((m: string) => void process.stderr.write(`notice: ${m}\n`));
  switch (mode) {
    case 'live':
      return new LiveTransport({ maxResponseBytes: req.profile.maxResponseBytes, redactor: req.redactor });
    case 'lockdown': {
      // Imported only here: importing nock intercepts sockets.
      const { ReplayTransport } = await import('../transport/replay.ts');
      return new ReplayTransport({ dir: req.cassettes!, redactor: req.redactor, maxResponseBytes: req.profile.maxResponseBytes, onNotice });
    }
    case 'record':
    case 'rerecord': {
      const { RecordTransport } = await import('../transport/record.ts');
      return new RecordTransport({ dir: req.cassettes!, mode, redactor: req.redactor, profile: req.profile, seed: req.seed, onNotice });
    }
  }
}
