// Create completion, logprobs (default null, max 5): "response includes logprobs for the sampled token too,
// so up to logprobs+1 entries". Text completion result: logprobs is an object or null; when non-null it holds
// text_offset, token_logprobs, tokens and top_logprobs — four arrays describing the same tokens.

import { notExercised, type Finding, type ResponseCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { choicesOf, given, okBody, requestJson, skipUnlessOk } from './request.ts';

const LOGPROB_ARRAYS = ['tokens', 'token_logprobs', 'text_offset', 'top_logprobs'] as const;

function requested(json: Record<string, unknown>): number | undefined {
  const v = given(json, 'logprobs');
  return typeof v === 'number' ? v : undefined;
}

/** A check of the logprobs a request asked for: skipped when it asked for none, or was not answered with success. */
function skipUnlessLogprobsAsked(ex: Parameters<ResponseCheck['run']>[0], ctx: Parameters<ResponseCheck['run']>[1]): string | undefined {
  return requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex);
}

export const completionLogprobsNullByDefault: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_null_by_default',
  requirements: ['COMP-LOGPROBS-DEFAULT-NULL'],
  severity: 'must',
  summary: 'without logprobs in the request every choice has logprobs: null (default null)',
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) !== undefined ? 'the request asks for logprobs' : skipUnlessOk(ex)),
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] =>
      c.logprobs === null ? [] : [{ pointer: `/choices/${i}/logprobs`, message: 'logprobs was not requested, so it must be null', expected: null, actual: 'logprobs' in c ? c.logprobs : 'absent' }]);
  },
};

export const completionLogprobsPresent: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_present',
  requirements: ['COMP-LOGPROBS-PRESENT'],
  severity: 'must',
  summary: 'with logprobs k every choice carries a logprobs object',
  skipWhen: skipUnlessLogprobsAsked,
  run: (ex) => {
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    if (got.choices.length === 0) return notExercised('the answer has no choice to judge (the number of choices is a rule of its own)');
    return got.choices.flatMap((c, i): Finding[] =>
      isRecord(c.logprobs) ? [] : [{ pointer: `/choices/${i}/logprobs`, message: 'logprobs was requested, so each choice carries a logprobs object', expected: 'an object', actual: c.logprobs ?? 'null/absent' }]);
  },
};

function logprobObjects(ex: Parameters<ResponseCheck['run']>[0]): Array<{ pointer: string; lp: Record<string, unknown> }> {
  const got = choicesOf(okBody(ex)!);
  if ('finding' in got) return [];
  return got.choices.flatMap((c, i) => (isRecord(c.logprobs) ? [{ pointer: `/choices/${i}/logprobs`, lp: c.logprobs }] : []));
}

export const completionLogprobsAligned: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_aligned',
  after: ['completion_logprobs_present'],
  requirements: ['RES-COMPLETION-LOGPROBS-ALIGNED'],
  severity: 'must',
  summary: 'tokens, token_logprobs, text_offset and top_logprobs have one entry per returned token (equal lengths)',
  skipWhen: skipUnlessLogprobsAsked,
  run: (ex) => {
    const objects = logprobObjects(ex);
    if (objects.length === 0) return notExercised('the answer has no logprobs object (completion_logprobs_present judges whether it must)');
    return objects.flatMap(({ pointer, lp }): Finding[] => {
      const lengths = Object.fromEntries(LOGPROB_ARRAYS.map((k) => [k, Array.isArray(lp[k]) ? (lp[k] as unknown[]).length : undefined]));
      const values = Object.values(lengths);
      if (values.some((v) => v === undefined)) return [{ pointer, message: 'a logprobs array is missing', expected: LOGPROB_ARRAYS.join(', '), actual: lengths }];
      return new Set(values).size === 1 ? [] : [{ pointer, message: 'the four logprobs arrays describe the same tokens, so their lengths must be equal', expected: 'equal lengths', actual: lengths }];
    });
  },
};

/**
 * token_logprobs is "array of numbers", top_logprobs "array of maps": the schema lets null through only because the
 * real service shows null for the first token under echo (it has no probability: nothing precedes it). Anywhere
 * else a null is a value never computed.
 */
export const completionLogprobsComputed: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_computed',
  after: ['completion_logprobs_aligned'],
  requirements: ['RES-COMPLETION-LOGPROBS'],
  severity: 'must',
  summary: 'token_logprobs and top_logprobs hold values, null only for the first token under echo',
  skipWhen: skipUnlessLogprobsAsked,
  run: (ex, ctx) => {
    const echo = given(requestJson(ctx), 'echo') === true;
    const objects = logprobObjects(ex);
    if (objects.length === 0) return notExercised('the answer has no logprobs object');
    return objects.flatMap(({ pointer, lp }): Finding[] => ['token_logprobs', 'top_logprobs'].flatMap((key) => {
      const list = Array.isArray(lp[key]) ? (lp[key] as unknown[]) : [];
      const at = list.findIndex((v, k) => v === null && !(echo && k === 0));
      return at < 0 ? [] : [{ pointer: `${pointer}/${key}/${at}`, message: `${key}[${at}] is null: only the first token under echo has no value`, expected: key === 'token_logprobs' ? 'a number' : 'a map', actual: null }];
    }));
  },
};

