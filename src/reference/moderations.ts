// POST /v1/moderations — deterministic keyword classifier.
// Each rule: a whole word (case-insensitive) that gives a category a score. Scores >= 0.5 flag the
// category; "weak" words score 0.3 (visible but not flagged). Categories nobody matched get a tiny
// baseline score (below 0.001) derived from the text.
import type { Ctx } from './context.ts';
import { invalidRequest } from './http-errors.ts';
import { LIMITS } from './limits.ts';
import { resolveModel } from './models.ts';
import { hashParts, seededRandom } from './random.ts';
import { Fields, parseJsonObject } from './validate.ts';

export const CATEGORIES = ['hate', 'hate/threatening', 'self-harm', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'] as const;
type Category = (typeof CATEGORIES)[number];

export const KEYWORD_RULES: readonly { category: Category; words: readonly string[]; score: number }[] = [
  { category: 'hate', words: ['hate', 'hateful', 'racist', 'bigot', 'subhuman'], score: 0.92 },
  { category: 'hate/threatening', words: ['exterminate', 'lynch', 'genocide'], score: 0.88 },
  { category: 'self-harm', words: ['suicide', 'selfharm', 'cutting'], score: 0.9 },
  { category: 'sexual', words: ['porn', 'nude', 'explicit', 'sexual'], score: 0.91 },
  { category: 'sexual/minors', words: ['underage', 'minors'], score: 0.95 },
  { category: 'violence', words: ['kill', 'murder', 'stab', 'shoot', 'attack'], score: 0.89 },
  { category: 'violence/graphic', words: ['gore', 'dismember', 'mutilated', 'bloodbath'], score: 0.93 },
  // Weak signals: scored, never flagged.
  { category: 'violence', words: ['fight', 'punch'], score: 0.3 },
  { category: 'hate', words: ['annoying'], score: 0.3 },
];

const RULES_BY_WORD = new Map<string, { category: Category; score: number }[]>();
for (const rule of KEYWORD_RULES) {
  for (const word of rule.words) RULES_BY_WORD.set(word, [...(RULES_BY_WORD.get(word) ?? []), { category: rule.category, score: rule.score }]);
}

const MODERATION_MODEL_VERSIONS: Readonly<Record<string, string>> = {
  'text-moderation-latest': 'text-moderation-latest',
  'text-moderation-stable': 'text-moderation-stable',
};

export function classify(ctx: Ctx, text: string) {
  const rng = seededRandom(hashParts(ctx.app.options.seed, 'moderation', text));
  const scores = {} as Record<Category, number>;
  for (const c of CATEGORIES) scores[c] = Math.round(rng() * 1e-3 * 1e9) / 1e9;
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    for (const hit of RULES_BY_WORD.get(word) ?? []) scores[hit.category] = Math.max(scores[hit.category], hit.score);
  }
  const categories = {} as Record<string, boolean>;
  const categoryScores = {} as Record<string, number>;
  const threshold = LIMITS.moderationFlagThreshold;
  for (const c of CATEGORIES) {
    if (c === 'violence/graphic' && ctx.fault('moderation-6-categories')) continue;
    const name = c === 'self-harm' && ctx.fault('moderation-category-underscore') ? 'self_harm' : c;
    categories[name] = scores[c] >= threshold;
    categoryScores[name] = scores[c] >= threshold && ctx.fault('moderation-score-above-1') ? scores[c] * 100 : scores[c];
  }
  // text-moderation-latest "is upgraded over time": the 2023 models added categories (moderation-extra-categories).
  if (ctx.reading('moderation-extra-categories')) {
    for (const extra of ['harassment', 'harassment/threatening', 'self-harm/intent', 'self-harm/instructions']) { categories[extra] = false; categoryScores[extra] = 0.0001; }
  }
  if (ctx.fault('moderation-scores-missing-key')) delete categoryScores['self-harm'];
  const shownScores = ctx.fault('moderation-scores-as-strings') ? Object.fromEntries(Object.entries(categoryScores).map(([k, v]) => [k, v.toFixed(6)])) : categoryScores;
  const anyCategory = Object.values(categories).some(Boolean);
  const flagged = ctx.fault('moderation-flagged-inconsistent') ? false : ctx.fault('moderation-flagged-always-true') ? true : anyCategory;
  return { flagged, categories, category_scores: shownScores };
}

export function createModeration(ctx: Ctx): unknown {
  const fields = new Fields(parseJsonObject(ctx.body));
  const requested = fields.string('model') ?? 'text-moderation-latest';
  if (!ctx.fault('moderation-any-model-accepted') && !Object.hasOwn(MODERATION_MODEL_VERSIONS, requested)) {
    resolveModel(ctx.app, ctx.caller, requested, 'moderation'); // 404 for unknown, 400 for other kinds
  }
  const input = fields.raw('input');
  let texts: string[];
  if (typeof input === 'string') texts = [input];
  else if (Array.isArray(input) && input.length > 0 && input.every((s) => typeof s === 'string')) texts = input as string[];
  else if (input === undefined || input === null) throw invalidRequest("'input' is a required property", 'input');
  else throw invalidRequest(`${JSON.stringify(input).slice(0, 60)} is not valid under any of the given schemas - 'input'`, 'input');
  if (ctx.fault('moderation-array-first-only')) texts = texts.slice(0, 1);
  return {
    ...(ctx.fault('moderation-id-missing') ? {} : { id: ctx.app.ids.next('modr-', 29) }),
    model: Object.hasOwn(MODERATION_MODEL_VERSIONS, requested) ? MODERATION_MODEL_VERSIONS[requested] : requested,
    results: texts.map((t) => classify(ctx, t)),
  };
}
