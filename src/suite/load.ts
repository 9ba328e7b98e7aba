// suite file → validated plan. Nothing runs until every suite file is known good.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { jsonPathLib } from '../util/lazy-modules.ts';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ownValidator } from '../schema/own-validators.ts';
import { parseYaml, positionOf, stepsOf, YAML_READING, type YamlSource } from './yaml-source.ts';
import { compiledSuites } from './compiled.ts';
import { checkedRead } from './fast-load.ts';
import { SuiteError, nearest, type SuiteProblem } from './errors.ts';
import { holdsTemplate, referencedNames, templateProblems, TemplateError } from './template.ts';
import { OPTIONAL_ROLES, ROLES } from '../profile/types.ts';
import type { ParamSpec, ParamSpecs } from '../checks/types.ts';
import { PREDICATE_KEYS, type CaseSpec, type SourcePos, type SuitePlan, type SuiteSpec } from './types.ts';
import type { SuiteVocabulary } from './vocabulary.ts';

/** The roles `{{models.<role>}}` may name. */
const MODEL_ROLES: ReadonlySet<string> = new Set([...ROLES, ...OPTIONAL_ROLES]);

/** What a suite may refer to: requirement IDs, check names, schema files, built-in variables. */
export type { SuiteVocabulary } from './vocabulary.ts';

function validator(): ValidateFunction {
  return ownValidator('suite');
}

export function suiteFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'requirements.yaml')
    .sort()
    .map((f) => join(dir, f));
}

/**
 * Load and validate suite files; throws one SuiteError listing every problem in every file. `user` files are
 * the user's own suites (given as paths): their `schema:` resolves next to the file first, and they may cite a
 * catalogue of their own (`requirements: path`) or none at all.
 */
export function loadSuites(files: string[], vocabulary: SuiteVocabulary, userFiles: readonly string[] = []): SuitePlan[] {
  const problems: SuiteProblem[] = [];
  const sources = new Map<string, string>();
  const plans: SuitePlan[] = [];
  const names = new Map<string, { file: string; pos: string }>();
  const user = new Set(userFiles.map((f) => resolve(f)));
  seenFiles.clear(); // files may have changed since the last load (a long-lived process, a test)
  const paths = [...files, ...userFiles.filter((f) => !files.some((g) => resolve(g) === resolve(f)))];
  // A byte-order mark is no character of the suite: kept, it shifted every column of the first line by one.
  const texts = new Map(paths.map((path) => [path, readFileSync(path, 'utf8').replace(/^\uFEFF/, '')]));
  // A catalogue of the user's lies beside their suites under any name: the file a suite names in its
  // `requirements:` is that catalogue, not a suite, wherever it was found (a folder given as a path).
  const catalogues = new Set(paths.filter((p) => user.has(resolve(p))).map((p) => ownCatalogueOf(p, texts.get(p)!)).filter((c) => c !== undefined));
  const compiled = compiledSuites(vocabulary);
  for (const path of paths) {
    if (catalogues.has(resolve(path))) continue;
    const file = displayPath(path);
    const text = texts.get(path)!;
    sources.set(file, text);
    const origin = user.has(resolve(path)) ? 'user' : 'builtin';
    const built = origin === 'builtin' ? compiled(resolve(path), text, file) : undefined;
    const { plan, problems: found } = built ? { plan: built, problems: [] } : loadSuiteText(file, text, origin === 'user' ? userVocabulary(vocabulary, path, text) : vocabulary);
    problems.push(...found);
    if (plan) {
      plan.origin = origin;
      const here = plan.namePosition ?? { file, line: 1, col: 1 };
      const earlier = names.get(plan.spec.name);
      if (earlier) problems.push({ pos: here, message: `suite name "${plan.spec.name}" is already used by ${earlier.pos}`, hint: `rename one of the two suites: ${earlier.pos} and ${here.file}:${here.line}:${here.col}` });
      else names.set(plan.spec.name, { file, pos: `${here.file}:${here.line}:${here.col}` });
      plans.push(plan);
    }
  }
  if (problems.length > 0) throw new SuiteError(problems, sources);
  return plans;
}

