// Exchange × expectations → check results. Pure: no I/O here either.
//
// Results depend on results. A case is judged in a fixed order, and the first failure of a gate blocks what
// comes after it, so one root cause gives one failure:
//
//   poll ─▶ transport (a response at all, and complete) ─▶ status ─▶ schema · headers · checks
//
// Beyond the gates: a check is never run on an answer of a status class it does not judge (an error body is
// not a completion), a check building on another check of the same exchange (`after`) is blocked by it, a
// check naming an earlier case that has no usable answer is blocked by that case's root, and a failure
// whose every finding lies inside a part of the body the schema already rejected is blocked by the schema.

import { isNotExercised, type Check, type CheckContext, type CheckVerdict, type Finding, type Severity, type StatusClassNeed } from '../checks/types.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import { checkHeader, checkSchema, checkStatus } from '../checks/expectations.ts';
import type { CaseSpec, CheckUse } from '../suite/types.ts';
import type { Exchange } from '../transport/types.ts';
import type { CaseIdentity, CheckResult, ResponseExcerpt, ResultStatus, Root } from './results.ts';
import { blockedMessage, isFailure, rootOf, skippedCase } from './results.ts';
import { builtinCitation, headerCitation, schemaCitation, withoutRules, type SeverityOf } from './citation.ts';
import { caseChecks, type StreamFold } from './stream-folds.ts';
import { responseExcerpt, serverMessage } from './excerpt.ts';
import { resolvePointer, resolveWildcard } from '../util/pointer.ts';
import { isEventStreamType } from '../util/content-type.ts';
import { describeError } from '../util/describe-error.ts';
import { statusClass } from '../util/status.ts';

/**
 * A refusal proves a rejection rule only where the endpoint exists: a 404 or 405 from an endpoint that has answered
 * nothing of its suite with success is what a server without that endpoint says to every request ("bearer required"
 * passed on a mock without the endpoint). What would pass on it is not exercised then, never a pass.
 */
function refusalUnproven(status: number | undefined, evidence: CaseEvidence): string | undefined {
  if ((status !== 404 && status !== 405) || evidence.endpointServed !== false) return undefined;
  return `answered ${status}, and this endpoint has answered nothing of the suite with success: a server without the endpoint answers every request so`;
}


/** What the engine knows about the case beyond its exchange: the poll's verdict, and earlier cases' roots. */
export interface CaseEvidence {
  /** The poll result of a polling case (pass, or fail/warn when the deadline or request budget ran out). */
  poll?: CheckResult;
  /** The root that makes an earlier case's answer unusable, or undefined when it is usable. */
  rootOfCase?: (caseId: string) => Root | undefined;
  /** --report-passes: passing results keep the redacted request and a response excerpt too. */
  keepPassEvidence?: boolean;
  /** Whether the case's endpoint has answered a request of its suite with success (false: not yet). */
  endpointServed?: boolean;
}

type Outcome = { findings?: Finding[]; error?: string; skip?: string; notExercised?: string; blocked?: Root };

/** How the judge reads what it needs beyond the exchange and the expectations. No I/O and no suite state. */
export interface JudgeContext {
  registry: CheckRegistry;
  /** The context each check use is run with (the planned request, the profile, its `with:` parameters). */
  ctxFor: (use: CheckUse) => CheckContext;
  /** The case's stream folds, fed while the answer arrived (none when it was not read as a stream). */
  folds: readonly StreamFold[];
  schemas: CheckContext['schemas'];
  severityOf?: SeverityOf;
  evidence?: CaseEvidence;
}

/** The judge's verdict on one exchange: its results, final when returned, and their causes as data. */
export interface Judgement {
  results: CheckResult[];
  /** The failed gate (poll, transport, status) that makes this answer unusable to what depends on it. */
  root?: Root;
  /** The first failure of any result, else the root the first blocked result is blocked by. */
  cause?: Root;
}

