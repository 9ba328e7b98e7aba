/** Unit tests of the models-area checks: a passing and a failing input each. */
import { ctxOf, exchangeOf, c, describeRows } from './table.ts';

const model = (id: string) => ({ id, object: 'model', created: 1_649_359_874, owned_by: 'openai', permission: [] });
const get = (path: string, params: Record<string, unknown> = {}) => ctxOf({ method: 'GET', path }, params);

describeRows('model rules', [
  { name: 'retrieved id matches', check: c('model_id_matches_path'), exchange: exchangeOf(model('davinci')), ctx: get('/v1/models/davinci'), expect: 'pass' },
  { name: 'retrieved id matches (encoded :)', check: c('model_id_matches_path'), exchange: exchangeOf(model('curie:ft-org:x-2023')), ctx: get('/v1/models/curie%3Aft-org%3Ax-2023'), expect: 'pass' },
  { name: 'another model retrieved', check: c('model_id_matches_path'), exchange: exchangeOf(model('ada')), ctx: get('/v1/models/davinci'), expect: 'fail' },
  { name: 'base delete rejected', check: c('model_delete_base_rejected'), exchange: exchangeOf({ error: {} }, 403), expect: 'pass' },
  { name: 'base delete accepted', check: c('model_delete_base_rejected'), exchange: exchangeOf({ id: 'davinci', object: 'model', deleted: true }), expect: 'fail' },
  { name: 'still listed', check: c('model_still_listed'), exchange: exchangeOf({ object: 'list', data: [model('ada'), model('davinci')] }), ctx: get('/v1/models', { model: 'davinci' }), expect: 'pass' },
  { name: 'no longer listed', check: c('model_still_listed'), exchange: exchangeOf({ object: 'list', data: [model('ada')] }), ctx: get('/v1/models', { model: 'davinci' }), expect: 'fail' },
  { name: 'still retrievable', check: c('model_still_retrievable'), exchange: exchangeOf(model('davinci')), ctx: get('/v1/models/davinci'), expect: 'pass' },
  { name: 'no longer retrievable', check: c('model_still_retrievable'), exchange: exchangeOf({ error: {} }, 404), ctx: get('/v1/models/davinci'), expect: 'fail' },
]);

const listed = (...models: Array<ReturnType<typeof model>>) => ({ object: 'list', data: models });
const followed = (list: ReturnType<typeof listed>, answers: Array<{ status: number; json?: unknown; gone?: true }>) => {
  const ex = exchangeOf(list);
  ex.followed = { selected: list.data.length, answers: answers.map((a, i) => ({ at: `/data/${i}/id`, item: list.data[i]!.id, ...a })) };
  return ex;
};
const both = listed(model('ada'), { ...model('davinci'), owned_by: 'openai-internal' });

describeRows('every listed model retrieved as the same model', [
  { name: 'each retrieval equals its list entry', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 200, json: model('ada') }, { status: 200, json: { ...model('davinci'), owned_by: 'openai-internal' } }]), ctx: get('/v1/models'), expect: 'pass' },
  { name: 'a listed model answers 404', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 200, json: model('ada') }, { status: 404, json: { error: {} } }]), ctx: get('/v1/models'), expect: 'fail' },
  { name: 'another owner when retrieved', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 200, json: model('ada') }, { status: 200, json: model('davinci') }]), ctx: get('/v1/models'), expect: 'fail' },
  { name: 'created stamped when retrieved, no root: the Model table does not define them', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 200, json: { ...model('ada'), created: 1, root: undefined } }, { status: 200, json: { ...model('davinci'), owned_by: 'openai-internal' } }]), ctx: get('/v1/models'), expect: 'pass' },
  { name: 'created differs: a should', check: c('model_retrieve_same_details'), exchange: followed(both, [{ status: 200, json: { ...model('ada'), created: 1 } }, { status: 200, json: { ...model('davinci'), owned_by: 'openai-internal' } }]), ctx: get('/v1/models'), expect: 'fail' },
  { name: 'same details', check: c('model_retrieve_same_details'), exchange: followed(both, [{ status: 200, json: model('ada') }, { status: 200, json: { ...model('davinci'), owned_by: 'openai-internal' } }]), ctx: get('/v1/models'), expect: 'pass' },
  { name: 'nothing retrieved (empty list)', check: c('model_retrieve_matches_list'), exchange: followed(listed(), []), ctx: get('/v1/models'), expect: 'not-exercised' },
]);

describeRows('a retrieval without any answer is no verdict on the target', [
  { name: 'only unanswered retrievals', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 0 }, { status: 0 }]), ctx: get('/v1/models'), expect: 'not-exercised' },
  { name: 'a 404 for a model deleted meanwhile (gone from a fresh list), beside a right one', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 200, json: model('ada') }, { status: 404, json: { error: {} }, gone: true }]), ctx: get('/v1/models'), expect: 'pass' },
  { name: 'every listed model deleted meanwhile', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 404, gone: true }, { status: 404, gone: true }]), ctx: get('/v1/models'), expect: 'not-exercised' },
  { name: 'an unanswered one beside a right one', check: c('model_retrieve_matches_list'), exchange: followed(both, [{ status: 200, json: model('ada') }, { status: 0 }]), ctx: get('/v1/models'), expect: 'pass' },
]);
