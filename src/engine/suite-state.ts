// The state of one YAML suite while it runs, in one object: what its templates read (scope), what its checks read
// (history), what it created (ledger), and the causes that travel between its cases (roots, failed answers,
// served endpoints, refused keys). Cases see it through SuiteView; the causality rules through CausalState.

import type { CheckRegistry } from '../checks/registry.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { SuitePlan } from '../suite/types.ts';
import type { Exchange } from '../transport/types.ts';
import type { CheckResult, Root } from '../judge/results.ts';
import type { CaseRun, SuiteView } from './case/context.ts';
import { bindCaptures, failedAnswer, firstSuccessByEndpoint, reroot, sameAnswerAsFailedBaseline, type CausalState, type FailedAnswer, type KeyRefusals, type Placed } from './causality.ts';
import { ResourceLedger } from './ledger.ts';
import { builtinScope } from './scope.ts';
import { unjudged } from './problems.ts';
import { casesNamedByChecks } from './select.ts';
import type { WatchedOptions } from './options.ts';
import type { RunListener, RunProblem } from './types.ts';

export class SuiteState implements SuiteView, CausalState {
  readonly scope: Record<string, unknown>;
  readonly history = new Map<string, Exchange>();
  readonly remembered: ReadonlySet<string>;
  readonly ledger = new ResourceLedger();
  readonly served = new Set<string>();
  readonly registry: CheckRegistry;
  readonly profile: TargetProfile;
  readonly firstSuccess: ReadonlyMap<string, { index: number; id: string }>;
  readonly caseRoots = new Map<string, Root>();
  readonly failedStatus = new Map<string, FailedAnswer>();
  /** The root behind each capture that did not bind: the cases using it are blocked by that root. */
  readonly captureRoots = new Map<string, Root>();
  readonly keys: KeyRefusals = { accepted: false, refusals: [] };
  /** The results recorded so far, in case order (each emitted as its case ends). */
  readonly results: CheckResult[] = [];
  /** The run problem that stopped the suite, and the case from which nothing is judged. */
  stoppedAt: { problem: RunProblem; caseId: string } | undefined;
  readonly #suite: string;
  readonly #emit: RunListener;
  readonly #held: Array<{ caseId: string; results: CheckResult[] }> = [];

  constructor(plan: SuitePlan, opts: WatchedOptions) {
    this.#suite = plan.spec.name;
    this.#emit = opts.listener ?? (() => {});
    this.scope = builtinScope(opts.profile, opts.seed);
    this.remembered = casesNamedByChecks(plan.spec.cases);
    this.registry = opts.registry;
    this.profile = opts.profile;
    this.firstSuccess = firstSuccessByEndpoint(plan.spec.cases);
  }

  rootOfCase(caseId: string): Root | undefined {
    return this.caseRoots.get(caseId);
  }

  /**
   * A case's results: kept, and emitted once they are final. While the run's key has been refused and never
   * accepted, the suite may yet stop from its first refusal (those results are then not judged): case-ends wait
   * until the key is accepted, the suite stops, or it ends.
   */
  record(caseId: string, results: CheckResult[]): void {
    this.results.push(...results);
    this.#held.push({ caseId, results });
    if (this.keys.accepted || this.keys.refusals.length === 0) this.release();
  }

  /** Emit what was held back, as it stands. */
  release(): void {
    for (const { caseId, results } of this.#held.splice(0)) this.#emit({ type: 'case-end', suite: this.#suite, case: caseId, results });
  }

  /** A problem of the run stops the suite: from `caseId` on, nothing is judged; what was held is emitted so. */
  stop(problem: RunProblem, caseId: string): void {
    this.stoppedAt = { problem, caseId };
    let reached = false;
    for (const h of this.#held) {
      reached ||= h.caseId === caseId;
      if (reached) h.results = unjudged(h.results, problem, undefined);
    }
    this.release();
  }

  /** A case that never ran because an earlier one is its root: later cases using its captures see the same root. */
  blocked(caseId: string, root: Root): void {
    this.caseRoots.set(caseId, root);
  }

  /**
   * A case's run, settled by the causality rules: its cause shared with its endpoint's baseline when it failed the
   * same way; its root and failed answer remembered; its captures bound. Returns the results to record.
   */
  settle(at: Placed, ran: CaseRun): CheckResult[] {
    const sameCause = sameAnswerAsFailedBaseline(this, at, ran);
    if (sameCause) {
      ran.results = reroot(ran.results, ran.root!, sameCause);
      ran.root = sameCause;
    } else if (ran.root?.by.case === at.spec.id && (ran.root.by.check === 'status' || ran.root.by.check === 'transport')) {
      const answered = failedAnswer(ran);
      if (answered !== undefined) this.failedStatus.set(at.spec.id, answered);
    }
    return ran.results;
  }

  /** After the case's results are recorded: its root for later cases, and its captures. */
  remember(at: Placed, ran: CaseRun): void {
    if (ran.root) this.caseRoots.set(at.spec.id, ran.root);
    bindCaptures(this, at.spec, ran);
  }
}
