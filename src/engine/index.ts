// The engine's public surface: what the CLI, the library, fuzzing and the tests use. Nothing imports its files directly.

export { runSuites } from './run.ts';
export { selectCases } from './select.ts';
export { builtinScope, builtinVariableNames, runIdFor } from './scope.ts';
export { generationAllowanceMs } from './case/send-options.ts';
export type { CaseFilter, EngineOptions } from './options.ts';