/** Judge one exchange against its expectations (a case's, or an endpoint's alone). */
export function judge(exchange: Exchange, id: CaseIdentity, context: JudgeContext): Judgement {
  const { registry, ctxFor, folds, schemas, severityOf, evidence = {} } = context;
  const c = id.case;
  const cite = builtinCitation(c, severityOf);
  // Each built-in expectation is charged to the rule it judges: the schema to its resource's rule, the status (and
  // what else the case states) to the case's other rules (SCHEMA_RULES).
  // A case that cites nothing (a user's own) states its own expectations: all of them gate the run, as written.
  const catalogued = c.requirements.length > 0 ? severityOf : undefined;
  const schemaCite = schemaCitation(c.expect?.schema, catalogued, cite.requirements) ?? cite;
  const ruleCite = withoutRules(cite, schemaCite === cite ? [] : schemaCite.requirements);
  const results: CheckResult[] = [];
  let firstBlocked: Root | undefined;
  // Built only for a result that shows the response (a failure, or a pass with --report-passes).
  let excerpt: ResponseExcerpt | undefined;
  const excerptOf = (): ResponseExcerpt => (excerpt ??= responseExcerpt(exchange));
  const identity = { suite: id.suite, case: c.id, caseTitle: c.title, source: id.source };
  const unproven = refusalUnproven(exchange.response?.status, evidence);
  const push = (check: string, requirements: readonly string[], severity: Severity, outcome: Outcome, summary: string, message?: (f: Finding[]) => string): CheckResult => {
    let status: ResultStatus;
    let text: string;
    if (outcome.blocked) { status = 'blocked'; text = blockedMessage(outcome.blocked); firstBlocked ??= outcome.blocked; }
    else if (outcome.error !== undefined) { status = 'error'; text = `${check} could not be evaluated: ${outcome.error}`; }
    else if (outcome.skip !== undefined) { status = 'skip'; text = outcome.skip; }
    else if (outcome.notExercised !== undefined) { status = 'not-exercised'; text = `${summary}: not exercised: ${outcome.notExercised}`; }
    else if (unproven && !outcome.findings?.length) { status = 'not-exercised'; text = `${summary}: not exercised: ${unproven}`; }
    else if (outcome.findings && outcome.findings.length > 0) {
      status = severity === 'must' ? 'fail' : 'warn';
      const more = outcome.findings.length > 1 ? ` (+${outcome.findings.length - 1} more)` : '';
      text = message ? message(outcome.findings) + more : `${summary}: ${outcome.findings[0]!.message}${more}`;
    } else { status = 'pass'; text = summary; }
    const durationMs = Math.round(exchange.timing.durationMs);
    // Keys in this order: report.json is these objects as they are.
    const result: CheckResult = outcome.blocked
      ? { ...identity, check, requirements: [...requirements], severity, status: 'blocked', message: text, durationMs, blockedBy: outcome.blocked.by }
      : { ...identity, check, requirements: [...requirements], severity, status: status as Exclude<ResultStatus, 'blocked'>, message: text, durationMs };
    if (status === 'fail' || status === 'warn' || status === 'error') {
      if (outcome.findings?.length) result.findings = outcome.findings;
      result.request = exchange.request;
      result.response = excerptOf();
      result.reproduce = id.reproduce;
    } else if (status === 'pass' && evidence.keepPassEvidence) {
      result.request = exchange.request;
      result.response = excerptOf();
    }
    results.push(result);
    return result;
  };
  /** A pass over an empty set of the items a check is about is no pass (see CheckBase.over). */
  const vacuous = (over: string | undefined, ex: Exchange, outcome: Outcome): Outcome =>
    over !== undefined && outcome.findings?.length === 0 && resolveWildcard(ex.response?.json, over).length === 0
      ? { notExercised: `the answer has nothing at ${over} to judge` }
      : outcome;
  const guard = (fn: () => CheckVerdict): Outcome => {
    try {
      const verdict = fn();
      return isNotExercised(verdict) ? { notExercised: verdict.notExercised } : { findings: verdict };
    } catch (e) {
      return { error: describeError(e) };
    }
  };
  // The first failed gate: everything judged after it is blocked by it.
  let root: Root | undefined;
  const gate = (r: CheckResult): void => {
    if (!root && isFailure(r.status)) root = rootOf(r);
  };

  if (exchange.error?.kind === 'aborted') {
    // The run was interrupted while this request was in flight: nothing is known about the target.
    return { results: [skippedCase(id, `interrupted before the response was complete: ${exchange.error.message}`)] };
  }

  if (evidence.poll) {
    results.push(evidence.poll);
    gate(evidence.poll);
  }
  if (exchange.error && !exchange.response) {
    gate(push('transport', cite.requirements, cite.severity, root ? { blocked: root } : { findings: [{ pointer: '', message: exchange.error.message, expected: 'a response', actual: exchange.error.kind }] }, 'the target answers'));
  }
  const expect = c.expect ?? {};
  if (expect.status !== undefined && exchange.response) {
    gate(push('status', ruleCite.requirements, ruleCite.severity, root ? { blocked: root } : guard(() => checkStatus(exchange, expect.status!)), `status ${exchange.response.status} as expected`, (f) => statusMessage(f[0]!, exchange)));
    if (expect.status === '4xx' && !root) judgeRefusalClass(exchange.response.status, push);
  }
  if (exchange.error && exchange.response) {
    // A stalled stream or a body cut short: the response is incomplete, whatever the other checks would say.
    gate(push('transport', cite.requirements, cite.severity, root ? { blocked: root } : { findings: [{ pointer: '', message: exchange.error.message, expected: 'a complete response', actual: exchange.error.kind }] }, 'the response is complete'));
  }

  // Parts of the body the schema rejected: a check failing only inside them says nothing new.
  let schemaRoot: { root: Root; pointers: string[] } | undefined;
  if (expect.schema) {
    // A case without a status expectation judges its answer whatever it is (a cancel, whose method is not shown): a
    // refusal's error body is no resource, so the schema judges only a success.
    const refusedWithoutExpectation = expect.status === undefined && statusClass(exchange.response?.status) !== '2xx' && exchange.response !== undefined;
    const r = push('schema', schemaCite.requirements, schemaCite.severity, root ? { blocked: root } : refusedWithoutExpectation ? { skip: `the answer was ${exchange.response!.status}: the schema judges a success` } : guard(() => checkSchema(exchange, expect.schema!, schemas)), `body matches ${expect.schema}`);
    if (r.status === 'fail' || r.status === 'warn') {
      schemaRoot = { root: rootOf(r), pointers: (r.findings ?? []).map((f) => f.pointer) };
    }
  }
  for (const [name, h] of Object.entries(expect.headers ?? {})) {
    const headerCite = headerCitation(name, catalogued) ?? cite;
    push(`header:${name.toLowerCase()}`, headerCite.requirements, headerCite.severity, root ? { blocked: root } : guard(() => checkHeader(exchange, name, h)), `header ${name}`);
  }

  const answerClass = statusClass(exchange.response?.status);
  const failedChecks = new Map<string, Root>();
  for (const [position, { use, check }] of caseChecks(c, registry, id.assertions).entries()) {
    if (!check) { push(use.name, cite.requirements, 'must', { error: `no check named "${use.name}"` }, use.name); continue; }
    const run = (o: Outcome): void => {
      const r = push(check.name, check.requirements, check.severity, o, check.summary);
      if (isFailure(r.status)) failedChecks.set(check.name, rootOf(r));
    };
    if (root) { run({ blocked: root }); continue; }
    const prerequisite = (check.after ?? []).map((n) => failedChecks.get(n)).find((r) => r !== undefined);
    if (prerequisite) { run({ blocked: prerequisite }); continue; }
    const earlier = earlierCaseRoot(use, evidence);
    if (earlier) { run({ blocked: earlier }); continue; }
    // Behind a passed status check the answer is of the class the case expects, which is what its checks were
    // written for; a declared class, or a case without a status expectation, needs the guard.
    const needs = check.appliesTo ?? (expect.status === undefined ? classNeeded(check) : 'any');
    if (needs !== 'any' && answerClass !== needs) {
      run({ skip: `judges ${needs} answers; this answer was ${exchange.response?.status ?? 'none'}` });
      continue;
    }
    const ctx = ctxFor(use);
    let skip: string | undefined;
    try {
      skip = check.skipWhen?.(exchange, ctx);
    } catch (e) {
      run({ error: describeError(e) });
      continue;
    }
    // A body the schema check found not to be JSON at all: a check that steps aside could not read it either.
    // It is blocked by that failure (one root cause), not skipped as if its rule did not apply.
    if (skip) { run(schemaRoot && exchange.response?.json === undefined && !exchange.stream ? { blocked: schemaRoot.root } : { skip }); continue; }
    let outcome: Outcome;
    if (check.kind === 'response') {
      outcome = vacuous(check.over, exchange, guard(() => check.run(exchange, ctx)));
    } else {
      const fold = folds.find((f) => f.position === position);
      // An answer that is no event stream was never read as one: a stream check would judge zero events (a pass that
      // exercised nothing, or a [DONE] "missing" from bytes that hold one). The content-type failure is the cause.
      if (fold && check.name !== 'sse_content_type' && !isEventStreamType(exchange.response?.headers['content-type'])) {
        const sse = failedChecks.get('sse_content_type');
        run(sse ? { blocked: sse } : { skip: `the answer is not an event stream (content-type ${exchange.response?.headers['content-type'] ?? 'none'}): nothing was read as events` });
        continue;
      }
      if (!fold) {
        const sse = failedChecks.get('sse_content_type');
        run(sse ? { blocked: sse } : { skip: 'the response was not read as a stream (request.stream is not set, or the target answered without a stream)' });
        continue;
      }
      if (fold.error) { run({ error: fold.error }); continue; }
      const end = guard(() => check.end(fold.state, exchange.stream?.end ?? 'eof', exchange, ctx));
      // Findings made while events arrived stand even when the end says the rule was not exercised.
      outcome = end.error !== undefined ? end : fold.findings.length > 0 || end.notExercised === undefined ? { findings: [...fold.findings, ...(end.findings ?? [])] } : end;
    }
    if (schemaRoot && outcome.findings?.length && outcome.findings.every((f) => inside(f.pointer, schemaRoot!.pointers))) outcome = { blocked: schemaRoot.root };
    run(outcome);
  }
  // Only when nothing else of the case failed: a schema or check failure already explains a missing value (one
  // root cause, one failure), and the cases using the capture are blocked by it.
  const explained = root !== undefined || results.some((r) => isFailure(r.status));
  if (!explained) judgeCaptures(c, exchange, answerClass, (name, outcome) => push(`capture:${name}`, cite.requirements, cite.severity, outcome, `capture ${name}`));
  const failed = results.find((r) => isFailure(r.status));
  const cause = failed ? rootOf(failed) : firstBlocked;
  return { results, ...(root ? { root } : {}), ...(cause ? { cause } : {}) };
}

