// Exchange × expectations → check results. Pure: no I/O here either.

import { isNotExercised, type Check, type CheckContext, type CheckVerdict, type Finding, type Severity, type StreamCheck } from '../checks/types.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import { checkHeader, checkSchema, checkStatus } from '../checks/expectations.ts';
import type { CaseSpec, CheckUse } from '../suite/types.ts';
import type { Exchange, SseEvent } from '../transport/types.ts';
import type { CheckResult, ResponseExcerpt, ResultStatus } from './types.ts';

export interface CaseIdentity {
  suite: string;
  case: CaseSpec;
  source: string;
  reproduce: string;
}

/** Severity of a catalogue requirement (undefined for an unknown ID). */
export type SeverityOf = (id: string) => 'must' | 'should' | 'untestable' | undefined;

/**
 * What the built-in expectations (status, schema, headers) of a case cite, and at which severity.
 * They cite the case's `must` requirements; a case that cites only `should` requirements (a convention,
 * e.g. an invalid language code being rejected) makes its built-ins warnings. Never a convention as a must.
 */
export function builtinCitation(c: CaseSpec, severityOf: SeverityOf | undefined): { requirements: string[]; severity: Severity } {
  if (!severityOf) return { requirements: [...c.requirements], severity: 'must' };
  const must = c.requirements.filter((id) => severityOf(id) !== 'should');
  if (must.length > 0) return { requirements: must, severity: 'must' };
  return { requirements: [...c.requirements], severity: 'should' };
}

/** One stream check's running state, folded as events arrive. */
export interface StreamFold {
  check: StreamCheck<unknown>;
  use: CheckUse;
  /** Position of the use in the case's check list: uses are matched to folds by position, not identity. */
  position: number;
  state: unknown;
  findings: Finding[];
  error?: string;
}

export function normaliseUses(c: CaseSpec): CheckUse[] {
  return (c.expect?.checks ?? []).map((u) => (typeof u === 'string' ? { name: u } : u));
}

/** Start the stream folds of a case; the transport then feeds them each event. */
export function startStreamFolds(c: CaseSpec, registry: CheckRegistry, ctxFor: (use: CheckUse) => CheckContext): StreamFold[] {
  const folds: StreamFold[] = [];
  for (const [position, use] of normaliseUses(c).entries()) {
    const check = registry.get(use.name);
    if (check?.kind !== 'stream') continue;
    const fold: StreamFold = { check, use, position, state: undefined, findings: [] };
    try {
      fold.state = check.start(ctxFor(use));
    } catch (e) {
      fold.error = describeError(e);
    }
    folds.push(fold);
  }
  return folds;
}

export function feedStreamFolds(folds: StreamFold[], event: SseEvent, index: number, ctxFor: (use: CheckUse) => CheckContext): void {
  for (const fold of folds) {
    if (fold.error) continue;
    try {
      const found = fold.check.event(fold.state, event, index, ctxFor(fold.use));
      // Keep the first findings only: a broken stream repeats the same fault on every event.
      if (found && fold.findings.length < 20) fold.findings.push(...found.slice(0, 20 - fold.findings.length));
    } catch (e) {
      fold.error = describeError(e);
    }
  }
}

