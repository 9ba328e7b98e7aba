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
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex)),
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
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex)),
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

export const completionTopLogprobsCount: ResponseCheck = {
  kind: 'response',
  name: 'completion_top_logprobs_count',
  after: ['completion_logprobs_present'],
  requirements: ['COMP-LOGPROBS-TOP-COUNT'],
  severity: 'must',
  summary: 'every top_logprobs map has at most logprobs+1 entries',
  skipWhen: (ex, ctx) => (requested(requestJson(ctx)) === undefined ? 'the request does not ask for logprobs' : skipUnlessOk(ex)),
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
