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

import type { Finding } from '../checks/types.ts';
import { checkHeader, checkSchema, checkStatus } from '../checks/expectations.ts';
import type { Exchange } from '../transport/types.ts';
import { resolvePointer } from '../util/pointer.ts';
import { statusClass } from '../util/status.ts';
import { judgeChecks } from './check-stage.ts';
import { headerCitation } from './citation.ts';
import { serverMessage } from './excerpt.ts';
import { guard, judging, unlessBlocked, type Judging, type JudgeContext, type SchemaRoot } from './judging.ts';
import type { Citation, Recorder } from './recorder.ts';
import { isFailure, rootOf, skippedCase, type CaseIdentity, type CheckResult, type Root } from './results.ts';

export type { CaseEvidence, JudgeContext } from './judging.ts';

/** The judge's verdict on one exchange: its results, final when returned, and their causes as data. */
export interface Judgement {
  results: CheckResult[];
  /** The failed gate (poll, transport, status) that makes this answer unusable to what depends on it. */
  root?: Root;
  /** The first failure of any result, else the root the first blocked result is blocked by. */
  cause?: Root;
}

/** Judge one exchange against its expectations (a case's, or an endpoint's alone), gate by gate. */
export function judge(exchange: Exchange, id: CaseIdentity, context: JudgeContext): Judgement {
  if (exchange.error?.kind === 'aborted') {
    // The run was interrupted while this request was in flight: nothing is known about the target.
    return { results: [skippedCase(id, `interrupted before the response was complete: ${exchange.error.message}`)] };
  }
  const j = judging(exchange, id, context);
  judgeGates(j);
  const schemaRoot = judgeSchema(j);
  judgeHeaders(j);
  judgeChecks(j, schemaRoot);
  judgeCapturesUnlessExplained(j);
  const { results, root, firstBlocked } = j.rec;
  const failed = results.find((r) => isFailure(r.status));
  const cause = failed ? rootOf(failed) : firstBlocked;
  return { results, ...(root ? { root } : {}), ...(cause ? { cause } : {}) };
}

/** The gates, in order: the poll, an answer at all, the status (and a refusal's class), a complete answer. */
function judgeGates(j: Judging): void {
  const { exchange, rec, cite, ruleCite, expect, evidence } = j;
  if (evidence.poll) {
    rec.add(evidence.poll);
    rec.gate(evidence.poll);
  }
  if (exchange.error && !exchange.response) {
    const error = exchange.error;
    rec.gate(rec.record({ check: 'transport', ...cite }, unlessBlocked(rec, () => ({ findings: [{ pointer: '', message: error.message, expected: 'a response', actual: error.kind }] })), { summary: 'the target answers' }));
  }
  const response = exchange.response;
  if (expect.status !== undefined && response) {
    const status = expect.status;
    rec.gate(rec.record({ check: 'status', ...ruleCite }, unlessBlocked(rec, () => guard(() => checkStatus(exchange, status))), { summary: `status ${response.status} as expected`, message: (f) => statusMessage(f[0]!, exchange) }));
    if (status === '4xx' && !rec.root) judgeRefusalClass(response.status, rec);
  }
  if (exchange.error && response) {
    // A stalled stream or a body cut short: the response is incomplete, whatever the other checks would say.
    const error = exchange.error;
    rec.gate(rec.record({ check: 'transport', ...cite }, unlessBlocked(rec, () => ({ findings: [{ pointer: '', message: error.message, expected: 'a complete response', actual: error.kind }] })), { summary: 'the response is complete' }));
  }
}

function judgeSchema(j: Judging): SchemaRoot | undefined {
  const { exchange, rec, expect, schemaCite } = j;
  const schema = expect.schema;
  if (!schema) return undefined;
  // A case without a status expectation judges its answer whatever it is (a cancel, whose method is not shown): a
  // refusal's error body is no resource, so the schema judges only a success.
  const refusedWithoutExpectation = expect.status === undefined && statusClass(exchange.response?.status) !== '2xx' && exchange.response !== undefined;
  const outcome = unlessBlocked(rec, () => (refusedWithoutExpectation ? { skip: `the answer was ${exchange.response!.status}: the schema judges a success` } : guard(() => checkSchema(exchange, schema, j.context.schemas))));
  const r = rec.record({ check: 'schema', ...schemaCite }, outcome, { summary: `body matches ${schema}` });
  return r.status === 'fail' || r.status === 'warn' ? { root: rootOf(r), pointers: (r.findings ?? []).map((f) => f.pointer) } : undefined;
}

function judgeHeaders(j: Judging): void {
  const { exchange, rec, expect, cite, catalogued } = j;
  for (const [name, h] of Object.entries(expect.headers ?? {})) {
    const headerCite = headerCitation(name, catalogued) ?? cite;
    rec.record({ check: `header:${name.toLowerCase()}`, ...headerCite }, unlessBlocked(rec, () => guard(() => checkHeader(exchange, name, h))), { summary: `header ${name}` });
  }
}

/**
 * Only when nothing else of the case failed: a schema or check failure already explains a missing value (one root
 * cause, one failure), and the cases using the capture are blocked by it.
 */
function judgeCapturesUnlessExplained(j: Judging): void {
  const { rec } = j;
  const explained = rec.root !== undefined || rec.results.some((r) => isFailure(r.status));
  if (!explained) judgeCaptures(j);
}

/**
 * A capture feeds later cases. On an answer of the class the case accepted as success (2xx, nothing else failed), a
 * pointer that finds nothing is the one failure that explains why the cases using it cannot run — a typo in the
 * suite, or a field the target left out — instead of their being skipped without a word. A refusal (a case
 * that allows one) had nothing to capture: the cases using it are skipped, as the suites intend. Only a missing
 * capture is recorded: one that holds a value is not a rule of the spec that passed.
 */
function judgeCaptures(j: Judging): void {
  const { exchange, rec, cite } = j;
  const c = j.id.case;
  if (statusClass(exchange.response?.status) !== '2xx') return;
  for (const [name, pointer] of Object.entries(c.capture ?? {})) {
    const value = resolvePointer(exchange.response?.json, pointer);
    if (value !== undefined && value !== null) continue;
    const what = exchange.response?.json === undefined ? 'the answer has no JSON body' : value === null ? `${pointer} is null` : `nothing at ${pointer}`;
    rec.record({ check: `capture:${name}`, ...cite }, { findings: [{ pointer, message: `${what}: the cases that use {{${name}}} cannot run`, expected: `a value to capture as ${name}`, actual: value === null ? null : 'absent' }] }, { summary: `capture ${name}` });
  }
}

/**
 * Any refusal satisfies a must-reject case (checkStatus); which class it has is the convention ERR-4XX-NOT-5XX, a
 * should: a 4xx passes it, a 5xx refusal warns.
 */
const REFUSAL_CLASS: Citation = { requirements: ['ERR-4XX-NOT-5XX'], severity: 'should' };

function judgeRefusalClass(status: number, rec: Recorder): void {
  if (status >= 400 && status < 500) { rec.record({ check: 'status-class', ...REFUSAL_CLASS }, { findings: [] }, { summary: `refused with a client error (${status})` }); return; }
  if (status >= 500) rec.record({ check: 'status-class', ...REFUSAL_CLASS }, { findings: [{ pointer: '', message: `refused with a server error (${status}): a caller's mistake is a 4xx by HTTP's convention`, expected: '4xx', actual: status }] }, { summary: 'a refusal is a client error' });
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

