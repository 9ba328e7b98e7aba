// Judging traffic no suite designed: a client's own exchanges, through the proxy or in a recording. Each exchange is
// held to its endpoint's expectations (judge/endpoints.ts) by the same judge a run uses, with the same statuses,
// causes and severities; limits the spec states are judged on what the client happened to send (limits.ts); what
// spans exchanges (a job's states over time, a deleted file still listed) is judged by the ledger (ledger.ts).

import type { Catalogue } from '../catalogue/types.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import type { CheckContext } from '../checks/types.ts';
import { endpointExpectations, endpointFor, type EndpointExpectation } from '../judge/endpoints.ts';
import { judge } from '../judge/judge.ts';
import type { CheckResult } from '../judge/results.ts';
import { feedStreamFolds, startStreamFolds, type StreamFold } from '../judge/stream-folds.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { CheckUse } from '../suite/types.ts';
import { requestView } from '../transport/capture.ts';
import type { Exchange, ExchangeRequest, SseEvent } from '../transport/types.ts';
import { isSuccess } from '../util/status.ts';
import { TrafficLedger } from './ledger.ts';
import { limitResults } from './limits.ts';
import { fieldsOutsideSpec } from '../judge/request-fields.ts';

export interface TrafficJudgeOptions {
  registry: CheckRegistry;
  schemas: SchemaRegistry;
  catalogue: Catalogue;
  profile: TargetProfile;
}

/** An exchange being judged while its answer arrives: stream events are folded as they pass. */
export interface PendingJudgement {
  onEvent(event: SseEvent, index: number): void;
  /** The results of the whole exchange, once it ended. */
  finish(exchange: Exchange): CheckResult[];
}

/** The name of an exchange as a case: its method, path and when it started. */
export function exchangeName(request: Pick<ExchangeRequest, 'method' | 'url'>, at: ExchangeAt): string {
  const u = new URL(request.url);
  return `${request.method} ${u.pathname} ${at.label ?? `@ ${new Date(at.startedAt).toISOString()}`}`;
}

/** Where an exchange belongs: its group (a cassette's name), when it started, and a label when the time is unknown. */
export interface ExchangeAt {
  suite: string;
  startedAt: number;
  label?: string;
}

/**
 * The results of an answer to a request with fields the spec does not define: what the answer must then be is not
 * stated (an SDK's `encoding_format: base64` gets a string, not an array of floats), so a must it breaks is a
 * warning under a stricter reading, saying which fields made it so.
 */
function beyondSpec(results: CheckResult[], outside: readonly string[]): CheckResult[] {
  if (outside.length === 0) return results;
  const why = ` (the request used ${outside.join(', ')}, which the spec does not define: the answer to it is judged as a should)`;
  return results.map((r) => (r.status === 'fail' && r.severity === 'must' ? { ...r, status: 'warn', severity: 'should', message: r.message + why } : r));
}

export class TrafficJudge {
  readonly #opts: TrafficJudgeOptions;
  readonly #ledger = new TrafficLedger();
  /** Endpoints that have answered with success: only then does a 404 or 405 prove a rejection rule. */
  readonly #served = new Set<string>();

  constructor(opts: TrafficJudgeOptions) {
    this.#opts = opts;
  }

  /** Start judging an exchange (`suite`: the results' group, e.g. the cassette's name). */
  begin(request: ExchangeRequest, at: ExchangeAt): PendingJudgement {
    const endpoint = endpointFor(request.method, new URL(request.url).pathname);
    if (endpoint === undefined) return { onEvent: () => {}, finish: () => [] };
    return this.#pending(endpoint, request, at);
  }

  #pending(endpoint: EndpointExpectation, request: ExchangeRequest, at: ExchangeAt): PendingJudgement {
    const { registry, schemas, profile, catalogue } = this.#opts;
    const view = requestView(request.method, request.url, request.body);
    const name = exchangeName(request, at);
    const id = endpointExpectations(endpoint, view, { suite: at.suite, source: name, reproduce: '' });
    id.case.id = name;
    const ctxFor = (use: CheckUse): CheckContext => ({ request: view, profile, vars: {}, schemas, params: use.with ?? {}, history: new Map() });
    // As in a suite: an answer is judged as a stream when the request asked for one.
    const folds: StreamFold[] = view.stream ? startStreamFolds({ case: id.case, registry, ctxFor }) : [];
    const key = `${endpoint.method} ${endpoint.path}`;
    return {
      onEvent: (event, index) => feedStreamFolds(folds, { event, index }, ctxFor),
      finish: (exchange) => {
        const severityOf = (rid: string) => catalogue.byId.get(rid)?.severity;
        const evidence = { endpointServed: this.#served.has(key) };
        const { results } = judge(exchange, id, { registry, ctxFor, folds, schemas, severityOf, evidence });
        if (exchange.response && isSuccess(exchange.response.status)) this.#served.add(key);
        const base = { suite: at.suite, case: name, caseTitle: id.case.title, request: exchange.request };
        // What does not apply to this exchange (a stream rule on a plain answer) is left out: traffic has no plan to cover.
        const applied = beyondSpec(results.filter((r) => r.status !== 'skip'), fieldsOutsideSpec(key, view.json));
        return [...applied, ...limitResults(view, exchange, { ...base, severityOf }), ...this.#ledger.observe(exchange, view, base)];
      },
    };
  }
}
