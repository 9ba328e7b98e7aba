// Checks of the auth area, registered in checks/index.ts.

import type { Check, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';

const RESOURCE_KEYS = ['data', 'object', 'id', 'choices', 'results'];

/** Authentication 1: every request carries the key; a rejected request returns no resource data. */
export const authNoResourceData: ResponseCheck = {
  kind: 'response',
  name: 'auth_no_resource_data',
  requirements: ['AUTH-BEARER-REQUIRED', 'AUTH-INVALID-KEY-REJECTED'],
  severity: 'must',
  summary: 'a request without a valid key gets no resource data',
  run: (ex) => {
    const json = ex.response?.json;
    if (!isRecord(json)) return [];
    // `object: "error"` is how OpenAI-compatible servers (vLLM, FastChat) label an error body: no resource.
    const leaked = RESOURCE_KEYS.filter((k) => k in json && !(k === 'object' && json[k] === 'error'));
    return leaked.length === 0 ? [] : [{ pointer: `/${leaked[0]}`, message: 'the unauthenticated request got resource data', expected: 'an error, no resource', actual: leaked }];
  },
};

/** Authentication 3 names only organizations the user belongs to; rejecting a foreign one is the service's convention. */
export const authForeignOrganizationRejected: ResponseCheck = {
  kind: 'response',
  name: 'auth_foreign_organization_rejected',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['AUTH-ORG-FOREIGN-REJECTED'],
  severity: 'should',
  summary: 'a Service-Organization the user does not belong to is rejected with a 4xx',
  run: (ex) => {
    const status = ex.response?.status;
    return status !== undefined && status >= 400 && status < 500 ? [] : [{ pointer: '', message: 'a foreign organization was accepted (or the request failed otherwise)', expected: '4xx', actual: status ?? 'no response' }];
  },
};

export const AUTH_CHECKS: readonly Check[] = [authNoResourceData, authForeignOrganizationRejected];
