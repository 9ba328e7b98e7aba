// Create embedding: "arrays give one embedding each"; Embedding result: data items carry index.
// For k inputs, data has k items and data[i].index is i (EMB-ONE-PER-INPUT).

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { inputCount, notAnEmbeddingResult } from './common.ts';

export const embeddingOnePerInputInOrder: ResponseCheck = {
  kind: 'response',
  name: 'embedding_one_per_input_in_order',
  requirements: ['EMB-ONE-PER-INPUT'],
  severity: 'must',
  summary: 'one embedding per input, in input order: data[i].index is i for i in 0..k-1',
  skipWhen: (ex, ctx) => notAnEmbeddingResult(ex) ?? (inputCount(ctx.request) ? undefined : 'the request input is none of the four forms the spec lists'),
  run: (ex, ctx) => {
    const { count, form } = inputCount(ctx.request)!;
    const data = (ex.response!.json as { data: unknown[] }).data;
    const findings: Finding[] = [];
    if (data.length !== count) findings.push({ pointer: '/data', message: `input is ${form}, so data must hold ${count} embedding(s)`, expected: count, actual: data.length });
    data.forEach((item, i) => {
      const index = isRecord(item) ? item.index : undefined;
      if (index !== i) findings.push({ pointer: `/data/${i}/index`, message: `data[${i}] must be the embedding of input ${i}`, expected: i, actual: index ?? 'absent' });
    });
    return findings;
  },
};
