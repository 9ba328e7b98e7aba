// Create embedding: "arrays give one embedding each"; Embedding result: data items carry index.
// For k inputs, data has k items whose index values are 0..k-1, each once (EMB-ONE-PER-INPUT). The spec does not
// say data is sorted: `index` identifies the input, so a server that emits items as they finish, each with its
// right index, conforms. Array order equal to index order is the service's convention (EMB-DATA-IN-ORDER, should).

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { inputCount, notAnEmbeddingResult } from './common.ts';

const skipUnlessCounted: ResponseCheck['skipWhen'] = (ex, ctx) => notAnEmbeddingResult(ex) ?? (inputCount(ctx.request) ? undefined : 'the request input is none of the four forms the spec lists');

export const embeddingOnePerInput: ResponseCheck = {
  kind: 'response',
  name: 'embedding_one_per_input',
  requirements: ['EMB-ONE-PER-INPUT'],
  severity: 'must',
  summary: 'one embedding per input: k items whose index values are 0..k-1, each once',
  skipWhen: skipUnlessCounted,
  run: (ex, ctx) => {
    const { count, form } = inputCount(ctx.request)!;
    const data = (ex.response!.json as { data: unknown[] }).data;
    const findings: Finding[] = [];
    if (data.length !== count) findings.push({ pointer: '/data', message: `input is ${form}, so data must hold ${count} embedding(s)`, expected: count, actual: data.length });
    const seen = new Map<unknown, number>();
    data.forEach((item, i) => {
      const index = isRecord(item) ? item.index : undefined;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
        findings.push({ pointer: `/data/${i}/index`, message: `data[${i}].index must name one of the ${count} input(s)`, expected: `an integer in 0..${count - 1}`, actual: index ?? 'absent' });
      } else if (seen.has(index)) {
        findings.push({ pointer: `/data/${i}/index`, message: `data[${i}] and data[${seen.get(index)}] both claim input ${index}`, expected: 'each index once', actual: index });
      } else seen.set(index, i);
    });
    return findings;
  },
};

export const embeddingDataInInputOrder: ResponseCheck = {
  kind: 'response',
  name: 'embedding_data_in_input_order',
  requirements: ['EMB-DATA-IN-ORDER'],
  severity: 'should',
  summary: 'data lists the embeddings in input order: data[i].index is i (the service\'s convention)',
  after: ['embedding_one_per_input'],
  skipWhen: skipUnlessCounted,
  run: (ex) => {
    const data = (ex.response!.json as { data: unknown[] }).data;
    return data.flatMap((item, i) => {
      const index = isRecord(item) ? item.index : undefined;
      return index === i ? [] : [{ pointer: `/data/${i}/index`, message: `data[${i}] is the embedding of input ${String(index)}, not of input ${i}`, expected: i, actual: index ?? 'absent' }];
    });
  },
};