/** The absolute path of the catalogue a user's suite names (`requirements: ./mine.yaml`), if it names one. */
function ownCatalogueOf(path: string, text: string): string | undefined {
  const own = /^requirements:[ \t]*["']?([^"'\n#]+?)["']?[ \t]*(#.*)?$/m.exec(text)?.[1];
  return own ? resolve(dirname(resolve(path)), own.trim()) : undefined;
}

/**
 * What a user's suite may refer to: schema files next to it (then ours), the IDs of its own catalogue (then
 * ours). The catalogue file is found through the suite's `requirements:` field, read before validation.
 */
function userVocabulary(vocabulary: SuiteVocabulary, path: string, text: string): SuiteVocabulary {
  const dir = dirname(resolve(path));
  const catalogue = ownCatalogueOf(path, text);
  const ids = new Set(vocabulary.requirementIds);
  if (catalogue && existsSync(catalogue)) for (const id of (vocabulary.loadCatalogueIds?.(catalogue) ?? [])) ids.add(id);
  return { ...vocabulary, requirementIds: ids, schemaExists: (ref) => existsNear(dir, ref) || vocabulary.schemaExists(ref), schemaBase: dir };
}

/** Whether a schema file exists next to a suite: asked once per file and load, not once per case (a generated
 * suite of 3000 cases names the same three files). */
const seenFiles = new Map<string, boolean>();
const resolved = new Map<string, string>();
/** resolve(dir, ref), once per pair: a generated suite asks for the same few thousands of times. */
function resolveNear(dir: string, ref: string): string {
  const key = `${dir}\u0000${ref}`;
  let path = resolved.get(key);
  if (path === undefined) { path = resolve(dir, ref); resolved.set(key, path); }
  return path;
}
function existsNear(dir: string, ref: string): boolean {
  const path = resolveNear(dir, ref);
  let found = seenFiles.get(path);
  if (found === undefined) { found = existsSync(path); seenFiles.set(path, found); }
  return found;
}

const schemaFileProblems = new Map<string, string | undefined>();
/** Why a user's schema file cannot be a schema (not JSON, not an object), once per file and load; undefined when it can. */
function jsonSchemaFileProblem(path: string): string | undefined {
  if (schemaFileProblems.has(path)) return schemaFileProblems.get(path);
  let problem: string | undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) problem = 'is not a JSON object, so it is no JSON Schema';
  } catch (e) {
    problem = `is not valid JSON: ${(e as Error).message}`;
  }
  schemaFileProblems.set(path, problem);
  return problem;
}

/** One suite file read from its text, never from the build's plans (the build uses it to make them); throws as loadSuites does. */
export function readSuiteFile(path: string, vocabulary: SuiteVocabulary): SuitePlan {
  const file = displayPath(path);
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  const { plan, problems } = loadSuiteText(file, text, vocabulary);
  if (!plan || problems.length > 0) throw new SuiteError(problems, new Map([[file, text]]));
  return plan;
}

export function loadSuiteText(file: string, text: string, vocabulary: SuiteVocabulary): { plan?: SuitePlan; problems: SuiteProblem[] } {
  return fastLoad(file, text, vocabulary) ?? fullLoad(file, text, vocabulary);
}

