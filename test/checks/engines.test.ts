/** Unit tests of the engines-area checks: a passing and a failing input each. */
import { ctxOf, exchangeOf, c, describeRows } from './table.ts';
import type { Exchange } from '../../src/transport/types.ts';

const engine = (id: string) => ({ id, object: 'engine', owner: 'openai', ready: true });
const list = (ids: string[], make = engine) => ({ object: 'list', data: ids.map(make) });
const get = (path: string, params: Record<string, unknown> = {}, history = new Map<string, Exchange>()) => ctxOf({ method: 'GET', path }, params, history);
const models = new Map([['models', exchangeOf({ object: 'list', data: ['ada', 'davinci'].map((id) => ({ id, object: 'model', owned_by: 'openai', permission: [] })) })]]);

describeRows('engine rules', [
  { name: 'retrieved id matches', check: c('engine_id_matches_path'), exchange: exchangeOf(engine('ada')), ctx: get('/v1/engines/ada'), expect: 'pass' },
  { name: 'another engine retrieved', check: c('engine_id_matches_path'), exchange: exchangeOf(engine('ada')), ctx: get('/v1/engines/davinci'), expect: 'fail' },
  { name: 'base models only', check: c('engines_not_fine_tuned'), exchange: exchangeOf(list(['ada', 'davinci'])), ctx: get('/v1/engines'), expect: 'pass' },
  { name: 'a fine-tuned name listed', check: c('engines_not_fine_tuned'), exchange: exchangeOf(list(['ada', 'curie:ft-acme:x-2023-01-01-00-00-00'])), ctx: get('/v1/engines'), expect: 'fail' },
  { name: 'the caller\'s fine-tuned model listed', check: c('engines_not_fine_tuned'), exchange: exchangeOf(list(['ada', 'my-model'])), ctx: get('/v1/engines', { fine_tuned_model: 'my-model' }), expect: 'fail' },
  { name: 'engines are models', check: c('engines_listed_as_models'), exchange: exchangeOf(list(['ada'])), ctx: get('/v1/engines', { models_case: 'models' }, models), expect: 'pass' },
  { name: 'an engine that is no model', check: c('engines_listed_as_models'), exchange: exchangeOf(list(['ada', 'cushman'])), ctx: get('/v1/engines', { models_case: 'models' }, models), expect: 'fail' },
  { name: 'no models case: skipped', check: c('engines_listed_as_models'), exchange: exchangeOf(list(['ada'])), ctx: get('/v1/engines'), expect: 'skip' },
]);
