/**
 * Schema registry: loads every `*.schema.json` under a directory (default `<repo>/schemas`),
 * compiles each lazily on first use (once, then cached) with Ajv (draft-07, ajv-formats,
 * allErrors, strict false), and turns Ajv errors into readable {@link SchemaIssue}s.
 *
 * Refs are paths relative to the schemas directory with forward slashes, e.g.
 * `resources/file.schema.json`; resource schemas use the same string as `$id`, so relative
 * `$ref`s such as `{"$ref": "file.schema.json"}` resolve against it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, MissingRefError } from 'ajv';
import type { ErrorObject, ValidateFunction, AnySchemaObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { generatedDir, ownValidator, packageVersion } from './own-validators.ts';
import { MANIFEST_LENGTH_FIELDS, resolvePluginLimits } from './plugin-limits.ts';
import type { PluginLimits } from './plugin-limits.ts';
import { escapeToken } from '../util/pointer.ts';

export interface SchemaIssue {
  /** RFC 6901 JSON pointer into the instance (`/` for the root). */
  pointer: string;
  /** The JSON Schema keyword that failed (required, type, const, enum, maxLength, oneOf, ...). */
  keyword: string;
  /** A readable sentence. */
  message: string;
  expected?: unknown;
  actual?: unknown;
}

export interface SchemaRegistryOptions {
  /** Override the plugin manifest length maxima (spec "Limits": these may change over time). */
  pluginLimits?: Partial<PluginLimits>;
}

export const defaultSchemasDir: string = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../schemas',
);

/** How the registry's Ajv reads schemas; the validators precompiled at build time are made the same way. */
export const REGISTRY_AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

/** The shipped schemas' validators as Ajv standalone code, written by the build (see precompile.ts). */
export const precompiledSchemasPath = path.join(generatedDir, 'schemas.cjs');
const load = createRequire(import.meta.url);

/**
 * What precompiled validators were made from: every shipped schema as loaded (plugin limits applied), with the
 * versions of Ajv and ajv-formats and the options. One fingerprint for all: a schema's code inlines the schemas
 * it refers to, so any change anywhere means compiling again.
 */
