// Resources / Embedding result: "usage | object | prompt_tokens, total_tokens".

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { usageTotalIsSum } from '../common/usage.ts';
import { notAnEmbeddingResult } from './common.ts';

export const embeddingUsageFields: ResponseCheck = {
  kind: 'response',
  name: 'embedding_usage_fields',
  requirements: ['EMB-USAGE-FIELDS'],
  severity: 'must',
  summary: 'usage has prompt_tokens and total_tokens, non-negative integers',
  skipWhen: notAnEmbeddingResult,
  run: (ex) => {
    const usage = (ex.response!.json as Record<string, unknown>).usage;
    if (!isRecord(usage)) return [{ pointer: '/usage', message: 'usage is missing', expected: 'an object', actual: usage ?? 'absent' }];
    const findings: Finding[] = [];
    for (const field of ['prompt_tokens', 'total_tokens']) {
      const v = usage[field];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) findings.push({ pointer: `/usage/${field}`, message: `usage.${field} is not a non-negative integer`, expected: 'a non-negative integer', actual: v ?? 'absent' });
    }
    return findings;
  },
};

/** Nothing is generated, so the total is the prompt count. */
export const embeddingUsageTotalIsPrompt: ResponseCheck = {
  ...usageTotalIsSum('embedding_usage_total_is_prompt', 'EMB-USAGE-TOTAL', ['prompt_tokens']),
  skipWhen: notAnEmbeddingResult,
};
