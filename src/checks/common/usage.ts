// usage.total_tokens = prompt_tokens + completion_tokens: what "total" means (Resources: usage).
// One rule, several endpoints: each instance cites its endpoint's requirement.

import type { ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';

export function usageTotalIsSum(name: string, requirement: string, parts: readonly string[] = ['prompt_tokens', 'completion_tokens']): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements: [requirement],
    // The total's sum follows from its name, but the spec never states it (catalogue: should).
    severity: 'should',
    summary: `usage.total_tokens = ${parts.map((p) => `usage.${p}`).join(' + ')}`,
    skipWhen: (ex) => (isRecord(ex.response?.json) ? undefined : 'no JSON body'),
    run: (ex) => {
      const usage = (ex.response!.json as Record<string, unknown>).usage;
      if (!isRecord(usage)) return [{ pointer: '/usage', message: 'usage is missing', expected: 'an object', actual: usage ?? 'absent' }];
      const values = parts.map((p) => usage[p]);
      if (values.some((v) => typeof v !== 'number') || typeof usage.total_tokens !== 'number') {
        return [{ pointer: '/usage', message: 'usage counts must be numbers', expected: [...parts, 'total_tokens'].join(', '), actual: usage }];
      }
      const sum = (values as number[]).reduce((a, b) => a + b, 0);
      return usage.total_tokens === sum ? [] : [{ pointer: '/usage/total_tokens', message: `total_tokens is not the sum of ${parts.join(' and ')}`, expected: sum, actual: usage.total_tokens }];
    },
  };
}
