import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownValidator } from '../schema/own-validators.ts';
import jsyaml from 'js-yaml';
import { parseYaml, positionOf, stepsOf } from '../suite/yaml-source.ts';
import { SuiteError, type SuiteProblem } from '../suite/errors.ts';
import { repoRoot } from '../util/paths.ts';
import type { Catalogue, Requirement } from './types.ts';

export const defaultCataloguePath = join(repoRoot, 'suites', 'requirements.yaml');

/** Load the requirements catalogue; a malformed one fails like a bad suite, with file:line:col. */
export function loadCatalogue(path = defaultCataloguePath): Catalogue {
  const text = readFileSync(path, 'utf8');
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

/** The catalogue through js-yaml when it validates and has no duplicate id; undefined: load it with positions. */
function quickCatalogue(path: string, text: string): Catalogue | undefined {
  let data: { requirements?: Requirement[] };
  try { data = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA }) as typeof data; } catch { return undefined; }
  if (!validator()(data)) return undefined;
  const list = data.requirements ?? [];
  const byId = new Map(list.map((r) => [r.id, r]));
  return byId.size === list.length ? { file: path, byId, list } : undefined;
}
