// What `npm run build` writes beside the compiled JavaScript, so that a run starts without compiling or
// parsing what never changes between runs: the validators of our own formats and of the shipped schemas, the
// shipped catalogue as JSON, and the CLI as a bundle.
// Each artifact carries the fingerprint of its source and is ignored when stale.

import { writeBuiltCatalogue } from '../catalogue/load.ts';
import { writeCompiledBuiltinSuites } from '../run/setup.ts';
import { writeOwnValidators } from '../schema/own-validators.ts';
import { writeShippedSchemaValidators } from '../schema/precompile.ts';
import { writeCliBundle } from './bundle.ts';

export async function writeBuildArtifacts(): Promise<string[]> {
  return [...writeOwnValidators(), writeShippedSchemaValidators(), writeBuiltCatalogue(), writeCompiledBuiltinSuites(), await writeCliBundle()];
}