/** Rounding slack: values are printed with a few decimals, and a map's rounded probabilities may add up a little over 1. */
const LOGPROB_SLACK = 1e-4;
const MASS_SLACK = 0.01;

/**
 * A log-probability is at most 0, and the tokens of a top_logprobs map are distinct outcomes of one distribution,
 * so their probabilities add up to at most 1. Values that break this are not log-probabilities: placeholders
 * (every value 0), logits, or probabilities not in log space.
 */
export const completionLogprobsAreProbabilities: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_are_probabilities',
  after: ['completion_logprobs_aligned'],
  requirements: ['RES-COMPLETION-LOGPROBS'],
  severity: 'must',
  summary: 'every logprob is ≤ 0, and the probabilities of each top_logprobs map add up to at most 1',
  skipWhen: skipUnlessLogprobsAsked,
  run: (ex) => {
    const objects = logprobObjects(ex);
    if (objects.length === 0) return notExercised('the answer has no logprobs object');
    return objects.flatMap(({ pointer, lp }): Finding[] => {
      const findings: Finding[] = [];
      const positive = (v: unknown): v is number => typeof v === 'number' && v > LOGPROB_SLACK;
      const tokenLps = Array.isArray(lp.token_logprobs) ? lp.token_logprobs : [];
      const t = tokenLps.findIndex(positive);
      if (t >= 0) findings.push({ pointer: `${pointer}/token_logprobs/${t}`, message: `token_logprobs[${t}] is ${String(tokenLps[t])}: a log-probability is at most 0`, expected: '≤ 0', actual: tokenLps[t] });
      const maps = Array.isArray(lp.top_logprobs) ? lp.top_logprobs : [];
      const m = maps.findIndex((map) => isRecord(map) && Object.values(map).some(positive));
      if (m >= 0) findings.push({ pointer: `${pointer}/top_logprobs/${m}`, message: `top_logprobs[${m}] holds a value above 0: a log-probability is at most 0`, expected: 'values ≤ 0', actual: maps[m] });
      const masses = maps.map((map) => (isRecord(map) ? Object.values(map).reduce((sum: number, v) => sum + (typeof v === 'number' ? Math.exp(v) : 0), 0) : 0));
      const over = masses.findIndex((mass) => mass > 1 + MASS_SLACK);
      if (over >= 0) {
        const mass = masses[over]!;
        findings.push({ pointer: `${pointer}/top_logprobs/${over}`, message: `the probabilities of top_logprobs[${over}] add up to ${mass.toFixed(3)}: distinct tokens of one distribution cannot exceed 1`, expected: '≤ 1', actual: maps[over] });
      }
      return findings;
    });
  },
};

export const completionTopLogprobsCount: ResponseCheck = {
  kind: 'response',
  name: 'completion_top_logprobs_count',
  over: '/choices/*/logprobs/top_logprobs/*',
  after: ['completion_logprobs_present'],
  requirements: ['COMP-LOGPROBS-TOP-COUNT'],
  severity: 'must',
  summary: 'every top_logprobs map has at most logprobs+1 entries',
  skipWhen: skipUnlessLogprobsAsked,
  run: (ex, ctx) => {
    const k = requested(requestJson(ctx))!;
    const objects = logprobObjects(ex);
    if (objects.length === 0) return notExercised('the answer has no logprobs object (completion_logprobs_present judges whether it must)');
    const findings: Finding[] = [];
    for (const { pointer, lp } of objects) {
      if (!Array.isArray(lp.top_logprobs)) { findings.push({ pointer: `${pointer}/top_logprobs`, message: 'top_logprobs is missing', expected: 'an array', actual: lp.top_logprobs ?? 'absent' }); continue; }
      lp.top_logprobs.forEach((map, t) => {
        if (isRecord(map) && Object.keys(map).length > k + 1) {
          findings.push({ pointer: `${pointer}/top_logprobs/${t}`, message: `logprobs ${k} allows at most ${k + 1} entries per token`, expected: `≤ ${k + 1}`, actual: Object.keys(map).length });
        }
      });
    }
    return findings;
  },
};

