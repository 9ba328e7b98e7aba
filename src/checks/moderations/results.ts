// Moderations: "input | string or array"; Resources / Moderation result: categories (map of
// category name to boolean), category_scores (map to number in 0..1), flagged (boolean), exact
// category names.

import type { Finding, ResponseCheck } from '../types.ts';
import { isRecord, jsonType } from '../../util/json-type.ts';
import { MODERATION_CATEGORIES, notAModerationResult, resultsOf } from './common.ts';
import { escapeToken } from '../../util/pointer.ts';

export const moderationOneResultPerInput: ResponseCheck = {
  kind: 'response',
  name: 'moderation_one_result_per_input',
  requirements: ['MOD-INPUT-STRING', 'MOD-INPUT-ARRAY'],
  severity: 'must',
  summary: 'a string input yields one result; an array of k inputs yields k results',
  skipWhen: (ex, ctx) => {
    const not = notAModerationResult(ex);
    if (not) return not;
    const input = isRecord(ctx.request.json) ? ctx.request.json.input : undefined;
    return typeof input === 'string' || Array.isArray(input) ? undefined : 'the request input is neither a string nor an array';
  },
  run: (ex, ctx) => {
    const input = (ctx.request.json as { input: unknown }).input;
    const expected = Array.isArray(input) ? input.length : 1;
    const actual = (ex.response!.json as { results: unknown[] }).results.length;
    return actual === expected ? [] : [{ pointer: '/results', message: `input is ${Array.isArray(input) ? `an array of ${expected}` : 'a string'}, so results must hold ${expected} item(s)`, expected, actual }];
  },
};

/**
 * The seven names are there, in both maps. Extra names are not a failure, and neither is a map naming extras the
 * other lacks: text-moderation-latest "is upgraded over time" and later returns more categories (see the
 * register); extras, in one map or both, are moderation_categories_no_extra's (a should).
 */
export const moderationCategoriesSeven: ResponseCheck = {
  kind: 'response',
  name: 'moderation_categories_seven',
  over: '/results/*',
  requirements: ['MOD-CATEGORIES-EXACT', 'MOD-SCORES-EXACT'],
  severity: 'must',
  summary: `categories and category_scores both carry ${MODERATION_CATEGORIES.join(', ')}`,
  skipWhen: notAModerationResult,
  run: (ex) => {
    const findings: Finding[] = [];
    for (const { pointer, result } of resultsOf(ex)) {
      for (const field of ['categories', 'category_scores']) {
        const map = result[field];
        if (!isRecord(map)) {
          findings.push({ pointer: `${pointer}/${field}`, message: `${field} is not a map`, expected: 'an object', actual: map ?? 'absent' });
          continue;
        }
        const missing = MODERATION_CATEGORIES.filter((c) => !(c in map));
        if (missing.length) findings.push({ pointer: `${pointer}/${field}`, message: `${field} lacks ${missing.join(', ')}`, expected: [...MODERATION_CATEGORIES], actual: Object.keys(map) });
      }
    }
    return findings;
  },
};

/** The stricter reading: exactly the seven, nothing more (a warning: later model versions add categories). */
export const moderationCategoriesNoExtra: ResponseCheck = {
  kind: 'response',
  name: 'moderation_categories_no_extra',
  over: '/results/*',
  requirements: ['MOD-CATEGORIES-NO-EXTRA'],
  severity: 'should',
  summary: `categories and category_scores name nothing beyond ${MODERATION_CATEGORIES.join(', ')}`,
  skipWhen: notAModerationResult,
  after: ['moderation_categories_seven'],
  run: (ex) => resultsOf(ex).flatMap(({ pointer, result }): Finding[] => ['categories', 'category_scores'].flatMap((field): Finding[] => {
    const map = result[field];
    const extra = isRecord(map) ? Object.keys(map).filter((k) => !(MODERATION_CATEGORIES as readonly string[]).includes(k)) : [];
    return extra.length ? [{ pointer: `${pointer}/${field}`, message: `${field} has names beyond the seven: ${extra.join(', ')}`, expected: [...MODERATION_CATEGORIES], actual: Object.keys(map as object) }] : [];
  })),
};

