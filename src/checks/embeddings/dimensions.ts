// Resources / Embedding result: "The embedding model `text-embedding-ada-002` returns vectors of 1536 floats."

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { notAnEmbeddingResult } from './common.ts';

export const ADA_002 = 'text-embedding-ada-002';
export const ADA_002_DIMENSIONS = 1536;

/** The expected vector length: `with: {dimensions}` or 1536 when the request names text-embedding-ada-002. */
function expectedDimensions(model: unknown, params: Readonly<Record<string, unknown>>): number | undefined {
  if (typeof params.dimensions === 'number') return params.dimensions;
  return model === ADA_002 ? ADA_002_DIMENSIONS : undefined;
}

export const embeddingAda002Has1536Floats: ResponseCheck = {
  kind: 'response',
  name: 'embedding_ada_002_has_1536_floats',
  over: '/data/*',
  requirements: ['EMB-ADA-1536'],
  severity: 'must',
  summary: 'text-embedding-ada-002 returns every embedding as 1536 finite numbers',
  skipWhen: (ex, ctx) => {
    const not = notAnEmbeddingResult(ex);
    if (not) return not;
    const model = isRecord(ctx.request.json) ? ctx.request.json.model : undefined;
    return expectedDimensions(model, ctx.params) === undefined ? `the request names model ${JSON.stringify(model)}, whose vector length the spec does not state (give with: {dimensions})` : undefined;
  },
  run: (ex, ctx) => {
    const model = isRecord(ctx.request.json) ? ctx.request.json.model : undefined;
    const dims = expectedDimensions(model, ctx.params)!;
    const findings: Finding[] = [];
    (ex.response!.json as { data: unknown[] }).data.forEach((item, i) => {
      const v = isRecord(item) ? item.embedding : undefined;
      if (!Array.isArray(v)) {
        findings.push({ pointer: `/data/${i}/embedding`, message: 'embedding is not an array of floats', expected: `${dims} numbers`, actual: typeof v === 'string' ? `a string of ${v.length} chars` : v ?? 'absent' });
        return;
      }
      if (v.length !== dims) findings.push({ pointer: `/data/${i}/embedding`, message: `${model ?? 'the model'} returns vectors of ${dims} floats`, expected: dims, actual: v.length });
      const bad = v.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
      if (bad >= 0) findings.push({ pointer: `/data/${i}/embedding/${bad}`, message: 'every vector element is a finite number', expected: 'a finite number', actual: v[bad] });
    });
    return findings;
  },
};
