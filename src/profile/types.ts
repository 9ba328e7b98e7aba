// What the harness knows about the target: where it is, which models play which role, what it claims.

import type { Area } from '../suite/types.ts';

export const ROLES = ['completion', 'chat', 'edit', 'embedding', 'transcription', 'moderation', 'fine_tune_base'] as const;
export type Role = (typeof ROLES)[number];

export interface Credentials {
  apiKey?: string;
  memberApiKey?: string;
  organization?: string;
  otherOrganization?: string;
}

export interface Timeouts {
  /** Per request (whole response, non-stream). */
  requestMs: number;
  /** Longest silence tolerated inside a stream before it counts as stalled. */
  streamIdleMs: number;
  /** Longest a stream may last in all. */
  streamTotalMs: number;
  /** Default deadline of a polling case (fine-tune jobs on a live service take minutes). */
  pollDeadlineMs: number;
}

export interface TargetProfile {
  baseUrl: string;
  pluginUrl?: string;
  models: Record<Role, string>;
  /** Context length by model name; unknown models fall back to `defaultContextLength`. */
  contextLengths: Record<string, number>;
  defaultContextLength: number;
  /** Areas the target claims to implement; the others are reported as skipped. */
  areas: ReadonlySet<Area>;
  credentials: Credentials;
  timeouts: Timeouts;
  /** Largest response body read, in bytes. */
  maxResponseBytes: number;
  /** Header names whose values never leave the process (redacted in reports and cassettes). */
  secretHeaders: readonly string[];
}
