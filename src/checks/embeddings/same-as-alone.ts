// EMB-ONE-PER-INPUT: "arrays give one embedding each", and `index` says which input an item embeds. A label is not
// proof: a server that embeds a batch in parallel and numbers the results in the order they finished gives every
// index once and swaps the vectors. The item labelled i must be the embedding of input i, which the same input
// embedded alone (an earlier case) shows: the two vectors point the same way.

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { notAnEmbeddingResult } from './common.ts';

/** Cosine similarity at or above which two vectors embed the same text (batching may change the last digits). */
const SAME_TEXT_COSINE = 0.99;

function singles(params: Record<string, unknown>): Array<string | null> {
  return Array.isArray(params.singles) ? params.singles.map((s) => (typeof s === 'string' ? s : null)) : [];
}

function vectorLabelled(json: unknown, index: number): number[] | undefined {
  const data = isRecord(json) && Array.isArray(json.data) ? json.data : [];
  const item = data.find((d) => isRecord(d) && d.index === index);
  const v = isRecord(item) ? item.embedding : undefined;
  return Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : undefined;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i]! * b[i]!; na += a[i]! ** 2; nb += b[i]! ** 2; }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export const embeddingSameAsAlone: ResponseCheck = {
  kind: 'response',
  name: 'embedding_same_as_input_alone',
  requirements: ['EMB-ONE-PER-INPUT'],
  severity: 'must',
  summary: 'the item labelled i embeds input i: it points the way input i embedded alone does (with: {singles: [case ids]})',
  after: ['embedding_one_per_input'],
  params: { singles: { kind: 'cases', required: true, doc: 'per input position, the case that embedded that input alone (null for none)' } },
  skipWhen: (ex, ctx) => {
    const not = notAnEmbeddingResult(ex);
    if (not) return not;
    return singles(ctx.params).some((id) => id !== null && vectorLabelled(ctx.history.get(id)?.response?.json, 0)) ? undefined : 'no earlier single-input case with a vector to compare with (with: {singles: [case ids]})';
  },
  run: (ex, ctx) => {
    const findings: Finding[] = [];
    singles(ctx.params).forEach((id, i) => {
      const alone = id === null ? undefined : vectorLabelled(ctx.history.get(id)?.response?.json, 0);
      const labelled = vectorLabelled(ex.response!.json, i);
      if (!alone || !labelled || alone.length !== labelled.length) return;
      const similarity = cosine(alone, labelled);
      if (similarity < SAME_TEXT_COSINE) findings.push({ pointer: '/data', message: `the item with index ${i} is not the embedding of input ${i}: it differs from input ${i} embedded alone (case ${id}), cosine ${similarity.toFixed(3)}`, expected: `cosine ≥ ${SAME_TEXT_COSINE}`, actual: Number(similarity.toFixed(4)) });
    });
    return findings;
  },
};
