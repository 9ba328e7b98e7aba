// Validators of the harness's own file formats (suite files, the requirements catalogue, the config file) and of
// JSON Schema draft-07 itself (every schema file the registry loads is checked against it).
// Compiling one with Ajv at start-up took 50–70 ms each (code generation on a cold JIT), more than a big run's
// suite parsing. The build writes them once as Ajv standalone code (`npm run build` → dist/validators/NAME.cjs,
// see writeOwnValidators); loading one takes about a millisecond. Each generated file records a hash of the
// schema text, the Ajv options and Ajv's version: a missing or stale file (a checkout running its sources after
// editing a schema) falls back to compiling, so the answer never depends on which path was taken.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { writeFileAtomicSync } from '../util/atomic-write.ts';
import { repoRoot } from '../util/paths.ts';

const schemasDir = join(repoRoot, 'schemas');
export const generatedDir = join(repoRoot, 'dist', 'validators');
const load = createRequire(import.meta.url);

/**
 * The formats, their schema files, and how Ajv reads them (`verbose` keeps the failing data for messages).
 * `json-schema` is JSON Schema draft-07 itself: every schema the registry holds is checked against it.
 */
const OWN_SCHEMAS = {
  suite: { file: join(schemasDir, 'suite.schema.json'), options: { allErrors: true, strict: false, verbose: true } },
  requirements: { file: join(schemasDir, 'requirements.schema.json'), options: { allErrors: true, strict: false } },
  config: { file: join(schemasDir, 'config.schema.json'), options: { allErrors: true, strict: false, verbose: true } },
  // The reports merge and compare read: the first problem is enough to refuse a file.
  report: { file: join(schemasDir, 'report.schema.json'), options: { strict: false, validateFormats: false } },
  // Its own meta-schema would clash with the one Ajv adds: compiled by an instance without meta-schemas.
  'json-schema': { file: load.resolve('ajv/dist/refs/json-schema-draft-07.json'), options: { allErrors: true, strict: false, meta: false, validateSchema: false, validateFormats: false } },
} as const satisfies Record<string, { file: string; options: Options }>;

export type OwnFormat = keyof typeof OWN_SCHEMAS;
/** An installed package's version: part of every fingerprint of generated code (a new Ajv generates new code). */
export const packageVersion = (pkg: string): string => String((JSON.parse(readFileSync(load.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version);
const ajvVersion = packageVersion('ajv');
const cache = new Map<OwnFormat, ValidateFunction>();

function fingerprint(format: OwnFormat, schemaText: string): string {
  return createHash('sha256').update(`${ajvVersion}\n${JSON.stringify(OWN_SCHEMAS[format].options)}\n${schemaText}`).digest('hex');
}

const fingerprints = new Map<OwnFormat, string>();

/** What identifies a format's validator (its schema, Ajv's options and version), without loading it. */
export function ownFingerprint(format: OwnFormat): string {
  let known = fingerprints.get(format);
  if (known === undefined) fingerprints.set(format, (known = fingerprint(format, readFileSync(OWN_SCHEMAS[format].file, 'utf8'))));
  return known;
}

/** The validator of one of the harness's formats: generated at build time when current, else compiled now. */
export function ownValidator(format: OwnFormat): ValidateFunction {
  const known = cache.get(format);
  if (known) return known;
  const schemaText = readFileSync(OWN_SCHEMAS[format].file, 'utf8');
  const generated = join(generatedDir, `${format}.cjs`);
  let validate: ValidateFunction | undefined;
  if (existsSync(generated)) {
    const module = load(generated) as ValidateFunction & { fingerprint?: string };
    if (module.fingerprint === fingerprint(format, schemaText)) validate = module;
  }
  validate ??= new Ajv(OWN_SCHEMAS[format].options).compile(JSON.parse(schemaText) as object);
  cache.set(format, validate);
  return validate;
}

/** Writes every format's standalone validator (CommonJS, requiring Ajv's runtime helpers) to `dir`. */
export function writeOwnValidators(dir: string = generatedDir): string[] {
  mkdirSync(dir, { recursive: true });
  return (Object.keys(OWN_SCHEMAS) as OwnFormat[]).map((format) => {
    const schemaText = readFileSync(OWN_SCHEMAS[format].file, 'utf8');
    const ajv = new Ajv({ ...OWN_SCHEMAS[format].options, code: { source: true } });
    const code = standalone.default(ajv, ajv.compile(JSON.parse(schemaText) as object));
    const path = join(dir, `${format}.cjs`);
    writeFileAtomicSync(path, `${code}\nmodule.exports.fingerprint = ${JSON.stringify(fingerprint(format, schemaText))};\n`);
    return path;
  });
}
