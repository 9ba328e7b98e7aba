// What the harness knows about the target: where it is, which models play which role, what it claims.

import type { Area } from '../suite/types.ts';

export const ROLES = ['completion', 'chat', 'edit', 'embedding', 'transcription', 'moderation', 'fine_tune_base'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Roles with no default, because the spec names no such model: a case that needs one is skipped unless the
 * profile declares it. `non_chat`: a model the target serves that does not support chat (CHAT-MODEL-SUPPORTS-CHAT).
 */
export const OPTIONAL_ROLES = ['non_chat'] as const;
export type OptionalRole = (typeof OPTIONAL_ROLES)[number];
export type AnyRole = Role | OptionalRole;

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
  /**
   * Default deadline of a polling case, and the bound of a stream that lasts as long as a job (fine-tune jobs on a
   * live service take 10 to 20 minutes): running out while the target still works is a problem of the run.
   */
  pollDeadlineMs: number;
  /** How long a newly fine-tuned model may answer "still loading" ("a few minutes", the spec says). */
  modelLoadMs: number;
}

export interface TargetProfile {
  baseUrl: string;
  pluginUrl?: string;
  models: Record<Role, string>;
  /** Models of the optional roles the profile declares. */
  optionalModels: Partial<Record<OptionalRole, string>>;
  /**
   * Context length by model name. A model not listed has no known context length: cases at the context
   * boundary are skipped for it (a dated name such as gpt-3.5-turbo-0301 is not assumed to be 2048).
   */
  contextLengths: Record<string, number>;
  /** Areas the target claims to implement; the others are reported as skipped. */
  areas: ReadonlySet<Area>;
  credentials: Credentials;
  timeouts: Timeouts;
  /** Largest response body read, in bytes. */
  maxResponseBytes: number;
  /** Most requests one case may send for the items it follows (e.g. retrieving every listed model). */
  followBudget: number;
  /** Header names whose values never leave the process (redacted in reports and cassettes). */
  secretHeaders: readonly string[];
}
