// The results of one exchange as they are judged: each made once, in order, final when made. The first failed gate
// (poll, transport, status) is the root everything judged after it is blocked by.

import type { Finding, Severity } from '../checks/types.ts';
import type { Exchange } from '../transport/types.ts';
import { responseExcerpt } from './excerpt.ts';
import { blockedMessage, isFailure, rootOf, type CaseIdentity, type CheckResult, type ResponseExcerpt, type ResultStatus, type Root } from './results.ts';

/** What judging one rule gave, before it becomes a result. */
export type Outcome = { findings?: Finding[]; error?: string; skip?: string; notExercised?: string; blocked?: Root };

/** The rules a result cites, and at which severity. */
export interface Citation { requirements: readonly string[]; severity: Severity }

/** A result's rule: its check's name, and what it cites. */
export interface Rule extends Citation { check: string }

export class Recorder {
  readonly results: CheckResult[] = [];
  /** The first failed gate. */
  root: Root | undefined;
  /** The root the first blocked result is blocked by. */
  firstBlocked: Root | undefined;
  readonly #exchange: Exchange;
  readonly #id: CaseIdentity;
  readonly #keepPassEvidence: boolean;
  /** Why a refusal proves nothing here (an endpoint never served), if it does not. */
  readonly #unproven: string | undefined;
  #excerpt: ResponseExcerpt | undefined;

  constructor(exchange: Exchange, id: CaseIdentity, how: { keepPassEvidence: boolean; unproven: string | undefined }) {
    this.#exchange = exchange;
    this.#id = id;
    this.#keepPassEvidence = how.keepPassEvidence;
    this.#unproven = how.unproven;
  }

  /** One rule's result. `summary` says what held; `message` words the failure, when the summary's form does not fit. */
  record(rule: Rule, outcome: Outcome, wording: { summary: string; message?: (f: Finding[]) => string }): CheckResult {
    const { check, requirements, severity } = rule;
    const cite = { requirements, severity };
    const { status, text } = this.#statusOf(rule, outcome, wording);
    if (outcome.blocked) this.firstBlocked ??= outcome.blocked;
    const c = this.#id.case;
    const identity = { suite: this.#id.suite, case: c.id, caseTitle: c.title, source: this.#id.source };
    const durationMs = Math.round(this.#exchange.timing.durationMs);
    // Keys in this order: report.json is these objects as they are.
    const result: CheckResult = outcome.blocked
      ? { ...identity, check, requirements: [...cite.requirements], severity: cite.severity, status: 'blocked', message: text, durationMs, blockedBy: outcome.blocked.by }
      : { ...identity, check, requirements: [...cite.requirements], severity: cite.severity, status: status as Exclude<ResultStatus, 'blocked'>, message: text, durationMs };
    if (isFailure(status)) {
      if (outcome.findings?.length) result.findings = outcome.findings;
      result.request = this.#exchange.request;
      result.response = this.#excerptOf();
      result.reproduce = this.#id.reproduce;
    } else if (status === 'pass' && this.#keepPassEvidence) {
      result.request = this.#exchange.request;
      result.response = this.#excerptOf();
    }
    this.results.push(result);
    return result;
  }

  /** A result made elsewhere (the poll's), kept in order. */
  add(result: CheckResult): void {
    this.results.push(result);
  }

  /** A gate's result: the first that failed is the root of everything after it. */
  gate(result: CheckResult): void {
    if (!this.root && isFailure(result.status)) this.root = rootOf(result);
  }

  #statusOf(rule: Rule, outcome: Outcome, wording: { summary: string; message?: (f: Finding[]) => string }): { status: ResultStatus; text: string } {
    const { check, severity } = rule;
    const { summary, message } = wording;
    if (outcome.blocked) return { status: 'blocked', text: blockedMessage(outcome.blocked) };
    if (outcome.error !== undefined) return { status: 'error', text: `${check} could not be evaluated: ${outcome.error}` };
    if (outcome.skip !== undefined) return { status: 'skip', text: outcome.skip };
    if (outcome.notExercised !== undefined) return { status: 'not-exercised', text: `${summary}: not exercised: ${outcome.notExercised}` };
    if (this.#unproven && !outcome.findings?.length) return { status: 'not-exercised', text: `${summary}: not exercised: ${this.#unproven}` };
    if (outcome.findings && outcome.findings.length > 0) {
      const more = outcome.findings.length > 1 ? ` (+${outcome.findings.length - 1} more)` : '';
      return { status: severity === 'must' ? 'fail' : 'warn', text: message ? message(outcome.findings) + more : `${summary}: ${outcome.findings[0]!.message}${more}` };
    }
    return { status: 'pass', text: summary };
  }

  #excerptOf(): ResponseExcerpt {
    return (this.#excerpt ??= responseExcerpt(this.#exchange));
  }
}
