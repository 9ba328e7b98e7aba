// What a suite may refer to (requirement IDs, checks and their parameters, schema files, variables): checked at
// load, so a typo is a problem with its position, not a failure at run time.

import type { ParamSpecs } from '../checks/types.ts';

export interface SuiteVocabulary {
  requirementIds: ReadonlySet<string>;
  checkNames: ReadonlySet<string>;
  /** The parameters (`with:`) a check takes; without it, `with:` is not checked at load. */
  checkParams?(name: string): ParamSpecs | undefined;
  schemaExists(ref: string): boolean;
  builtinVariables: ReadonlySet<string>;
  /** A user suite's folder: its `schema:` refs that exist there become absolute paths. */
  schemaBase?: string;
  /** The IDs of a user's catalogue file (same format as suites/requirements.yaml). */
  loadCatalogueIds?(path: string): Iterable<string>;
}
