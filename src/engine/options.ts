// What the engine is given: the plans, the transport stack, the profile and registries, and how to report.

import type { CheckRegistry } from '../checks/registry.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { SuitePlan } from '../suite/types.ts';
import type { Transport } from '../transport/types.ts';
import { type SeverityOf } from '../judge/citation.ts';
import { ProblemWatch, type StillAnswers } from './problems.ts';
import { type RunListener } from './types.ts';
import type { ProgrammaticSuite } from './programmatic.ts';

export interface CaseFilter {
  grep?: string;
  tags?: string[];
}

export interface EngineOptions {
  plans: SuitePlan[];
  transport: Transport;
  profile: TargetProfile;
  registry: CheckRegistry;
  schemas: SchemaRegistry;
  seed: number;
  filter?: CaseFilter;
  listener?: RunListener;
  signal?: AbortSignal;
  /** Builds the command line that reruns one case. */
  reproduce: (suite: string, caseId: string) => string;
  /** Extra data recorders store with each suite (e.g. tool version). */
  suiteMeta?: Record<string, unknown>;
  /** Severity of catalogue requirements: built-in expectations of a case citing only `should` IDs are warnings. */
  severityOf?: SeverityOf;
  /** Suites written in code (fuzzing, plugin checker), run after the YAML suites. */
  programmatic?: ProgrammaticSuite[];
  /** How many suites run at once (cases inside a suite stay sequential); default 1. */
  jobs?: number;
  /** Keep the request and a response excerpt of passing results too (--report-passes). */
  reportPasses?: boolean;
  /** Live runs: asked when a request timed out with nothing answered meanwhile; false stops the run (problems.ts). */
  stillAnswers?: StillAnswers;
}

export type WatchedOptions = EngineOptions & { watch?: ProblemWatch };
