// Text completion result: model (string). That it names the requested model is the service's convention
// (dated snapshots such as gpt-3.5-turbo-0301 occur), so a warning only.

import type { ResponseCheck } from '../types.ts';
import { okBody, requestJson, skipUnlessOk } from './request.ts';

export function modelNamedFactory(name: string, requirement: string): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements: [requirement],
    severity: 'should',
    summary: 'the result names the requested model (equal, or a dated snapshot of it)',
    skipWhen: (ex, ctx) => (typeof requestJson(ctx).model !== 'string' ? 'the request names no model' : skipUnlessOk(ex)),
    run: (ex, ctx) => {
      const requested = requestJson(ctx).model as string;
      const model = okBody(ex)!.model;
      if (model === undefined) return [];
      return typeof model === 'string' && model.startsWith(requested) ? [] : [{ pointer: '/model', message: 'the result names another model than the request', expected: requested, actual: model }];
    },
  };
}

export const completionModelNamed = modelNamedFactory('completion_model_named', 'COMP-MODEL-NAME-RETURNED');
