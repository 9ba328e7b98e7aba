// The package's public API (`import { … } from 'model-api-conformance'`). Everything else is internal.

// First: on a Node too old for the library, importing it fails here, saying so, not later and elsewhere.
import './util/require-node.ts';

export { runConformance, type RunConformanceOptions, type RunConformanceResult } from './api/run-conformance.ts';
export { startReferenceServer, FAULTS, type ReferenceOptions, type ReferenceServer, type FaultName, type FaultSpec } from './reference/index.ts';
export { useCassettes, type UseCassettesOptions, type CassetteHandle, type CassetteMatch, type CassetteMode } from './api/use-cassettes.ts';
export type { Report, Summary, Coverage, CoverageEntry } from './report/types.ts';
export type { CheckResult, ResultStatus } from './engine/types.ts';
