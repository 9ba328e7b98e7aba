// A polling case: when its condition holds, what its poll result says when it does not, and whether the target
// is still on its way when the deadline runs out.

import { statusMatches } from '../../checks/expectations.ts';
import type { SchemaRegistry } from '../../schema/registry.ts';
import type { PollSpec } from '../../suite/types.ts';
import type { Exchange } from '../../transport/types.ts';
import { resolvePointer } from '../../util/pointer.ts';
import { builtinCitation, type SeverityOf } from '../../judge/citation.ts';
import { responseExcerpt } from '../../judge/excerpt.ts';
import { blockedMessage, isFailure, rootOf, type CaseIdentity, type CheckResult, type ResultStatus, type Root } from '../../judge/results.ts';
import { isSuccess } from '../../util/status.ts';

/** A polling case, as its poll result cites it. */
export interface PollCase {
  id: CaseIdentity;
  poll: PollSpec;
  severityOf: SeverityOf | undefined;
}

export function answerCannotMeet(exchange: Exchange, schema: string | undefined, schemas: SchemaRegistry): boolean {
  const status = exchange.response?.status;
  if (status === undefined || status < 200 || status >= 300) return true;
  return schema !== undefined && (exchange.response?.json === undefined || schemas.validate(schema, exchange.response.json).length > 0);
}

/** The poll of a case whose answer could never meet the condition: blocked by the failure that says why (its root). */
export function blockedPoll(pc: PollCase, results: readonly CheckResult[], exchange: Exchange): { result: CheckResult; root?: Root } {
  const failed = results.find((r) => ['transport', 'status', 'schema'].includes(r.check) && isFailure(r.status));
  if (!failed) return { result: pollResult(pc, 'fail', { message: `the answer can never meet the condition: status ${exchange.response?.status ?? 'none'}`, exchange }) };
  const root = rootOf(failed, `the answer cannot meet the poll's condition (${failed.message})`);
  const base = pollResult(pc, 'pass', { message: '' });
  return { result: { ...base, status: 'blocked', message: blockedMessage(root), blockedBy: root.by }, root };
}

/** The path and query of a URL: what a waiting line names (the base URL is in the run's header line). */
export function pathOf(url: string): string {
  try { const u = new URL(url); return u.pathname + u.search; } catch { return url; }
}

/** A poll's last answer says the target is still on its way: a resource short of the condition, a 5xx, no answer. */
export function stillWorking(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status === undefined || status >= 500 || (isSuccess(status));
}

export function pollConditionMet(poll: PollSpec, exchange: Exchange): true | string {
  const until = poll.until;
  if ('status' in until) {
    const s = exchange.response?.status;
    return s !== undefined && statusMatches(s, until.status) ? true : `status was ${s ?? exchange.error?.kind ?? 'none'}`;
  }
  const value = resolvePointer(exchange.response?.json, until.pointer);
  const shown = `${until.pointer} was ${JSON.stringify(value)}`;
  if (until.exists !== undefined && (value !== undefined) !== until.exists) return shown;
  if (until.equals !== undefined && JSON.stringify(value) !== JSON.stringify(until.equals)) return shown;
  if (until.not_equals !== undefined && JSON.stringify(value) === JSON.stringify(until.not_equals)) return shown;
  if (until.in !== undefined && !until.in.some((v) => JSON.stringify(v) === JSON.stringify(value))) return shown;
  return true;
}

/**
 * A poll establishes one thing (the job finished, the model serves): it cites `poll.requirements`, by default
 * the case's first requirement, not every requirement of the case — those are judged, or blocked, on the answer.
 */
export function pollResult(pc: PollCase, outcome: 'pass' | 'fail', said: { message: string; exchange?: Exchange }): CheckResult {
  const { id, poll, severityOf } = pc;
  const { message, exchange } = said;
  const all = builtinCitation(id.case, severityOf);
  const requirements = poll.requirements?.length ? [...poll.requirements] : all.requirements.slice(0, 1);
  const cite = { requirements, severity: requirements.some((r) => severityOf?.(r) !== 'should') ? 'must' as const : 'should' as const };
  const status: Exclude<ResultStatus, 'blocked'> = outcome === 'fail' && cite.severity === 'should' ? 'warn' : outcome;
  const r: CheckResult = { suite: id.suite, case: id.case.id, caseTitle: id.case.title, check: 'poll', requirements: cite.requirements, severity: cite.severity, status, message, source: id.source };
  if (outcome === 'fail' && exchange) {
    r.request = exchange.request;
    r.reproduce = id.reproduce;
    r.findings = [{ pointer: '', message, expected: 'the poll condition within the deadline', actual: 'not met' }];
    r.response = responseExcerpt(exchange);
  }
  return r;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });
}