export function schemasFingerprint(entries: ReadonlyArray<readonly [string, AnySchemaObject]>): string {
  const hash = createHash('sha256').update(`ajv ${packageVersion('ajv')} ajv-formats ${packageVersion('ajv-formats')} ${JSON.stringify(REGISTRY_AJV_OPTIONS)}\n`);
  for (const [ref, schema] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(`${ref}\n${JSON.stringify(schema)}\n`);
  return hash.digest('hex');
}

const PLUGIN_MANIFEST_REF = 'resources/plugin-manifest.schema.json';
const DRAFT_07 = new Set(['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema']);

interface Entry {
  file: string;
  schema?: AnySchemaObject;
  loadError?: string;
}

export class SchemaRegistry {
  readonly dir: string;
  private readonly entries: Map<string, Entry>;
  private ajv: Ajv | undefined;
  private readonly addErrors = new Map<string, string>();
  /** Refs handed to Ajv (or found invalid) so far. */
  private readonly added = new Set<string>();
  private readonly compiled = new Map<string, ValidateFunction>();
  /** The build's validators of the shipped schemas, when they match them (null: none that match). */
  private precompiled: Record<string, ValidateFunction> | null | undefined;

  private constructor(dir: string, entries: Map<string, Entry>) {
    this.dir = dir;
    this.entries = entries;
  }

  static load(dir: string = defaultSchemasDir, options: SchemaRegistryOptions = {}): SchemaRegistry {
    const root = path.resolve(dir);
    if (!fs.existsSync(root)) throw new Error(`Schema directory not found: ${root}`);
    const entries = new Map<string, Entry>();
    for (const file of listSchemaFiles(root)) {
      const ref = path.relative(root, file).split(path.sep).join('/');
      try {
        const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
        if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
          entries.set(ref, { file, loadError: 'the file does not contain a JSON object' });
        } else {
          entries.set(ref, { file, schema: schema as AnySchemaObject });
        }
      } catch (err) {
        entries.set(ref, { file, loadError: `invalid JSON: ${(err as Error).message}` });
      }
    }
    const manifest = entries.get(PLUGIN_MANIFEST_REF)?.schema;
    if (manifest && options.pluginLimits) {
      entries.set(PLUGIN_MANIFEST_REF, {
        file: entries.get(PLUGIN_MANIFEST_REF)!.file,
        schema: applyPluginLimits(manifest, resolvePluginLimits(options.pluginLimits)),
      });
    }
    return new SchemaRegistry(root, entries);
  }

  refs(): string[] {
    return [...this.entries.keys()].sort();
  }

  /**
   * A schema file of a user's own suite, registered under its absolute path (the ref its plan uses). A file
   * that is not a JSON object is registered with its load error, reported when a case validates against it.
   */
  addFile(file: string): string {
    // A suite of thousands of cases names its schema thousands of times, already resolved: found as it is.
    if (this.entries.has(file)) return file;
    const ref = path.resolve(file);
    if (this.entries.has(ref)) return ref;
    let entry: Entry;
    try {
      const schema = JSON.parse(fs.readFileSync(ref, 'utf8')) as unknown;
      entry = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? { file: ref, schema: schema as AnySchemaObject } : { file: ref, loadError: 'the file does not contain a JSON object' };
    } catch (err) {
      entry = { file: ref, loadError: `invalid JSON: ${(err as Error).message}` };
    }
    this.entries.set(ref, entry);
    return ref;
  }

  /** Adds a schema to Ajv once it is known to be a valid draft-07 schema; otherwise records why it is not. */
  private addChecked(ref: string, schema: AnySchemaObject): void {
    const ajv = this.ajv!;
    try {
      const declared = schema['$schema'];
      if (declared === undefined || DRAFT_07.has(String(declared))) {
        const meta = ownValidator('json-schema');
        if (!meta(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(meta.errors)}`);
      } else {
        ajv.validateSchema(schema, true); // another draft: Ajv says which (and that it does not know it)
      }
      ajv.addSchema(schema, ref);
    } catch (err) {
      this.addErrors.set(ref, (err as Error).message);
    }
  }

  has(ref: string): boolean {
    return this.entries.has(ref);
  }

  /** The parsed schema object for a ref (undefined when unknown or unparseable). */
  schema(ref: string): AnySchemaObject | undefined {
    return this.entries.get(ref)?.schema;
  }

  /** Refs compiled so far (each is compiled once, on first validate). */
  compiledRefs(): string[] {
    return [...this.compiled.keys()].sort();
  }

  validate(ref: string, data: unknown): SchemaIssue[] {
    const validator = this.validator(ref);
    if (validator(data)) return [];
    return convertErrors(validator.errors ?? []);
  }

  private validator(ref: string): ValidateFunction {
    const cached = this.compiled.get(ref);
    if (cached) return cached;
    const entry = this.entries.get(ref);
    if (!entry) {
      throw new Error(`Unknown schema ref "${ref}". Known refs: ${this.refs().join(', ')}`);
    }
    if (entry.loadError) throw new Error(`Schema ${ref} (${entry.file}) could not be loaded: ${entry.loadError}`);
    // A user's schema (an absolute ref) is never among the build's: a run of its own suites does not load them.
    const built = path.isAbsolute(ref) ? undefined : this.precompiledValidators()?.[ref];
    if (built) {
      this.compiled.set(ref, built);
      return built;
    }
    const ajv = this.getAjv();
    this.addOnce(ref);
    const addError = this.addErrors.get(ref);
    if (addError) throw new Error(`Schema ${ref} (${entry.file}) is not a valid JSON Schema: ${addError}`);
    let fn: ValidateFunction | undefined;
    for (;;) {
      try {
        fn = ajv.getSchema(ref);
        break;
      } catch (err) {
        // A schema it refers to, not added yet: added now, and the compile tried again (as Ajv's compileAsync
        // does with its loader). Each retry adds one more schema, so this ends.
        const missing = err instanceof MissingRefError ? this.refNamed(err.missingSchema) ?? this.userFileNamed(ref, err.missingSchema) : undefined;
        if (missing === undefined || this.added.has(missing)) throw new Error(`Schema ${ref} (${entry.file}) failed to compile: ${(err as Error).message}`);
        this.addOnce(missing);
      }
    }
    if (!fn) throw new Error(`Schema ${ref} (${entry.file}) failed to compile`);
    this.compiled.set(ref, fn);
    return fn;
  }

  /**
   * Compiling the shipped schemas took a quarter of a second of every default run and replay. The build writes
   * them as standalone code; it is used when it was made from exactly the schemas this registry holds.
   */
  private precompiledValidators(): Record<string, ValidateFunction> | null {
    if (this.precompiled !== undefined) return this.precompiled;
    this.precompiled = null;
    if (this.dir !== path.resolve(defaultSchemasDir) || !fs.existsSync(precompiledSchemasPath)) return null;
    const module = load(precompiledSchemasPath) as Record<string, ValidateFunction> & { fingerprint?: unknown };
    if (module.fingerprint === schemasFingerprint(this.shippedSchemas())) this.precompiled = module;
    return this.precompiled;
  }

  /** Whether the shipped schemas are judged by the build's validators (they match what this registry holds). */
  usesBuildValidators(): boolean {
    return this.precompiledValidators() !== null;
  }

  /** The schemas under the registry's directory (a user's files, added by absolute path, are not among them). */
  shippedSchemas(): Array<[string, AnySchemaObject]> {
    return [...this.entries].filter(([ref, e]) => !path.isAbsolute(ref) && e.schema).map(([ref, e]) => [ref, e.schema!]);
  }

  private getAjv(): Ajv {
    if (this.ajv) return this.ajv;
    // Each schema is checked against the draft-07 meta-schema by the generated validator (addChecked): Ajv's own
    // check compiled the meta-schema at start-up and took 50 ms for the files under schemas/.
    // Schemas are added when first compiled, or when one being compiled refers to them: a run of a user's own
    // suites compiles its few schemas, not the ~50 shipped ones it never uses (20 ms of the peer workload).
    const ajv = new Ajv(REGISTRY_AJV_OPTIONS);
    addFormatsModule.default(ajv);
    this.ajv = ajv;
    return ajv;
  }

  /** Adds the schema registered as `ref` to Ajv (checked, see addChecked), once. */
  private addOnce(ref: string): void {
    if (this.added.has(ref)) return;
    this.added.add(ref);
    const schema = this.entries.get(ref)?.schema;
    if (schema) this.addChecked(ref, schema);
  }

  /**
   * A schema file of the user's that one of theirs refers to (`"$ref": "inner.schema.json"`, resolved against the
   * referring file's path): registered on first use, as the file their suite names was.
   */
  private userFileNamed(referrer: string, missing: string): string | undefined {
    if (!path.isAbsolute(referrer) || !path.isAbsolute(missing) || !missing.endsWith('.json') || !fs.existsSync(missing)) return undefined;
    return this.addFile(missing);
  }

  /** The registered schema a reference names: by the ref it is registered as, or by the $id it declares. */
  private refNamed(id: string): string | undefined {
    if (this.entries.has(id)) return id;
    for (const [ref, entry] of this.entries) {
      const declared = entry.schema?.['$id'];
      if (typeof declared === 'string' && declared.replace(/#$/, '') === id) return ref;
    }
    return undefined;
  }
}

function listSchemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listSchemaFiles(p));
    else if (e.isFile() && e.name.endsWith('.schema.json')) out.push(p);
  }
  return out.sort();
}

function applyPluginLimits(schema: AnySchemaObject, limits: PluginLimits): AnySchemaObject {
  const copy = structuredClone(schema) as AnySchemaObject;
  const props = copy['properties'] as Record<string, AnySchemaObject> | undefined;
  for (const field of MANIFEST_LENGTH_FIELDS) {
    const prop = props?.[field];
    if (prop) prop['maxLength'] = limits[field];
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Ajv error -> SchemaIssue

function pointerOf(instancePath: string): string {
  return instancePath === '' ? '/' : instancePath;
}

function childPointer(instancePath: string, key: string): string {
  return `${instancePath}/${escapeToken(key)}`;
}

import { jsonType } from '../util/json-type.ts';

export { jsonType };

function show(value: unknown): string {
  const s = JSON.stringify(value);
  if (s === undefined) return String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function describeBranch(schema: unknown, index: number): string {
  if (schema && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    if (typeof s['title'] === 'string') return s['title'];
    if (Array.isArray(s['required'])) return `object with ${(s['required'] as string[]).join(', ')}`;
    if (typeof s['$ref'] === 'string') return s['$ref'];
    if ('const' in s) return show(s['const']);
    if (s['type'] !== undefined) return `type ${Array.isArray(s['type']) ? s['type'].join('|') : String(s['type'])}`;
  }
  return `alternative ${index + 1}`;
}

function isUnder(err: ErrorObject, parent: ErrorObject): boolean {
  return (
    err !== parent &&
    err.schemaPath.startsWith(`${parent.schemaPath}/`) &&
    (err.instancePath === parent.instancePath || err.instancePath.startsWith(`${parent.instancePath}/`))
  );
}

/** Ajv's errors as readable issues, the branch errors of a failing oneOf/anyOf folded into it. */
export function convertErrors(errors: ErrorObject[]): SchemaIssue[] {
  // oneOf/anyOf noise: fold the branch errors into one issue per failing combinator.
  const combinators = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  const folded = new Map<ErrorObject, ErrorObject[]>();
  for (const c of combinators) folded.set(c, errors.filter((e) => isUnder(e, c)));
  const swallowed = new Set<ErrorObject>([...folded.values()].flat());

  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    if (swallowed.has(err) && !folded.has(err)) continue;
    if (err.keyword === 'if') continue; // the failing "then" errors are reported themselves
    const issue = convertOne(err, folded.get(err) ?? []);
    const key = `${issue.pointer}\u0000${issue.keyword}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function convertOne(err: ErrorObject, branchErrors: ErrorObject[]): SchemaIssue {
  const p = pointerOf(err.instancePath);
  const params = err.params as Record<string, unknown>;
  const data: unknown = err.data;
  switch (err.keyword) {
    case 'required': {
      const prop = String(params['missingProperty']);
      return {
        pointer: p,
        keyword: 'required',
        message: `Missing required property "${prop}" in the object at ${p}.`,
        expected: `property ${prop}`,
        actual: 'missing',
      };
    }
    case 'type': {
      const t = params['type'];
      const expected = Array.isArray(t) ? t.join(' or ') : String(t);
      const actual = jsonType(data);
      return { pointer: p, keyword: 'type', message: `The value at ${p} must be of type ${expected}, but it is ${actual}.`, expected, actual };
    }
    case 'const': {
      const allowed = params['allowedValue'];
      return { pointer: p, keyword: 'const', message: `The value at ${p} must be ${show(allowed)}, but it is ${show(data)}.`, expected: allowed, actual: data };
    }
    case 'enum': {
      const allowed = params['allowedValues'] as unknown[];
      return {
        pointer: p,
        keyword: 'enum',
        message: `The value at ${p} must be one of ${allowed.map(show).join(', ')}, but it is ${show(data)}.`,
        expected: allowed,
        actual: data,
      };
    }
    case 'maxLength':
    case 'minLength': {
      const limit = Number(params['limit']);
      const len = typeof data === 'string' ? [...data].length : undefined;
      const word = err.keyword === 'maxLength' ? 'at most' : 'at least';
      return {
        pointer: p,
        keyword: err.keyword,
        message: `The value at ${p} must be ${word} ${limit} characters long, but it has ${len ?? '?'} characters.`,
        expected: `${err.keyword === 'maxLength' ? '≤' : '≥'} ${limit} characters`,
        actual: len,
      };
    }
    case 'maxItems':
    case 'minItems': {
      const limit = Number(params['limit']);
      const len = Array.isArray(data) ? data.length : undefined;
      const word = err.keyword === 'maxItems' ? 'at most' : 'at least';
      return {
        pointer: p,
        keyword: err.keyword,
        message: `The array at ${p} must have ${word} ${limit} items, but it has ${len ?? '?'}.`,
        expected: `${err.keyword === 'maxItems' ? '≤' : '≥'} ${limit} items`,
        actual: len,
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const cmp = String(params['comparison']);
      const limit = params['limit'];
      return {
        pointer: p,
        keyword: err.keyword,
        message: `The value at ${p} must be ${cmp} ${String(limit)}, but it is ${show(data)}.`,
        expected: `${cmp.replace('>=', '≥').replace('<=', '≤')} ${String(limit)}`,
        actual: data,
      };
    }
    case 'format': {
      const format = String(params['format']);
      return {
        pointer: p,
        keyword: 'format',
        message: `The value at ${p} must be a valid ${format} (format "${format}"), but it is ${show(data)}.`,
        expected: `format ${format}`,
        actual: data,
      };
    }
    case 'additionalProperties': {
      const prop = String(params['additionalProperty']);
      const parent = err.parentSchema as Record<string, unknown> | undefined;
      const allowed = Object.keys((parent?.['properties'] as Record<string, unknown> | undefined) ?? {});
      return {
        pointer: childPointer(err.instancePath, prop),
        keyword: 'additionalProperties',
        message: `Property "${prop}" is not allowed in the object at ${p}${allowed.length ? `; allowed properties: ${allowed.join(', ')}` : ''}.`,
        expected: allowed.length ? `only properties ${allowed.join(', ')}` : 'no additional properties',
        actual: prop,
      };
    }
    case 'oneOf':
    case 'anyOf': {
      const branches = (Array.isArray(err.schema) ? err.schema : []) as unknown[];
      const names = branches.map(describeBranch);
      const passing = params['passingSchemas'];
      const quantifier = err.keyword === 'oneOf' ? 'exactly one' : 'at least one';
      let actual: string;
      if (Array.isArray(passing)) {
        actual = `matches ${(passing as number[]).map((i) => names[i] ?? `alternative ${i + 1}`).join(' and ')}`;
      } else {
        actual = 'matches none';
      }
      const reasons = names
        .map((name, i) => {
          const prefix = `${err.schemaPath}/${i}/`;
          const msgs = branchErrors
            .filter((b) => b.schemaPath.startsWith(prefix))
            .map((b) => convertOne(b, []).message.replace(/\.$/, ''));
          return msgs.length ? `${name}: ${msgs.join('; ')}` : undefined;
        })
        .filter((x): x is string => x !== undefined);
      const detail = !Array.isArray(passing) && reasons.length ? ` (${reasons.join(' | ')})` : '';
      return {
        pointer: p,
        keyword: err.keyword,
        message: `The value at ${p} must match ${quantifier} of: ${names.join(', ')}; it ${actual}${detail}.`,
        expected: `${quantifier} of: ${names.join(', ')}`,
        actual,
      };
    }
    case 'not': {
      const parent = err.parentSchema as Record<string, unknown> | undefined;
      const why = typeof parent?.['description'] === 'string' ? ` (${parent['description']})` : '';
      const notSchema = err.schema as Record<string, unknown> | undefined;
      const forbidden =
        notSchema && Array.isArray(notSchema['required'])
          ? `an object with ${(notSchema['required'] as string[]).join(', ')}`
          : 'the forbidden schema';
      return {
        pointer: p,
        keyword: 'not',
        message: `The value at ${p} must not be ${forbidden}${why}.`,
        expected: `not ${forbidden}`,
        actual: data,
      };
    }
    default:
      return {
        pointer: p,
        keyword: err.keyword,
        message: `The value at ${p} ${err.message ?? 'is invalid'}.`,
        expected: params,
        actual: data,
      };
  }
}