export const moderationCategoriesAreBooleans: ResponseCheck = {
  kind: 'response',
  name: 'moderation_categories_are_booleans',
  over: '/results/*',
  requirements: ['MOD-CATEGORIES-BOOL'],
  severity: 'must',
  summary: 'every categories value is a boolean',
  skipWhen: notAModerationResult,
  run: (ex) =>
    resultsOf(ex).flatMap(({ pointer, result }) =>
      isRecord(result.categories)
        ? Object.entries(result.categories).filter(([, v]) => typeof v !== 'boolean').map(([k, v]): Finding => ({ pointer: `${pointer}/categories/${escapeToken(k)}`, message: `categories["${k}"] is not a boolean`, expected: 'boolean', actual: jsonType(v) }))
        : [{ pointer: `${pointer}/categories`, message: 'categories is not a map', expected: 'an object', actual: result.categories ?? 'absent' }],
    ),
};

export const moderationScoresInRange: ResponseCheck = {
  kind: 'response',
  name: 'moderation_scores_in_range',
  over: '/results/*',
  requirements: ['MOD-SCORES-RANGE'],
  severity: 'must',
  summary: 'every category_scores value is a number in 0..1',
  skipWhen: notAModerationResult,
  run: (ex) =>
    resultsOf(ex).flatMap(({ pointer, result }) =>
      isRecord(result.category_scores)
        ? Object.entries(result.category_scores)
            .filter(([, v]) => typeof v !== 'number' || !(v >= 0 && v <= 1))
            .map(([k, v]): Finding => ({ pointer: `${pointer}/category_scores/${escapeToken(k)}`, message: `category_scores["${k}"] is not a number in 0..1`, expected: '0 ≤ score ≤ 1', actual: v }))
        : [{ pointer: `${pointer}/category_scores`, message: 'category_scores is not a map', expected: 'an object', actual: result.category_scores ?? 'absent' }],
    ),
};

export const moderationFlaggedIsBoolean: ResponseCheck = {
  kind: 'response',
  name: 'moderation_flagged_is_boolean',
  over: '/results/*',
  requirements: ['MOD-FLAGGED-BOOL'],
  severity: 'must',
  summary: 'flagged is a boolean',
  skipWhen: notAModerationResult,
  run: (ex) =>
    resultsOf(ex).filter(({ result }) => typeof result.flagged !== 'boolean').map(({ pointer, result }): Finding => ({ pointer: `${pointer}/flagged`, message: 'flagged is not a boolean', expected: 'boolean', actual: result.flagged ?? 'absent' })),
};

/** A category the model flags read as a policy violation, and flagged as meaning one: inferred (catalogue: should). */
export const moderationFlaggedConsistent: ResponseCheck = {
  kind: 'response',
  name: 'moderation_flagged_consistent',
  over: '/results/*',
  requirements: ['MOD-FLAGGED-CONSISTENT'],
  severity: 'should',
  summary: 'flagged is true exactly when at least one category is true',
  skipWhen: notAModerationResult,
  run: (ex) =>
    resultsOf(ex).flatMap(({ pointer, result }): Finding[] => {
      if (!isRecord(result.categories) || typeof result.flagged !== 'boolean') return []; // reported by the type checks
      const on = Object.entries(result.categories).filter(([, v]) => v === true).map(([k]) => k);
      const expected = on.length > 0;
      return result.flagged === expected
        ? []
        : [{ pointer: `${pointer}/flagged`, message: expected ? `categories ${on.join(', ')} are true, yet flagged is false` : 'no category is true, yet flagged is true', expected, actual: result.flagged }];
    }),
};