/** A big, valid suite without a second look at positions (see fast-load.ts); undefined means: load it fully. */
/** An `assert:` key, block or flow; a false match (the word in a string) only costs the fast path. */
const MAY_ASSERT = /(?:^|[\s{,])assert\s*:/m;

function fastLoad(file: string, text: string, vocabulary: SuiteVocabulary): { plan: SuitePlan; problems: SuiteProblem[] } | undefined {
  // Inline assertions need their positions, which only the full load has: a file that may hold one goes there
  // before any parse (through the parse cache, a file outside the plain subset was parsed twice on its first run).
  if (MAY_ASSERT.test(text)) return undefined;
  const read = checkedRead(text);
  if (!read) return undefined;
  const { spec } = read;
  const pos = ([line, col]: [number, number]): SourcePos => ({ file, line, col });
  const positions = { cases: read.cases.map(pos), ...(read.name ? { name: pos(read.name) } : {}) };
  for (const c of spec.cases) c.requirements ??= [];
  // Semantic checks need positions only to report a problem: the full parse happens then, and only then.
  let full: YamlSource | undefined;
  const lazy = { file, text, get doc() { return (full ??= parseYaml(file, text).source).doc; }, get lines() { return (full ??= parseYaml(file, text).source).lines; } } as YamlSource;
  if (semanticProblems(lazy, spec, vocabulary).length > 0) return undefined;
  return { plan: finishPlan(file, spec, vocabulary, positions.cases, spec.cases.map(() => []), positions.name), problems: [] };
}

function finishPlan(file: string, spec: SuiteSpec, vocabulary: SuiteVocabulary, casePositions: SourcePos[], assertPositions: SourcePos[][], namePosition: SourcePos | undefined): SuitePlan {
  const base = vocabulary.schemaBase;
  if (base) for (const c of spec.cases) if (c.expect?.schema && existsNear(base, c.expect.schema)) c.expect.schema = resolveNear(base, c.expect.schema);
  const catalogue = typeof spec.requirements === 'string' && base ? resolve(base, spec.requirements) : undefined;
  return { spec, file, casePositions, assertPositions, ...(namePosition ? { namePosition } : {}), ...(catalogue ? { catalogueFile: catalogue } : {}) };
}

function fullLoad(file: string, text: string, vocabulary: SuiteVocabulary): { plan?: SuitePlan; problems: SuiteProblem[] } {
  const { source, problems } = parseYaml(file, text);
  if (problems.length > 0) return { problems };
  const data = source.doc.toJS(YAML_READING.toJS) as unknown;
  const validate = validator();
  if (!validate(data)) return { problems: schemaProblems(source, validate.errors ?? []) };
  const spec = data as SuiteSpec;
  for (const c of spec.cases) c.requirements ??= []; // an uncatalogued case of a user's suite
  const semantic = semanticProblems(source, spec, vocabulary);
  if (semantic.length > 0) return { problems: semantic };
  const casePositions = spec.cases.map((_, i) => positionOf(source, ['cases', i]).pos);
  const assertPositions = spec.cases.map((c, i) => (c.expect?.assert ?? []).map((_, j) => positionOf(source, ['cases', i, 'expect', 'assert', j]).pos));
  return { plan: finishPlan(file, spec, vocabulary, casePositions, assertPositions, positionOf(source, ['name']).pos), problems: [] };
}

function schemaProblems(source: YamlSource, errors: ErrorObject[]): SuiteProblem[] {
  // oneOf/anyOf report every branch; keep the most specific errors (deepest paths) per location.
  const deepest = new Map<string, ErrorObject>();
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const key = e.instancePath + '|' + e.keyword + '|' + JSON.stringify(e.params);
    if (!deepest.has(key)) deepest.set(key, e);
  }
  const chosen = [...deepest.values()];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of chosen) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const out: SuiteProblem[] = [];
  for (const [path, errs] of byPath) {
    // Prefer additionalProperties/required/enum over type noise from alternative branches.
    const ordered = errs.sort((a, b) => rank(a) - rank(b));
    const e = ordered[0]!;
    out.push(problemFor(source, path, e));
  }
  return out.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
}

function rank(e: ErrorObject): number {
  // A typo of a required key is both an unknown field and a missing one: the unknown field, with its
  // did-you-mean, says what to fix.
  if (e.keyword === 'additionalProperties') return 0;
  return ['required', 'enum', 'const', 'pattern'].includes(e.keyword) ? 1 : 2;
}