/**
 * text_offset says where each token sits in the text. Two readings exist without echo (offsets into the returned
 * text, or into prompt + completion as the real service counts), so the first offset may be 0 or the prompt's
 * length there; with echo the returned text starts with the prompt and both readings give 0. Under either reading
 * the tokens are consecutive pieces of the text: each offset is the previous one plus the previous token's length.
 * The unit of that length is not stated: characters (code points, as Python counts), UTF-16 units or bytes all
 * conform, so the offsets must be consistent in one of them. A leading special token that is not part of the text
 * (a BOS "<s>" a server decodes under echo) is left out. Whether the tokens joined are the text is not judged: the
 * spec does not say how a token is shown. Byte tokens (`bytes:…`) of split UTF-8 characters cannot be measured, so a
 * choice with one is not judged.
 */
const UNITS: ReadonlyArray<{ name: string; length: (s: string) => number }> = [
  { name: 'code points', length: (s) => [...s].length },
  { name: 'UTF-16 units', length: (s) => s.length },
  { name: 'bytes', length: (s) => Buffer.byteLength(s, 'utf8') },
];

/** The first offset that fails every unit, or undefined when the offsets are consistent in one of them. */
function offsetsBreak(tokens: readonly string[], offsets: readonly unknown[], starts: (unit: (s: string) => number) => number[]): { k: number; want: number } | undefined {
  let worst: { k: number; want: number } | undefined;
  for (const unit of UNITS) {
    if (!starts(unit.length).includes(offsets[0] as number)) { worst ??= { k: 0, want: starts(unit.length)[0]! }; continue; }
    let k = 1;
    for (; k < tokens.length; k++) if (offsets[k] !== (offsets[k - 1] as number) + unit.length(tokens[k - 1]!)) break;
    if (k === tokens.length) return undefined;
    if (!worst || k > worst.k) worst = { k, want: (offsets[k - 1] as number) + unit.length(tokens[k - 1]!) };
  }
  return worst;
}

export const completionLogprobsOffsets: ResponseCheck = {
  kind: 'response',
  name: 'completion_logprobs_offsets',
  after: ['completion_logprobs_aligned'],
  requirements: ['RES-COMPLETION-LOGPROBS-ALIGNED'],
  severity: 'must',
  summary: 'text_offset points at each token in the text: consecutive tokens, in one unit of length',
  skipWhen: (ex, ctx) => {
    const json = requestJson(ctx);
    if (requested(json) === undefined) return 'the request does not ask for logprobs';
    if (typeof json.prompt !== 'string') return 'needs one text prompt';
    // A stop sequence may begin inside a token: how such a token is shown is not written anywhere.
    if (given(json, 'stop') !== undefined && given(json, 'stop') !== null) return 'the request has stop sequences';
    return skipUnlessOk(ex);
  },
  run: (ex, ctx) => {
    const json = requestJson(ctx);
    const prompt = json.prompt as string;
    const echo = given(json, 'echo') === true;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const judged = got.choices.flatMap((c, i) => {
      const lp = c.logprobs;
      if (!isRecord(lp) || typeof c.text !== 'string' || !Array.isArray(lp.tokens) || !Array.isArray(lp.text_offset)) return [];
      const tokens = lp.tokens as unknown[];
      const offsets = lp.text_offset as unknown[];
      if (tokens.length === 0 || tokens.length !== offsets.length || !tokens.every((t) => typeof t === 'string' && !t.startsWith('bytes:'))) return [];
      return [{ i, text: c.text, tokens: tokens as string[], offsets }];
    });
    if (judged.length === 0) return notExercised('no choice has text tokens with as many offsets to compare');
    return judged.flatMap(({ i, text, tokens: all, offsets: allOffsets }): Finding[] => {
      const pointer = `/choices/${i}/logprobs/text_offset`;
      // A special token the text does not hold (a BOS under echo) is no piece of the text.
      const skip = echo && all.length > 1 && !text.startsWith(all[0]!) && text.startsWith(all[1]!) ? 1 : 0;
      const tokens = all.slice(skip);
      const offsets = allOffsets.slice(skip);
      const starts = (length: (s: string) => number) => (echo ? [0] : [0, length(prompt)]);
      const broken = offsetsBreak(tokens, offsets, starts);
      if (!broken) return [];
      const k = broken.k + skip;
      if (broken.k === 0) return [{ pointer: `${pointer}/${k}`, message: echo ? 'with echo the first token is the start of the returned text' : 'the first token sits at the start of the text (or after the prompt)', expected: echo ? 0 : `0 or the prompt's length`, actual: allOffsets[k] }];
      return [{ pointer: `${pointer}/${k}`, message: `token ${k} (${JSON.stringify(all[k])}) follows token ${k - 1} (${JSON.stringify(all[k - 1])}), so its offset is the previous offset plus that token's length (in characters, UTF-16 units or bytes)`, expected: broken.want, actual: allOffsets[k] }];
    });
  },
};
