// Checks of the models area, registered in checks/index.ts.

import { notExercised, type Check, type CheckContext, type Finding, type ResponseCheck } from '../types.ts';
import { resolvePointer } from '../../util/pointer.ts';
import type { Exchange } from '../../transport/types.ts';
import { isRecord } from '../../util/json-type.ts';
import { okBody, skipUnlessOk } from '../completions/request.ts';

/** The last path segment of the request (the {model} / {engine_id} parameter), decoded. */
export function lastPathSegment(ctx: CheckContext): string {
  const segment = ctx.request.path.split('?')[0]!.split('/').pop() ?? '';
  try { return decodeURIComponent(segment); } catch { return segment; }
}

/** ids of a list body's data[] (undefined when the body is no list). */
export function listedIds(exchange: Exchange | undefined): string[] | undefined {
  const json = exchange?.response?.json;
  if (!isRecord(json) || !Array.isArray(json.data)) return undefined;
  return json.data.map((m) => (isRecord(m) && typeof m.id === 'string' ? m.id : '')).filter((id) => id !== '');
}

export function idMatchesPath(name: string, requirement: string, what: string): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements: [requirement],
    severity: 'must',
    summary: `the retrieved ${what} has the id named in the path`,
    skipWhen: (ex) => skipUnlessOk(ex),
    run: (ex, ctx) => {
      const wanted = lastPathSegment(ctx);
      const id = okBody(ex)!.id;
      return id === wanted ? [] : [{ pointer: '/id', message: `GET …/${wanted} returned another ${what}`, expected: wanted, actual: id ?? 'absent' }];
    },
  };
}

export const modelIdMatchesPath = idMatchesPath('model_id_matches_path', 'MODEL-RETRIEVE', 'model');

/** Models: only "Delete fine-tuned model" exists; deleting a base model is not shown, so its rejection is a convention. */
export const modelDeleteBaseRejected: ResponseCheck = {
  kind: 'response',
  name: 'model_delete_base_rejected',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['MODEL-DELETE-BASE-REJECTED'],
  severity: 'should',
  summary: 'DELETE of a base (non-fine-tuned) model is rejected with a 4xx',
  run: (ex) => {
    const status = ex.response?.status;
    return status !== undefined && status >= 400 && status < 500 ? [] : [{ pointer: '', message: 'a base model was deleted (or the request failed otherwise)', expected: '4xx', actual: status ?? 'no response' }];
  },
};

/** The base model is still listed after the attempt to delete it (params: model). */
export const modelStillListed: ResponseCheck = {
  kind: 'response',
  name: 'model_still_listed',
  requirements: ['MODEL-DELETE-BASE-REJECTED'],
  severity: 'should',
  summary: 'the model (params: model) is still in GET /v1/models',
  params: { model: { kind: 'string', required: true, doc: 'the model that must still be listed' } },
  skipWhen: (ex) => skipUnlessOk(ex),
  run: (ex, ctx) => {
    const model = ctx.params.model;
    if (typeof model !== 'string') throw new Error('model_still_listed needs `with: { model: <name> }`');
    const ids = listedIds(ex);
    if (!ids) return [{ pointer: '/data', message: 'the body is not a list', expected: 'data: [Model]', actual: 'no data array' }];
    return ids.includes(model) ? [] : [{ pointer: '/data', message: `${model} is no longer listed`, expected: model, actual: `${ids.length} models without it` }];
  },
};

/** The model of the path is still served by GET /v1/models/{model} (after an attempt to delete a base model). */
export const modelStillRetrievable: ResponseCheck = {
  kind: 'response',
  name: 'model_still_retrievable',
  requirements: ['MODEL-DELETE-BASE-REJECTED'],
  severity: 'should',
  summary: 'the model of the path is still retrievable',
  run: (ex, ctx) => {
    const status = ex.response?.status;
    if (status === undefined || status < 200 || status >= 300) return [{ pointer: '', message: `${lastPathSegment(ctx)} is no longer retrievable`, expected: '2xx', actual: status ?? 'no response' }];
    const id = okBody(ex)?.id;
    return id === lastPathSegment(ctx) ? [] : [{ pointer: '/id', message: 'another model came back', expected: lastPathSegment(ctx), actual: id ?? 'absent' }];
  },
};