/** One ajv error as a problem at its YAML position (shared by suite files and the config file). */
export function problemFor(source: YamlSource, instancePath: string, e: ErrorObject, whole = 'the suite'): SuiteProblem {
  const steps = stepsOf(instancePath);
  const where = steps.length ? steps.join('.') : whole;
  if (e.keyword === 'additionalProperties') {
    const extra = String((e.params as { additionalProperty: string }).additionalProperty);
    const { pos, length } = positionOf(source, [...steps, extra], true);
    const allowed = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {});
    const guess = nearest(extra, allowed);
    return { pos, length, message: `unknown field "${extra}" in ${where}`, hint: guess ? `did you mean "${guess}"?` : `allowed: ${allowed.join(', ')}` };
  }
  const { pos, length } = positionOf(source, steps);
  if (e.keyword === 'required') {
    return { pos, length: 1, message: `${where} is missing the required field "${(e.params as { missingProperty: string }).missingProperty}"` };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
    const actual = String(resolveSteps(source, steps));
    // `status: "200"`: a status code quoted is a string, and "2xx" (the nearest class) would change its meaning.
    if (/^\d{3}$/.test(actual) && allowed.some((a) => /^\dxx$/.test(a))) {
      return { pos, length, message: `${where} "${actual}" is a string: a status code is a number`, hint: `write ${actual} without quotes (or a class: ${allowed.join(', ')})` };
    }
    const guess = nearest(actual, allowed);
    return { pos, length, message: `${where} must be one of ${allowed.join(', ')} (got "${actual}")`, ...(guess ? { hint: `did you mean "${guess}"?` } : {}) };
  }
  return { pos, length, message: `${where} ${e.message ?? 'is invalid'}` };
}

function resolveSteps(source: YamlSource, steps: Array<string | number>): unknown {
  return source.doc.getIn(steps);
}

