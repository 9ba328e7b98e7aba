// The build's standalone validators of the shipped schemas (see SchemaRegistry.precompiledValidators): compiled
// by an Ajv made exactly as the registry makes its own, with ajv-formats' formats required from the package.

import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import standalone from 'ajv/dist/standalone/index.js';
import { writeFileAtomicSync } from '../util/atomic-write.ts';
import { precompiledSchemasPath, REGISTRY_AJV_OPTIONS, SchemaRegistry, schemasFingerprint } from './registry.ts';

export function writeShippedSchemaValidators(path: string = precompiledSchemasPath): string {
  const shipped = SchemaRegistry.load().shippedSchemas();
  const ajv = new Ajv({ ...REGISTRY_AJV_OPTIONS, code: { source: true } });
  addFormatsModule.default(ajv); // also tells the generated code where the format definitions come from
  for (const [ref, schema] of shipped) ajv.addSchema(schema, ref);
  const code = standalone.default(ajv, Object.fromEntries(shipped.map(([ref]) => [ref, ref])));
  writeFileAtomicSync(path, `${code}\nexports.fingerprint = ${JSON.stringify(schemasFingerprint(shipped))};\n`);
  return path;
}
