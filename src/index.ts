// The package's public API (`import { … } from 'model-api-conformance'`). Everything else is internal.

export { runConformance, type RunConformanceOptions, type RunConformanceResult } from './api/run-conformance.ts';
export { startReferenceServer, FAULTS, type ReferenceOptions, type ReferenceServer, type FaultName, type FaultSpec } from './reference/index.ts';
export { useCassettes, type UseCassettesOptions, type CassetteHandle, type CassetteMatch, type CassetteMode } from './api/use-cassettes.ts';
export type { Report, Summary, Coverage, CoverageEntry } from './report/types.ts';
export type { CheckResult, ResultStatus } from './engine/types.ts';
