// Load everything a run needs before sending a single request: a bad file stops here (exit 2).

import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { loadCatalogue } from '../catalogue/load.ts';
import type { Catalogue } from '../catalogue/types.ts';
import { defaultRegistry } from '../checks/index.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import { builtinVariableNames } from '../engine/index.ts';
import { SchemaRegistry } from '../schema/registry.ts';
import type { PluginLimits } from '../schema/plugin-limits.ts';
import { shippedSuitesDir, writeCompiledSuites } from '../suite/compiled.ts';
import { loadSuites, readSuiteFile, suiteFilesIn, type SuiteVocabulary } from '../suite/load.ts';
import type { SuitePlan } from '../suite/types.ts';
import { repoRoot } from '../util/paths.ts';
import { UsageError } from './usage-error.ts';

export const defaultSuitesDir = shippedSuitesDir;

export interface Harness {
  catalogue: Catalogue;
  schemas: SchemaRegistry;
  registry: CheckRegistry;
  plans: SuitePlan[];
}

export { UsageError } from './usage-error.ts';

export function loadHarness(opts: { suitesDir?: string; files?: string[]; userPaths?: string[]; only?: boolean; pluginLimits?: Partial<PluginLimits> } = {}): Harness {
  const builtin = loadCatalogue();
  const schemas = SchemaRegistry.load(undefined, opts.pluginLimits ? { pluginLimits: opts.pluginLimits } : {});
  const registry = defaultRegistry();
  const files = opts.only ? [] : opts.files ?? suiteFilesIn(opts.suitesDir ?? defaultSuitesDir);
  // A file named twice (a folder and a file in it, or the config's `suites:` and the command line) runs once.
  const userFiles = [...new Set((opts.userPaths ?? []).flatMap(suitePathsOf))];
  const plans = loadSuites(files, harnessVocabulary(builtin, registry), userFiles);
  // A user suite's own schema files (absolute refs) and catalogue join the run's: coverage shows their IDs.
  for (const plan of plans) for (const c of plan.spec.cases) if (c.expect?.schema && isAbsolute(c.expect.schema)) schemas.addFile(c.expect.schema);
  const catalogue = mergeCatalogues(builtin, [...new Set(plans.flatMap((p) => (p.catalogueFile ? [p.catalogueFile] : [])))].map((f) => loadCatalogue(f)));
  return { catalogue, schemas, registry, plans };
}

/** What a suite may name: our catalogue's IDs, our checks and their parameters, our schema files, the built-in variables. */
export function harnessVocabulary(catalogue: Catalogue, registry: CheckRegistry): SuiteVocabulary {
  const schemasDir = join(repoRoot, 'schemas');
  return {
    requirementIds: new Set(catalogue.byId.keys()),
    checkNames: registry.names(),
    checkParams: (name) => registry.params(name),
    schemaExists: (ref) => existsSync(join(schemasDir, ref)),
    builtinVariables: builtinVariableNames,
    loadCatalogueIds: (path) => loadCatalogue(path).byId.keys(),
  };
}

/** Writes dist/suites.json, the shipped suites' plans (see suite/compiled.ts): a run need not parse them. */
export function writeCompiledBuiltinSuites(): string {
  return writeCompiledSuites(harnessVocabulary(loadCatalogue(), defaultRegistry()), readSuiteFile, suiteFilesIn(shippedSuitesDir));
}

/** A suite path: a file, or a folder of suite files (its *.yaml / *.yml, not requirements catalogues). */
function suitePathsOf(path: string): string[] {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new UsageError(`no suite file or folder at ${path}`);
  if (statSync(abs).isDirectory()) {
    const files = suiteFilesIn(abs).filter((f) => !/requirements\.ya?ml$/.test(f));
    if (files.length === 0) throw new UsageError(`${path} holds no suite file (*.yaml)`);
    return files;
  }
  return [abs];
}

function mergeCatalogues(base: Catalogue, own: Catalogue[]): Catalogue {
  if (own.length === 0) return base;
  const byId = new Map(base.byId);
  const list = [...base.list];
  for (const c of own) for (const r of c.list) if (!byId.has(r.id)) { byId.set(r.id, r); list.push(r); }
  return { file: base.file, byId, list };
}