/**
 * A capture feeds later cases. On an answer of the class the case accepted as success (2xx, nothing else failed), a
 * pointer that finds nothing is the one failure that explains why the cases using it cannot run — a typo in the
 * suite, or a field the target left out — instead of their being skipped without a word. A refusal (a case
 * that allows one) had nothing to capture: the cases using it are skipped, as the suites intend. Only a missing
 * capture is recorded: one that holds a value is not a rule of the spec that passed.
 */
function judgeCaptures(c: CaseSpec, exchange: Exchange, answerClass: StatusClassNeed | 'other', push: (name: string, outcome: Outcome) => void): void {
  if (answerClass !== '2xx') return;
  for (const [name, pointer] of Object.entries(c.capture ?? {})) {
    const value = resolvePointer(exchange.response?.json, pointer);
    if (value !== undefined && value !== null) continue;
    const what = exchange.response?.json === undefined ? 'the answer has no JSON body' : value === null ? `${pointer} is null` : `nothing at ${pointer}`;
    push(name, { findings: [{ pointer, message: `${what}: the cases that use {{${name}}} cannot run`, expected: `a value to capture as ${name}`, actual: value === null ? null : 'absent' }] });
  }
}

/**
 * Any refusal satisfies a must-reject case (checkStatus); which class it has is the convention ERR-4XX-NOT-5XX, a
 * should: a 4xx passes it, a 5xx refusal warns.
 */
