// Moderations: "model | string | no | `text-moderation-latest`". Which model a request without model
// used is visible as the result's model; it must be the one a request naming text-moderation-latest
// reports (MOD-MODEL-DEFAULT). The other case is named with `with: {same_as: <case id>}`.

import type { ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { notAModerationResult } from './common.ts';
import { caseParam } from '../params.ts';

/**
 * The same model, or the alias and the version it resolves to: text-moderation-latest "is upgraded automatically", so
 * a server may echo the alias when it is named and report its current version (text-moderation-007) when defaulted.
 */
function sameModel(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const alias = (v: unknown) => v === 'text-moderation-latest';
  const version = (v: unknown) => typeof v === 'string' && /^text-moderation-\d+$/.test(v);
  return (alias(a) && version(b)) || (version(a) && alias(b));
}

export const moderationModelSameAs: ResponseCheck = {
  kind: 'response',
  name: 'moderation_model_same_as',
  requirements: ['MOD-MODEL-DEFAULT'],
  severity: 'must',
  summary: 'the result model equals that of an earlier request naming the default model (with: {same_as: case})',
  params: { same_as: caseParam('an earlier case that named the default model') },
  skipWhen: (ex, ctx) => {
    const not = notAModerationResult(ex);
    if (not) return not;
    const other = typeof ctx.params.same_as === 'string' ? ctx.history.get(ctx.params.same_as) : undefined;
    if (!other) return `no earlier case ${JSON.stringify(ctx.params.same_as)} to compare with (with: {same_as: <case id>})`;
    return isRecord(other.response?.json) && typeof other.response.json.model === 'string' ? undefined : `case ${String(ctx.params.same_as)} has no result model`;
  },
  run: (ex, ctx) => {
    const want = (ctx.history.get(ctx.params.same_as as string)!.response!.json as { model: string }).model;
    const got = (ex.response!.json as Record<string, unknown>).model;
    return sameModel(got, want) ? [] : [{ pointer: '/model', message: `without model the default text-moderation-latest is used, which case ${String(ctx.params.same_as)} reported as ${want}`, expected: want, actual: got ?? 'absent' }];
  },
};