function semanticProblems(source: YamlSource, spec: SuiteSpec, vocab: SuiteVocabulary): SuiteProblem[] {
  const problems: SuiteProblem[] = [];
  const at = (steps: Array<string | number>, message: string, hint?: string, key = false): void => {
    const { pos, length } = positionOf(source, steps, key);
    problems.push({ pos, length, message, ...(hint ? { hint } : {}) });
  };
  const known = new Set<string>([...vocab.builtinVariables, ...Object.keys(spec.variables ?? {})]);
  // Walk to each string so a problem points at the exact template, not the object around it. One path array is
  // extended and shortened on the way (copied only for a problem): a 3000-case suite allocated 11 MB of copies.
  const steps: Array<string | number> = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) { steps.push(i); visit(value[i]); steps.pop(); }
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const k in value) { steps.push(k); visit((value as Record<string, unknown>)[k]); steps.pop(); }
      return;
    }
    if (typeof value !== 'string' || !value.includes('{{')) return;
    let names: string[];
    try {
      names = referencedNames(value);
    } catch (e) {
      if (e instanceof TemplateError) { at([...steps], e.message); return; }
      throw e;
    }
    for (const problem of templateProblems(value, MODEL_ROLES)) at([...steps], problem);
    for (const n of names) {
      if (!known.has(n)) {
        const guess = nearest(n, known);
        at([...steps], `template uses "${n}", which is not defined at this point`, guess ? `did you mean "${guess}"?` : `defined: ${[...known].sort().join(', ')}`);
      }
    }
  };
  const checkNames = (value: unknown, at: Array<string | number>): void => {
    // Most cases hold no template: nothing to walk (and the engine asks holdsTemplate the same of these objects).
    if (!holdsTemplate(value)) return;
    steps.length = 0;
    steps.push(...at);
    visit(value);
  };
  // A user's own catalogue: a name that finds no file would only show up as "not in the catalogue" for each ID.
  if (typeof spec.requirements === 'string' && vocab.schemaBase && !existsNear(vocab.schemaBase, spec.requirements)) {
    at(['requirements'], `no catalogue file at ${spec.requirements} (next to the suite: ${resolveNear(vocab.schemaBase, spec.requirements)})`);
  }
  checkNames(spec.variables ?? {}, ['variables']);
  const ids = new Set<string>();
  spec.cases.forEach((c: CaseSpec, i) => {
    if (ids.has(c.id)) at(['cases', i, 'id'], `case id "${c.id}" is used twice in this suite`);
    c.requirements.forEach((r, j) => {
      if (!vocab.requirementIds.has(r)) {
        const guess = nearest(r, vocab.requirementIds);
        at(['cases', i, 'requirements', j], `requirement "${r}" is not in the catalogue (suites/requirements.yaml)`, guess ? `did you mean "${guess}"?` : undefined);
      }
    });
    checkNames(c.request, ['cases', i, 'request']);
    checkNames(c.expect ?? {}, ['cases', i, 'expect']);
    checkNames(c.poll ?? {}, ['cases', i, 'poll']);
    (c.poll?.requirements ?? []).forEach((r, j) => {
      if (!c.requirements.includes(r)) at(['cases', i, 'poll', 'requirements', j], `poll requirement "${r}" is not among the case's requirements`, `the case cites: ${c.requirements.join(', ')}`);
    });
    (c.expect?.checks ?? []).forEach((use, j) => {
      const name = typeof use === 'string' ? use : use.name;
      if (!vocab.checkNames.has(name)) {
        const guess = nearest(name, vocab.checkNames);
        at(['cases', i, 'expect', 'checks', j], `unknown check "${name}"`, guess ? `did you mean "${guess}"?` : 'run `conformance checks` to list them');
        return;
      }
      const declared = vocab.checkParams?.(name);
      if (declared) for (const p of paramProblems(name, typeof use === 'string' ? undefined : use.with, declared, ids)) at(['cases', i, 'expect', 'checks', j, ...p.steps], p.message, p.hint, p.key);
    });
    if (c.expect?.schema && !vocab.schemaExists(c.expect.schema)) at(['cases', i, 'expect', 'schema'], `schema "${c.expect.schema}" does not exist ${vocab.schemaBase ? 'next to the suite nor ' : ''}under schemas/`);
    else if (c.expect?.schema && vocab.schemaBase && existsNear(vocab.schemaBase, c.expect.schema)) {
      const unreadable = jsonSchemaFileProblem(resolveNear(vocab.schemaBase, c.expect.schema));
      if (unreadable) at(['cases', i, 'expect', 'schema'], `schema "${c.expect.schema}" ${unreadable}`);
    }
    (c.expect?.assert ?? []).forEach((a, j) => {
      for (const [key, pattern] of [['matches', a.matches], ...(a.every?.matches ? [['every', a.every.matches]] : [])] as const) {
        if (pattern === undefined) continue;
        try {
          new RegExp(pattern);
        } catch (e) {
          at(['cases', i, 'expect', 'assert', j, key], `not a regular expression: ${(e as Error).message}`);
        }
      }
      // A selector without a predicate asserts nothing: it would pass on any answer.
      for (const [steps, p] of [[[], a], [['every'], a.every], [['count'], a.count]] as const) {
        if (p !== undefined && !PREDICATE_KEYS.some((k) => p[k] !== undefined)) {
          at(['cases', i, 'expect', 'assert', j, ...steps], `${steps.length ? `${steps[0]}: {}` : 'the assertion'} has no predicate, so it would pass on any answer`, `add one of ${PREDICATE_KEYS.join(', ')} (e.g. exists: true)`);
        }
      }
      if (a.path !== undefined && !a.path.includes('{{')) {
        try {
          jsonPathLib().query({}, a.path);
        } catch (e) {
          at(['cases', i, 'expect', 'assert', j, 'path'], `not an RFC 9535 JSONPath: ${(e as Error).message.split('\n')[0]}`);
        }
      }
    });
    for (const name of Object.keys(c.capture ?? {})) known.add(name);
    // Only now: the checks of a case read the answers of the cases before it, never its own.
    ids.add(c.id);
  });
  return problems;
}