function judgeRefusalClass(status: number, push: (check: string, requirements: readonly string[], severity: Severity, outcome: Outcome, summary: string) => unknown): void {
  if (status >= 400 && status < 500) { push('status-class', ['ERR-4XX-NOT-5XX'], 'should', { findings: [] }, `refused with a client error (${status})`); return; }
  if (status >= 500) push('status-class', ['ERR-4XX-NOT-5XX'], 'should', { findings: [{ pointer: '', message: `refused with a server error (${status}): a caller's mistake is a 4xx by HTTP's convention`, expected: '4xx', actual: status }] }, 'a refusal is a client error');
}

/** The status class a check judges when its case does not say: `4xx` for the error conventions, else `2xx`. */
function classNeeded(check: Check): StatusClassNeed {
  return check.requirements.length > 0 && check.requirements.every((r) => r.startsWith('ERR-')) ? '4xx' : '2xx';
}

/** An earlier case a check reads through `with:` whose answer is unusable blocks that check. */
function earlierCaseRoot(use: CheckUse, evidence: CaseEvidence): Root | undefined {
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
function inside(pointer: string, rejected: readonly string[]): boolean {
  return rejected.some((p) => p === '' || p === '/' || pointer === p || pointer.startsWith(p + '/'));
}

/**
 * "expected 200, got 422", and for a rule that must be refused, why a 2xx or 5xx is wrong — followed by what the
 * server said, when its body carries a message.
 */
function statusMessage(f: Finding, exchange: Exchange): string {
  const said = serverMessage(exchange);
  const head = `expected ${String(f.expected)}, got ${String(f.actual)}`;
  const why = f.message.startsWith('expected ') ? '' : `: ${f.message}`;
  return `${head}${why}${said ? ` (the server said: ${JSON.stringify(said)})` : ''}`;
}

