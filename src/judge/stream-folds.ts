// Stream checks fold over events as they arrive: the transport feeds each event to the case's folds.

import type { Check, CheckContext, Finding, StreamCheck } from '../checks/types.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import type { CaseSpec, CheckUse } from '../suite/types.ts';
import type { SseEvent } from '../transport/types.ts';
import { describeError } from '../util/describe-error.ts';

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

/** The checks a case runs, in order: its registered checks, then its inline assertions. */
export function caseChecks(c: CaseSpec, registry: CheckRegistry, assertions: readonly Check[] = []): Array<{ use: CheckUse; check: Check | undefined }> {
  return [...normaliseUses(c).map((use) => ({ use, check: registry.get(use.name) })), ...assertions.map((check) => ({ use: { name: check.name }, check }))];
}

/** Start the stream folds of a case; the transport then feeds them each event. */
/** What the folds of a case are made from: its checks (registered, and its inline assertions) and their contexts. */
export interface FoldSource {
  case: CaseSpec;
  registry: CheckRegistry;
  ctxFor: (use: CheckUse) => CheckContext;
  assertions?: readonly Check[];
}

export function startStreamFolds(source: FoldSource): StreamFold[] {
  const { case: c, registry, ctxFor, assertions = [] } = source;
  const folds: StreamFold[] = [];
  for (const [position, { use, check }] of caseChecks(c, registry, assertions).entries()) {
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

export function feedStreamFolds(folds: StreamFold[], arrived: { event: SseEvent; index: number }, ctxFor: (use: CheckUse) => CheckContext): void {
  const { event, index } = arrived;
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