interface ParamProblem { steps: Array<string | number>; message: string; hint?: string; key?: boolean }

/**
 * What is wrong with a check's `with:` against the parameters it declares: an unknown name (a typo the check
 * would never read), a required one missing, a value of the wrong kind, or a case id naming no earlier case of
 * the suite (the check reads that case's exchange: a later or unknown one is never there).
 */
function paramProblems(check: string, given: Record<string, unknown> | undefined, declared: ParamSpecs, earlier: ReadonlySet<string>): ParamProblem[] {
  const problems: ParamProblem[] = [];
  const names = Object.keys(declared);
  const takes = names.length ? `${check} takes ${names.map((n) => `${n}${declared[n]!.required ? '' : '?'}`).join(', ')}` : `${check} takes no parameters`;
  const guessed = new Set<string>();
  for (const [key, value] of Object.entries(given ?? {})) {
    const spec = declared[key];
    if (!spec) {
      const guess = nearest(key, new Set(names));
      if (guess) guessed.add(guess);
      problems.push({ steps: ['with', key], key: true, message: `${check} has no parameter "${key}"`, hint: guess ? `did you mean "${guess}"? (${takes})` : takes });
      continue;
    }
    const wrong = valueProblem(spec, value, earlier);
    if (wrong) problems.push({ steps: ['with', key, ...wrong.steps], message: `${check}: parameter "${key}" ${wrong.message}`, ...(wrong.hint ? { hint: wrong.hint } : {}) });
  }
  // A required one that a misspelt key was meant to be is already told (did you mean …?).
  const missing = names.filter((n) => declared[n]!.required && given?.[n] === undefined && !guessed.has(n));
  if (missing.length) problems.push({ steps: given ? ['with'] : [], message: `${check} needs ${missing.map((n) => `\`with: { ${n}: … }\` (${declared[n]!.doc})`).join(' and ')}`, hint: takes });
  return problems;
}

function valueProblem(spec: ParamSpec, value: unknown, earlier: ReadonlySet<string>): { steps: Array<string | number>; message: string; hint?: string } | undefined {
  const templated = typeof value === 'string' && value.includes('{{');
  const caseId = (v: unknown, steps: Array<string | number>) => {
    if (typeof v !== 'string') return { steps, message: `must be a case id (${spec.doc}), got ${JSON.stringify(v)}` };
    if (v.includes('{{') || earlier.has(v)) return undefined;
    const guess = nearest(v, earlier);
    return { steps, message: `names no earlier case of this suite: "${v}"`, ...(guess ? { hint: `did you mean "${guess}"?` } : { hint: 'a check reads the answers of cases that ran before its own' }) };
  };
  switch (spec.kind) {
    case 'case':
      return caseId(value, []);
    case 'cases':
      if (!Array.isArray(value)) return { steps: [], message: `must be a list of case ids (${spec.doc})` };
      for (let k = 0; k < value.length; k++) {
        if (value[k] === null) continue;
        const wrong = caseId(value[k], [k]);
        if (wrong) return wrong;
      }
      return undefined;
    case 'string':
      return typeof value === 'string' ? undefined : { steps: [], message: `must be a string (${spec.doc}), got ${JSON.stringify(value)}` };
    case 'number':
      return typeof value === 'number' || templated ? undefined : { steps: [], message: `must be a number (${spec.doc}), got ${JSON.stringify(value)}` };
    case 'value':
      return undefined;
  }
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), resolve(path));
  return rel.startsWith('..') ? resolve(path) : rel;
}
