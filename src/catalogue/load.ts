import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write.ts';
import { ownValidator } from '../schema/own-validators.ts';
import { parsePlainYaml } from '../suite/plain-yaml.ts';
import { parseYaml, positionOf, stepsOf } from '../suite/yaml-source.ts';
import { SuiteError, type SuiteProblem } from '../suite/errors.ts';
import { repoRoot } from '../util/paths.ts';
import type { Catalogue, Requirement } from './types.ts';

export const defaultCataloguePath = join(repoRoot, 'suites', 'requirements.yaml');
/** The shipped catalogue as JSON, written by the build once it loaded and validated (see writeBuiltCatalogue). */
export const builtCataloguePath = join(repoRoot, 'dist', 'catalogue.json');

/** Load the requirements catalogue; a malformed one fails like a bad suite, with file:line:col. */
export function loadCatalogue(path = defaultCataloguePath): Catalogue {
  const text = readFileSync(path, 'utf8');
  const built = path === defaultCataloguePath ? builtCatalogue(path, text) : undefined;
  if (built) return built;
  // Every run loads it: the fast reader when the catalogue is sound, the positions only to report a problem.
  const quick = quickCatalogue(path, text);
  if (quick) return quick;
  const { source, problems } = parseYaml(path, text);
  const fail = (ps: SuiteProblem[]) => new SuiteError(ps, new Map([[path, text]]));
  if (problems.length) throw fail(problems);
  const data = source.doc.toJS() as { requirements?: Requirement[] };
  const validate = validator();
  if (!validate(data)) {
    throw fail((validate.errors ?? []).slice(0, 20).map((e) => ({ pos: positionOf(source, stepsOf(e.instancePath)).pos, message: `${e.instancePath || 'catalogue'} ${e.message}` })));
  }
  const list = data.requirements ?? [];
  const byId = new Map<string, Requirement>();
  const duplicates: SuiteProblem[] = [];
  list.forEach((r, i) => {
    if (byId.has(r.id)) duplicates.push({ pos: positionOf(source, ['requirements', i, 'id']).pos, message: `requirement id "${r.id}" is defined twice` });
    byId.set(r.id, r);
  });
  if (duplicates.length) throw fail(duplicates);
  return { file: path, byId, list };
}

function validator() {
  return ownValidator('requirements');
}

/**
 * The catalogue through the plain-YAML reader (suite/plain-yaml.ts) when it is written in that subset, validates
 * and has no duplicate id; undefined: load it with positions.
 */
function quickCatalogue(path: string, text: string): Catalogue | undefined {
  const data = parsePlainYaml(text) as { requirements?: Requirement[] } | undefined;
  if (data === undefined || !validator()(data)) return undefined;
  const list = data.requirements ?? [];
  const byId = new Map(list.map((r) => [r.id, r]));
  return byId.size === list.length ? { file: path, byId, list } : undefined;
}

const fingerprintOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Every run reads the shipped catalogue (165 KB of YAML: 30 ms of parsing and validating on a cold start). The
 * build writes it as JSON with the fingerprint of the YAML it came from; a stale or missing file (an edited
 * catalogue in a checkout) means the YAML is read as before.
 */
function builtCatalogue(path: string, text: string): Catalogue | undefined {
  if (!existsSync(builtCataloguePath)) return undefined;
  try {
    const built = JSON.parse(readFileSync(builtCataloguePath, 'utf8')) as { fingerprint?: string; requirements?: Requirement[] };
    if (built.fingerprint !== fingerprintOf(text) || !Array.isArray(built.requirements)) return undefined;
    return { file: path, byId: new Map(built.requirements.map((r) => [r.id, r])), list: built.requirements };
  } catch {
    return undefined;
  }
}

/** Writes dist/catalogue.json from the shipped catalogue, loaded (and so validated) from its YAML. */
export function writeBuiltCatalogue(): string {
  const text = readFileSync(defaultCataloguePath, 'utf8');
  const quick = quickCatalogue(defaultCataloguePath, text);
  const catalogue = quick ?? loadCatalogue(defaultCataloguePath); // throws, with positions, on a bad catalogue
  writeFileAtomicSync(builtCataloguePath, `${JSON.stringify({ fingerprint: fingerprintOf(text), requirements: catalogue.list })}\n`);
  return builtCataloguePath;
}
