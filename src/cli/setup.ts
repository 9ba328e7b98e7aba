// Load everything a run needs before sending a single request: a bad file stops here (exit 2).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../catalogue/load.ts';
import type { Catalogue } from '../catalogue/types.ts';
import { defaultRegistry } from '../checks/index.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import { builtinVariableNames } from '../engine/run.ts';
import { SchemaRegistry } from '../schema/registry.ts';
import type { PluginLimits } from '../schema/plugin-limits.ts';
import { loadSuites, suiteFilesIn } from '../suite/load.ts';
import type { SuitePlan } from '../suite/types.ts';
import { repoRoot } from '../util/paths.ts';

export const defaultSuitesDir = join(repoRoot, 'suites');

export interface Harness {
  catalogue: Catalogue;
  schemas: SchemaRegistry;
  registry: CheckRegistry;
  plans: SuitePlan[];
}

export class UsageError extends Error {}

export function loadHarness(opts: { suitesDir?: string; files?: string[]; pluginLimits?: Partial<PluginLimits> } = {}): Harness {
  const catalogue = loadCatalogue();
  const schemas = SchemaRegistry.load(undefined, opts.pluginLimits ? { pluginLimits: opts.pluginLimits } : {});
  const registry = defaultRegistry();
  const schemasDir = join(repoRoot, 'schemas');
  const files = opts.files ?? suiteFilesIn(opts.suitesDir ?? defaultSuitesDir);
  const plans = loadSuites(files, {
    requirementIds: new Set(catalogue.byId.keys()),
    checkNames: registry.names(),
    schemaExists: (ref) => existsSync(join(schemasDir, ref)),
    builtinVariables: builtinVariableNames,
  });
  return { catalogue, schemas, registry, plans };
}
