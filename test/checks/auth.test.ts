/** Unit tests of the auth-area checks: a passing and a failing input each. */
import { exchangeOf, c, describeRows } from './table.ts';

const err = { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };

describeRows('auth rules', [
  { name: 'error body only', check: c('auth_no_resource_data'), exchange: exchangeOf(err, 401), expect: 'pass' },
  // The error shape of OpenAI-compatible servers such as vLLM and FastChat: `object: "error"` is no resource.
  { name: 'an error object (vLLM, FastChat)', check: c('auth_no_resource_data'), exchange: exchangeOf({ object: 'error', message: 'Unauthorized', type: 'invalid_request_error', param: null, code: 401 }, 401), expect: 'pass' },
  { name: 'a model leaked', check: c('auth_no_resource_data'), exchange: exchangeOf({ object: 'model', id: 'davinci', owned_by: 'openai' }, 401), expect: 'fail' },
  { name: 'models leaked', check: c('auth_no_resource_data'), exchange: exchangeOf({ object: 'list', data: [] }, 401), expect: 'fail' },
  { name: 'foreign organization rejected', check: c('auth_foreign_organization_rejected'), exchange: exchangeOf(err, 401), expect: 'pass' },
  { name: 'foreign organization accepted', check: c('auth_foreign_organization_rejected'), exchange: exchangeOf({ object: 'list', data: [] }), expect: 'fail' },
]);
