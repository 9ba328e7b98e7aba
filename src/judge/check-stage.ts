// The registered checks and inline assertions of one exchange, after its gates: each judged, blocked by what it
// depends on (a gate, a check it builds on, an earlier case, the part of the body the schema rejected), or skipped
// when its rule does not apply to this answer.

import type { Check, CheckContext, StatusClassNeed, StreamCheck } from '../checks/types.ts';
import type { CheckUse } from '../suite/types.ts';
import type { Exchange } from '../transport/types.ts';
import { isEventStreamType } from '../util/content-type.ts';
import { describeError } from '../util/describe-error.ts';
import { resolveWildcard } from '../util/pointer.ts';
import { statusClass } from '../util/status.ts';
import { guard, type CaseEvidence, type Judging, type SchemaRoot } from './judging.ts';
import type { Outcome } from './recorder.ts';
import { isFailure, rootOf, type Root } from './results.ts';
import { caseChecks } from './stream-folds.ts';

/** What the registered checks and inline assertions of one exchange share while they are judged. */
export interface CheckRound { schemaRoot: SchemaRoot | undefined; failedChecks: Map<string, Root>; answerClass: StatusClassNeed | 'other' }

export function judgeChecks(j: Judging, schemaRoot: SchemaRoot | undefined): void {
  const { rec, cite } = j;
  const round: CheckRound = { schemaRoot, failedChecks: new Map(), answerClass: statusClass(j.exchange.response?.status) };
  for (const [position, { use, check }] of caseChecks(j.id.case, j.context.registry, j.id.assertions).entries()) {
    if (!check) { rec.record({ check: use.name, requirements: cite.requirements, severity: 'must' }, { error: `no check named "${use.name}"` }, { summary: use.name }); continue; }
    const r = rec.record({ check: check.name, requirements: check.requirements, severity: check.severity }, outcomeOf(j, round, { use, check, position }), { summary: check.summary });
    if (isFailure(r.status)) round.failedChecks.set(check.name, rootOf(r));
  }
}

/** One check's outcome: blocked (a gate, a check it builds on, an earlier case, the schema), skipped, or judged. */
export function outcomeOf(j: Judging, round: CheckRound, item: { use: CheckUse; check: Check; position: number }): Outcome {
  const { exchange, rec, expect, evidence } = j;
  const { use, check } = item;
  if (rec.root) return { blocked: rec.root };
  const prerequisite = (check.after ?? []).map((n) => round.failedChecks.get(n)).find((r) => r !== undefined);
  if (prerequisite) return { blocked: prerequisite };
  const earlier = earlierCaseRoot(use, evidence);
  if (earlier) return { blocked: earlier };
  // Behind a passed status check the answer is of the class the case expects, which is what its checks were
  // written for; a declared class, or a case without a status expectation, needs the guard.
  const needs = check.appliesTo ?? (expect.status === undefined ? classNeeded(check) : 'any');
  if (needs !== 'any' && round.answerClass !== needs) return { skip: `judges ${needs} answers; this answer was ${exchange.response?.status ?? 'none'}` };
  const ctx = j.context.ctxFor(use);
  let skip: string | undefined;
  try {
    skip = check.skipWhen?.(exchange, ctx);
  } catch (e) {
    return { error: describeError(e) };
  }
  // A body the schema check found not to be JSON at all: a check that steps aside could not read it either.
  // It is blocked by that failure (one root cause), not skipped as if its rule did not apply.
  const { schemaRoot } = round;
  if (skip) return schemaRoot && exchange.response?.json === undefined && !exchange.stream ? { blocked: schemaRoot.root } : { skip };
  const outcome = check.kind === 'response'
    ? vacuous(check.over, exchange, guard(() => check.run(exchange, ctx)))
    : streamOutcome(j, round, { check, position: item.position, ctx });
  if (schemaRoot && outcome.findings?.length && outcome.findings.every((f) => inside(f.pointer, schemaRoot.pointers))) return { blocked: schemaRoot.root };
  return outcome;
}

/** A pass over an empty set of the items a check is about is no pass (see CheckBase.over). */
export function vacuous(over: string | undefined, ex: Exchange, outcome: Outcome): Outcome {
  return over !== undefined && outcome.findings?.length === 0 && resolveWildcard(ex.response?.json, over).length === 0
    ? { notExercised: `the answer has nothing at ${over} to judge` }
    : outcome;
}

/** A stream check's outcome: from its fold of the events, or why the answer was never read as a stream. */
export function streamOutcome(j: Judging, round: CheckRound, item: { check: StreamCheck; position: number; ctx: CheckContext }): Outcome {
  const { exchange } = j;
  const { check, ctx } = item;
  const fold = j.context.folds.find((f) => f.position === item.position);
  const sse = round.failedChecks.get('sse_content_type');
  // An answer that is no event stream was never read as one: a stream check would judge zero events (a pass that
  // exercised nothing, or a [DONE] "missing" from bytes that hold one). The content-type failure is the cause.
  if (fold && check.name !== 'sse_content_type' && !isEventStreamType(exchange.response?.headers['content-type'])) {
    return sse ? { blocked: sse } : { skip: `the answer is not an event stream (content-type ${exchange.response?.headers['content-type'] ?? 'none'}): nothing was read as events` };
  }
  if (!fold) return sse ? { blocked: sse } : { skip: 'the response was not read as a stream (request.stream is not set, or the target answered without a stream)' };
  if (fold.error) return { error: fold.error };
  const end = guard(() => check.end(fold.state, exchange.stream?.end ?? 'eof', exchange, ctx));
  // Findings made while events arrived stand even when the end says the rule was not exercised.
  return end.error !== undefined ? end : fold.findings.length > 0 || end.notExercised === undefined ? { findings: [...fold.findings, ...(end.findings ?? [])] } : end;
}

/** The status class a check judges when its case does not say: `4xx` for the error conventions, else `2xx`. */
export function classNeeded(check: Check): StatusClassNeed {
  return check.requirements.length > 0 && check.requirements.every((r) => r.startsWith('ERR-')) ? '4xx' : '2xx';
}

/** An earlier case a check reads through `with:` whose answer is unusable blocks that check. */
export function earlierCaseRoot(use: CheckUse, evidence: CaseEvidence): Root | undefined {
  if (!use.with || !evidence.rootOfCase) return undefined;
  const named: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') named.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  Object.values(use.with).forEach(visit);
  for (const caseId of named) {
    const r = evidence.rootOfCase(caseId);
    if (r) return r;
  }
  return undefined;
}

/** A finding lies inside a part the schema rejected (the whole body is the root `/` or ``). */
export function inside(pointer: string, rejected: readonly string[]): boolean {
  return rejected.some((p) => p === '' || p === '/' || pointer === p || pointer.startsWith(p + '/'));
}