/**
 * Fields of a Model the spec defines (id, object, owned_by; permission is "not shown beyond being an array"): the same
 * model shows the same values in the list and alone. `created`, `root` and `parent` are not in the Model table: a
 * server that stamps `created` when it answers (a model card built per response) conforms, so they are a should.
 */
const MODEL_IDENTITY_FIELDS = ['id', 'object', 'owned_by'] as const;
const MODEL_DETAIL_FIELDS = ['created', 'root', 'parent'] as const;

/** Each retrieved model against its list entry, on the given fields; not exercised when nothing was retrieved. */
function compareWithList(ex: Exchange, fields: readonly string[], reportUnserved: boolean) {
  // A retrieval that got no answer at all (the network, a rate limit past its retries) is a problem of the run,
  // which the run reports; it says nothing about the target, so it is left out here.
  // A model deleted between the list and its retrieval (no longer listed either) is left out too.
  const answered = (ex.followed?.answers ?? []).filter((a) => a.status !== 0 && !a.gone);
  if (answered.length === 0) return notExercised('no listed model was retrieved (an empty list, a follow budget of 0, no answer, or every one deleted meanwhile)');
  const list = ex.response?.json;
  return answered.flatMap((a): Finding[] => {
    const entryPointer = a.at.replace(/\/id$/, '');
    const entry = resolvePointer(list, entryPointer);
    if (a.status < 200 || a.status >= 300) return reportUnserved ? [{ pointer: entryPointer, message: `the listed model ${JSON.stringify(a.item)} cannot be retrieved${a.error ? `: ${a.error}` : ''}`, expected: '2xx', actual: a.status || 'no response' }] : [];
    if (!isRecord(entry) || !isRecord(a.json)) return reportUnserved ? [{ pointer: entryPointer, message: `GET /v1/models/${String(a.item)} answered no Model object`, expected: 'a Model', actual: a.json === undefined ? 'no JSON' : typeof a.json }] : [];
    const retrieved = a.json;
    const differs = fields.filter((f) => f in entry && JSON.stringify(entry[f]) !== JSON.stringify(retrieved[f]));
    return differs.map((f) => ({ pointer: `${entryPointer}/${f}`, message: `GET /v1/models/${String(a.item)} shows another ${f} than the list`, expected: entry[f], actual: f in retrieved ? retrieved[f] : 'absent' }));
  });
}

/**
 * Every listed model is retrievable, as the same model (a case that follows each listed id). A list and a
 * retrieve served from different tables (a stale cache, another owner computed on one path) pass a check of
 * the few models a profile names; here every listed model is compared with its list entry.
 * Not exercised when the list has no model or the budget let no retrieval through.
 */
export const modelRetrieveMatchesList: ResponseCheck = {
  kind: 'response',
  name: 'model_retrieve_matches_list',
  requirements: ['MODEL-RETRIEVE'],
  severity: 'must',
  summary: 'each listed model is retrievable, with the id, object and owner of its list entry',
  skipWhen: (ex) => skipUnlessOk(ex),
  run: (ex) => compareWithList(ex, MODEL_IDENTITY_FIELDS, true),
};

export const modelRetrieveSameDetails: ResponseCheck = {
  kind: 'response',
  name: 'model_retrieve_same_details',
  requirements: ['MODEL-RETRIEVE-SAME-DETAILS'],
  severity: 'should',
  summary: 'a retrieved model shows the created, root and parent of its list entry (fields the Model table does not define)',
  after: ['model_retrieve_matches_list'],
  skipWhen: (ex) => skipUnlessOk(ex),
  run: (ex) => compareWithList(ex, MODEL_DETAIL_FIELDS, false),
};

export const MODELS_CHECKS: readonly Check[] = [modelIdMatchesPath, modelDeleteBaseRejected, modelStillListed, modelStillRetrievable, modelRetrieveMatchesList, modelRetrieveSameDetails];

