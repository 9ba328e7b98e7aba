// The built-in suites, compiled at build time: the build loads each shipped suite file (and so validates it, with
// positions for any problem) and writes its plan as JSON, with the fingerprint of the file's text, of the
// vocabulary it was checked against (the catalogue's IDs, the checks and their parameters, the built-in
// variables) and of the loader that checked it (the suite format's schema and the loader's modules). A run takes
// a plan only while all of them still match and the schema files it names exist; otherwise (a suite, the
// catalogue, a check or the loader edited in a checkout) the file is read as a user's suite is.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write.ts';
import { repoRoot } from '../util/paths.ts';
import type { SuitePlan } from './types.ts';
import type { SuiteVocabulary } from './vocabulary.ts';

export const shippedSuitesDir = join(repoRoot, 'suites');
export const compiledSuitesPath = join(repoRoot, 'dist', 'suites.json');

/** Changes when what an entry holds changes. */
const FORMAT = 'compiled-suites-2';
/** Stands for the file's path as a run shows it (relative to its working directory), which the build cannot know. */
const FILE = '\u0000suite-file';

interface CompiledSuite {
  fingerprint: string;
  /** The schema files its cases name: they must still exist. */
  schemas: string[];
  /** The plan as JSON, its paths replaced by FILE. */
  plan: string;
}

interface CompiledSuites {
  format: string;
  vocabulary: string;
  /** The loader's fingerprint, as its sources and as the built modules: a run compares the one it runs. */
  loader: Partial<Record<LoaderForm, string>>;
  /** By the file's name in the shipped suites folder. */
  suites: Record<string, CompiledSuite>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function vocabularyFingerprint(v: SuiteVocabulary): string {
  const checks = [...v.checkNames].sort().map((name) => [name, v.checkParams?.(name) ?? null]);
  return sha256(JSON.stringify({ ids: [...v.requirementIds].sort(), checks, variables: [...v.builtinVariables].sort() }));
}

type LoaderForm = 'src' | 'dist';
/** What checks a suite file at load, beside the vocabulary: these modules, and the suite format's schema. */
const LOADER_MODULES = ['suite/load', 'suite/template', 'suite/types', 'suite/fast-load', 'suite/yaml-source', 'profile/types'];
/** The code this process runs: the sources (tsx, vitest) or the build (dist/, or the CLI bundle built with it). */
const RUNNING: LoaderForm = import.meta.url.endsWith('.ts') ? 'src' : 'dist';

/** The loader's fingerprint in one form; undefined when that form is not there (no sources in an installed package). */
function loaderFingerprint(form: LoaderForm): string | undefined {
  try {
    const modules = LOADER_MODULES.map((m) => readFileSync(join(repoRoot, form, `${m}.${form === 'src' ? 'ts' : 'js'}`), 'utf8'));
    return sha256([readFileSync(join(repoRoot, 'schemas', 'suite.schema.json'), 'utf8'), ...modules].join('\u0000'));
  } catch {
    return undefined;
  }
}

/** The shipped folder's name of a path, or undefined for any other file (a user's, or a copy elsewhere). */
function shippedName(path: string): string | undefined {
  const rel = relative(shippedSuitesDir, path);
  return rel && !rel.startsWith('..') && !rel.includes('/') && !rel.includes('\\') ? rel : undefined;
}

/** Looks up compiled plans for one load: undefined for a file that must be read (not shipped, or changed since the build). */
export type CompiledLookup = (path: string, text: string, file: string) => SuitePlan | undefined;

export function compiledSuites(vocabulary: SuiteVocabulary, from = compiledSuitesPath): CompiledLookup {
  // Read, and the fingerprints taken, once and only when a shipped file is asked for.
  let built: CompiledSuites | null = null;
  let read = false;
  return (path, text, file) => {
    const name = shippedName(path);
    if (name === undefined) return undefined;
    if (!read) { built = readCompiled(vocabulary, from); read = true; }
    const entry = built?.suites[name];
    if (!entry || entry.fingerprint !== sha256(text) || !entry.schemas.every((ref) => vocabulary.schemaExists(ref))) return undefined;
    return JSON.parse(entry.plan, (key, value: unknown) => (key === 'file' && value === FILE ? file : value)) as SuitePlan;
  };
}

/** The build's plans, when they were checked against this vocabulary; null when they were not, or are unreadable. */
function readCompiled(vocabulary: SuiteVocabulary, from: string): CompiledSuites | null {
  if (!existsSync(from)) return null;
  try {
    const built = JSON.parse(readFileSync(from, 'utf8')) as CompiledSuites;
    const loader = built.loader?.[RUNNING];
    return built.format === FORMAT && loader !== undefined && loader === loaderFingerprint(RUNNING) && built.vocabulary === vocabularyFingerprint(vocabulary) ? built : null;
  } catch {
    return null;
  }
}

/**
 * Writes dist/suites.json: `read` reads one shipped suite from its text (throwing, with positions, on a bad one)
 * with the vocabulary given, which records the schema files it asks for.
 */
export function writeCompiledSuites(vocabulary: SuiteVocabulary, read: (path: string, vocabulary: SuiteVocabulary) => SuitePlan, files: string[], to = compiledSuitesPath): string {
  const suites: Record<string, CompiledSuite> = {};
  for (const path of files) {
    const name = shippedName(path);
    if (name === undefined) continue;
    const schemas = new Set<string>();
    const plan = read(path, { ...vocabulary, schemaExists: (ref) => (schemas.add(ref), vocabulary.schemaExists(ref)) });
    const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
    const shown = plan.file;
    suites[name] = { fingerprint: sha256(text), schemas: [...schemas].sort(), plan: JSON.stringify(plan, (key, value: unknown) => (key === 'file' && value === shown ? FILE : value)) };
  }
  const loader: CompiledSuites['loader'] = {};
  for (const form of ['src', 'dist'] as const) {
    const fingerprint = loaderFingerprint(form);
    if (fingerprint !== undefined) loader[form] = fingerprint;
  }
  const compiled: CompiledSuites = { format: FORMAT, vocabulary: vocabularyFingerprint(vocabulary), loader, suites };
  writeFileAtomicSync(to, `${JSON.stringify(compiled)}\n`);
  return to;
}
