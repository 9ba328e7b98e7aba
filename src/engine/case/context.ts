// What one case runs with: its identity, the run's options, and the view of its suite's state it reads and
// records into. The case folder never sees the suite runner or its state object, only this view.

import type { CheckContext, PlannedRequestView } from '../../checks/types.ts';
import type { CheckUse, PollSpec, RequestSpec } from '../../suite/types.ts';
import type { Exchange, OutgoingRequest } from '../../transport/types.ts';
import type { CaseIdentity, CheckResult, Root } from '../../judge/results.ts';
import type { ResourceLedger } from '../ledger.ts';
import type { WatchedOptions } from '../options.ts';
import type { RunProblem } from '../types.ts';

/** What a case reads of its suite, and where it records what it saw. */
export interface SuiteView {
  readonly scope: Record<string, unknown>;
  /** Earlier exchanges that later checks read by case id (`with:`). */
  readonly history: Map<string, Exchange>;
  /** The ids of the cases whose exchanges some check reads. */
  readonly remembered: ReadonlySet<string>;
  readonly ledger: ResourceLedger;
  /** Endpoints that answered a request of this suite with success: a refusal proves a rejection only on those. */
  readonly served: Set<string>;
  rootOfCase(caseId: string): Root | undefined;
}

export interface CaseContext {
  id: CaseIdentity;
  opts: WatchedOptions;
  suite: SuiteView;
}

export type BuiltRequest = { outgoing: OutgoingRequest; view: PlannedRequestView };

/** A case ready to send: its request rendered and built, its assertions rendered, its poll rendered. */
export interface PreparedCase {
  /** The case's identity with its inline assertions rendered. */
  id: CaseIdentity;
  request: RequestSpec;
  built: BuiltRequest;
  ctxFor: (use: CheckUse) => CheckContext;
  poll?: PollSpec;
}

/** A case's request sent while the case before it was judged (the suite's pipeline). */
export interface Ahead {
  index: number;
  built: BuiltRequest;
  exchange: Promise<Exchange>;
  /** Filled when its answer comes (the pipeline's answerOnce). */
  answer: Answer;
}

/** Whether a case's own answers stopped the suite; set once, when the case is answered. */
export interface Answer {
  stopped?: { by: RunProblem | undefined };
}

/** How a case takes part in the suite's pipeline: a request already sent for it, and whom to tell when it is answered. */
export interface Flow {
  ahead?: Ahead;
  /** Called once the case's last answer is in; true when the next case's request was sent meanwhile. */
  answered?: (status: number | undefined) => boolean;
}

export interface CaseRun {
  results: CheckResult[];
  /** The last exchange (absent when the request could not be built). */
  exchange?: Exchange;
  /** The failed gate (poll, transport, status) that makes this case's answer unusable to later cases. */
  root?: Root;
  /** The root, else the first failure of any result, else what the first blocked result is blocked by. */
  cause?: Root;
}

