// Moderations: an array input yields one result per input, in input order (MOD-INPUT-ARRAY). Order is
// observable only by comparing with the same texts moderated alone by earlier cases:
// `with: {singles: [<case id or null>, …]}` names, per array position, a case whose input was that
// text. A text is classified the same way whether alone or in an array, so each score must be close
// to the single-input score (tolerance `with: {tolerance}`, default 0.1, far above the numeric noise
// of a real model, far below the gap between a flagged and an unflagged text).

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { notAModerationResult } from './common.ts';

function singles(params: Readonly<Record<string, unknown>>): Array<string | null> {
  return Array.isArray(params.singles) ? params.singles.map((s) => (typeof s === 'string' ? s : null)) : [];
}

function scoresOf(json: unknown, i: number): Record<string, unknown> | undefined {
  const r = isRecord(json) && Array.isArray(json.results) ? json.results[i] : undefined;
  return isRecord(r) && isRecord(r.category_scores) ? r.category_scores : undefined;
}

export const moderationArrayInInputOrder: ResponseCheck = {
  kind: 'response',
  name: 'moderation_array_in_input_order',
  requirements: ['MOD-INPUT-ARRAY'],
  severity: 'must',
  summary: 'results[i] of an array input scores like input i moderated alone (with: {singles: [case ids]})',
  // Too few results is moderation_one_result_per_input's failure: not a second one here.
  after: ['moderation_one_result_per_input'],
  params: { singles: { kind: 'cases', required: true, doc: 'per position of the input array, the case that moderated that input alone (null for none)' }, tolerance: { kind: 'number', doc: 'how far scores may differ; 0.1 when absent' } },
  skipWhen: (ex, ctx) => {
    const not = notAModerationResult(ex);
    if (not) return not;
    const usable = singles(ctx.params).filter((id) => id !== null && scoresOf(ctx.history.get(id)?.response?.json, 0));
    return usable.length > 0 ? undefined : 'no earlier single-input case with scores to compare with (with: {singles: [case ids]})';
  },
  run: (ex, ctx) => {
    const tolerance = typeof ctx.params.tolerance === 'number' ? ctx.params.tolerance : 0.1;
    const findings: Finding[] = [];
    singles(ctx.params).forEach((id, i) => {
      const alone = id === null ? undefined : scoresOf(ctx.history.get(id)?.response?.json, 0);
      if (!alone) return;
      const inArray = scoresOf(ex.response!.json, i);
      if (!inArray) {
        findings.push({ pointer: `/results/${i}/category_scores`, message: `results[${i}] is missing`, expected: `the scores of case ${id}`, actual: 'absent' });
        return;
      }
      const off = Object.entries(alone).filter(([k, v]) => typeof v === 'number' && typeof inArray[k] === 'number' && Math.abs((inArray[k] as number) - v) > tolerance);
      if (off.length) {
        findings.push({
          pointer: `/results/${i}/category_scores`,
          message: `results[${i}] does not score like input ${i} alone (case ${id}): ${off.map(([k]) => k).join(', ')} differ by more than ${tolerance}`,
          expected: Object.fromEntries(off),
          actual: Object.fromEntries(off.map(([k]) => [k, inArray[k]])),
        });
      }
    });
    return findings;
  },
};
