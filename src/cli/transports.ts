// The table of transports: live, and (with --cassettes) record or replay.

import type { TargetProfile } from '../profile/types.ts';
import type { Transport } from '../transport/types.ts';
import { LiveTransport } from '../transport/live.ts';
import type { Redactor } from '../util/redact.ts';

export interface TransportRequest {
  profile: TargetProfile;
  redactor: Redactor;
  record: boolean;
  cassettes?: string;
  recordMode?: string;
  seed: number;
}

export async function createTransport(req: TransportRequest): Promise<Transport> {
  return new LiveTransport({ maxResponseBytes: req.profile.maxResponseBytes, redactor: req.redactor });
}