export function evaluateCase(
  id: CaseIdentity,
  exchange: Exchange,
  registry: CheckRegistry,
  ctxFor: (use: CheckUse) => CheckContext,
  folds: StreamFold[],
  schemas: CheckContext['schemas'],
  severityOf?: SeverityOf,
): CheckResult[] {
  const c = id.case;
  const cite = builtinCitation(c, severityOf);
  const results: CheckResult[] = [];
  const excerpt = responseExcerpt(exchange);
  const push = (check: string, requirements: readonly string[], severity: Severity, outcome: { findings?: Finding[]; error?: string; skip?: string; notExercised?: string }, summary: string): void => {
    let status: ResultStatus;
    let message: string;
    if (outcome.error !== undefined) { status = 'error'; message = `${check} could not be evaluated: ${outcome.error}`; }
    else if (outcome.skip !== undefined) { status = 'skip'; message = outcome.skip; }
    else if (outcome.notExercised !== undefined) { status = 'not-exercised'; message = `${summary}: not exercised: ${outcome.notExercised}`; }
    else if (outcome.findings && outcome.findings.length > 0) {
      status = severity === 'must' ? 'fail' : 'warn';
      message = `${summary}: ${outcome.findings[0]!.message}${outcome.findings.length > 1 ? ` (+${outcome.findings.length - 1} more)` : ''}`;
    } else { status = 'pass'; message = summary; }
    const result: CheckResult = {
      suite: id.suite, case: c.id, caseTitle: c.title, check, requirements: [...requirements], severity, status, message, source: id.source,
    };
    if (status === 'fail' || status === 'warn' || status === 'error') {
      if (outcome.findings?.length) result.findings = outcome.findings;
      result.request = exchange.request;
      result.response = excerpt;
      result.reproduce = id.reproduce;
    }
    results.push(result);
  };
  const guard = (fn: () => CheckVerdict): { findings?: Finding[]; error?: string; notExercised?: string } => {
    try {
      const verdict = fn();
      return isNotExercised(verdict) ? { notExercised: verdict.notExercised } : { findings: verdict };
    } catch (e) {
      return { error: describeError(e) };
    }
  };

  if (exchange.error?.kind === 'aborted') {
    // The run was interrupted while this request was in flight: nothing is known about the target.
    return [skippedCase(id, `interrupted before the response was complete: ${exchange.error.message}`)];
  }
  if (exchange.error && !exchange.response) {
    push('transport', cite.requirements, cite.severity, { findings: [{ pointer: '', message: exchange.error.message, expected: 'a response', actual: exchange.error.kind }] }, 'the target answers');
    return results;
  }
  if (exchange.error) {
    // A stalled stream or a body cut short: the response is incomplete, whatever the other checks say.
    push('transport', cite.requirements, cite.severity, { findings: [{ pointer: '', message: exchange.error.message, expected: 'a complete response', actual: exchange.error.kind }] }, 'the response is complete');
  }
  const expect = c.expect ?? {};
  if (expect.status !== undefined) push('status', cite.requirements, cite.severity, guard(() => checkStatus(exchange, expect.status!)), `status is ${String(expect.status)}`);
  if (expect.schema) push('schema', cite.requirements, cite.severity, guard(() => checkSchema(exchange, expect.schema!, schemas)), `body matches ${expect.schema}`);
  for (const [name, h] of Object.entries(expect.headers ?? {})) push(`header:${name.toLowerCase()}`, cite.requirements, cite.severity, guard(() => checkHeader(exchange, name, h)), `header ${name}`);

  for (const [position, use] of normaliseUses(c).entries()) {
    const check: Check | undefined = registry.get(use.name);
    if (!check) { push(use.name, cite.requirements, 'must', { error: `no check named "${use.name}"` }, use.name); continue; }
    const ctx = ctxFor(use);
    let skip: string | undefined;
    try {
      skip = check.skipWhen?.(exchange, ctx);
    } catch (e) {
      push(check.name, check.requirements, check.severity, { error: describeError(e) }, check.summary);
      continue;
    }
    if (skip) { push(check.name, check.requirements, check.severity, { skip }, check.summary); continue; }
    if (check.kind === 'response') {
      push(check.name, check.requirements, check.severity, guard(() => check.run(exchange, ctx)), check.summary);
    } else {
      const fold = folds.find((f) => f.position === position);
      if (!fold) { push(check.name, check.requirements, check.severity, { skip: 'the response was not read as a stream (request.stream is not set, or the target answered without a stream)' }, check.summary); continue; }
      if (fold.error) { push(check.name, check.requirements, check.severity, { error: fold.error }, check.summary); continue; }
      const end = guard(() => check.end(fold.state, exchange.stream?.end ?? 'eof', exchange, ctx));
      // Findings made while events arrived stand even when the end says the rule was not exercised.
      const outcome = end.error !== undefined ? end : fold.findings.length > 0 || end.notExercised === undefined ? { findings: [...fold.findings, ...(end.findings ?? [])] } : end;
      push(check.name, check.requirements, check.severity, outcome, check.summary);
    }
  }
  return results;
}

export function skippedCase(id: CaseIdentity, reason: string): CheckResult {
  return { suite: id.suite, case: id.case.id, caseTitle: id.case.title, check: 'case', requirements: [...id.case.requirements], severity: 'must', status: 'skip', message: reason, source: id.source };
}

export function responseExcerpt(exchange: Exchange): ResponseExcerpt {
  const r = exchange.response;
  const excerpt: ResponseExcerpt = {};
  if (r) {
    excerpt.status = r.status;
    if (r.headers['content-type']) excerpt.contentType = r.headers['content-type'];
    const text = exchange.stream
      ? exchange.stream.sample.slice(0, 6).map((e) => `data: ${e.data}`).join('\n') + (exchange.stream.eventCount > 6 ? `\n… ${exchange.stream.eventCount} events, ended: ${exchange.stream.end}` : '')
      : r.text;
    if (text) excerpt.excerpt = text.length > 600 ? text.slice(0, 600) + '…' : text;
  }
  if (exchange.error) excerpt.error = exchange.error.message;
  else if (exchange.stream?.detail) excerpt.error = exchange.stream.detail;
  return excerpt;
}

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
