// Checks of the engines area, registered in checks/index.ts.

import type { Check, Finding, ResponseCheck } from '../types.ts';
import { idMatchesPath, listedIds } from '../models/index.ts';
import { skipUnlessOk } from '../completions/request.ts';
import { caseParam } from '../params.ts';

export const engineIdMatchesPath = idMatchesPath('engine_id_matches_path', 'ENG-RETRIEVE', 'engine');

/** Fine-tuned model names follow `<base_model>:ft-<organization>:<suffix>-<timestamp>` (suffix optional). */
export const FINE_TUNED_NAME = /:ft-/;

/** List engines: "list of Engine (non-fine-tuned models)". params.fine_tuned_model: a fine-tuned model known to exist. */
export const enginesNotFineTuned: ResponseCheck = {
  kind: 'response',
  name: 'engines_not_fine_tuned',
  over: '/data/*',
  requirements: ['ENG-NON-FINE-TUNED-ONLY'],
  severity: 'must',
  summary: 'GET /v1/engines lists no fine-tuned model',
  params: { fine_tuned_model: { kind: 'string', doc: 'a fine-tuned model known to exist' } },
  skipWhen: (ex) => skipUnlessOk(ex),
  run: (ex, ctx) => {
    const ids = listedIds(ex);
    if (!ids) return [{ pointer: '/data', message: 'the body is not a list', expected: 'data: [Engine]', actual: 'no data array' }];
    const findings: Finding[] = ids.flatMap((id, i): Finding[] => (FINE_TUNED_NAME.test(id) ? [{ pointer: `/data/${i}/id`, message: 'a fine-tuned model is listed as an engine', expected: 'non-fine-tuned models only', actual: id }] : []));
    const tuned = ctx.params.fine_tuned_model;
    if (typeof tuned === 'string' && ids.includes(tuned) && !FINE_TUNED_NAME.test(tuned)) {
      findings.push({ pointer: '/data', message: 'the caller\'s fine-tuned model is listed as an engine', expected: `no ${tuned}`, actual: tuned });
    }
    return findings;
  },
};

/** Versioning 4: the models endpoints replace the engines endpoints — every engine is a model (params: models_case). */
export const enginesListedAsModels: ResponseCheck = {
  kind: 'response',
  name: 'engines_listed_as_models',
  requirements: ['VER-ENGINES-REPLACED'],
  severity: 'should',
  summary: 'every engine of GET /v1/engines is also a model of GET /v1/models (params: models_case)',
  params: { models_case: caseParam('the case that listed GET /v1/models') },
  skipWhen: (ex, ctx) => {
    const c = ctx.params.models_case;
    if (typeof c !== 'string') return 'needs `with: { models_case: <case id of a GET /v1/models> }`';
    if (!listedIds(ctx.history.get(c))) return `case ${c} produced no model list`;
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const models = new Set(listedIds(ctx.history.get(ctx.params.models_case as string))!);
    const ids = listedIds(ex);
    if (!ids) return [{ pointer: '/data', message: 'the body is not a list', expected: 'data: [Engine]', actual: 'no data array' }];
    return ids.flatMap((id, i): Finding[] => (models.has(id) ? [] : [{ pointer: `/data/${i}/id`, message: `engine ${id} is not a model of GET /v1/models`, expected: 'listed as a model', actual: id }]));
  },
};

export const ENGINES_CHECKS: readonly Check[] = [engineIdMatchesPath, enginesNotFineTuned, enginesListedAsModels];
