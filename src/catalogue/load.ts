import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parseYaml, positionOf, stepsOf } from '../suite/yaml-source.ts';
import { SuiteError, type SuiteProblem } from '../suite/errors.ts';
import { repoRoot } from '../util/paths.ts';
import type { Catalogue, Requirement } from './types.ts';

export const defaultCataloguePath = join(repoRoot, 'suites', 'requirements.yaml');

/** Load the requirements catalogue; a malformed one fails like a bad suite, with file:line:col. */
export function loadCatalogue(path = defaultCataloguePath): Catalogue {
  const text = readFileSync(path, 'utf8');
  const { source, problems } = parseYaml(path, text);
  const fail = (ps: SuiteProblem[]) => new SuiteError(ps, new Map([[path, text]]));
  if (problems.length) throw fail(problems);
  const data = source.doc.toJS() as { requirements?: Requirement[] };
  const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'requirements.schema.json'), 'utf8'));
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
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
