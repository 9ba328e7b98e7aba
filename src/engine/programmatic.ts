// Suites written in code rather than YAML (property-based fuzzing, the plugin checker). They run through
// the same transport, emit the same events and produce the same CheckResults as YAML suites.

import type { CheckRegistry } from '../checks/registry.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { Area } from '../suite/types.ts';
import type { Transport } from '../transport/types.ts';
import type { CheckResult } from './types.ts';

export interface ProgrammaticContext {
  transport: Transport;
  profile: TargetProfile;
  registry: CheckRegistry;
  schemas: SchemaRegistry;
  seed: number;
  signal?: AbortSignal;
  /** Report the results of one case as it ends (drives the console and the reports). */
  emitCase(caseId: string, results: CheckResult[]): void;
  filter?: { grep?: string; tags?: string[] };
}

export interface ProgrammaticSuite {
  name: string;
  area: Area;
  tags?: string[];
  /**
   * Whether a --grep/--tag selection can match any of the suite's cases, decided before anything is sent, so a
   * selection that matches nothing anywhere is a usage error (exit 2) and not a green run.
   */
  selects(filter: NonNullable<ProgrammaticContext['filter']>, profile: TargetProfile): boolean;
  /** About how many requests it sends (what --shard balances), when the suite can tell. */
  cost?: number;
  run(ctx: ProgrammaticContext): Promise<void>;
}
