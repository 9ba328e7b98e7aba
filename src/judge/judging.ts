// One exchange being judged: what it is held to (its expectations and their citations), what the judge reads
// besides (the registry, the check contexts, the stream folds, the engine's evidence), and the results so far.

import type { CheckContext, CheckVerdict } from '../checks/types.ts';
import { isNotExercised } from '../checks/types.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import type { CaseSpec, CheckUse } from '../suite/types.ts';
import type { Exchange } from '../transport/types.ts';
import { describeError } from '../util/describe-error.ts';
import { builtinCitation, schemaCitation, withoutRules, type SeverityOf } from './citation.ts';
import { Recorder, type Citation, type Outcome } from './recorder.ts';
import type { CaseIdentity, CheckResult, Root } from './results.ts';
import type { StreamFold } from './stream-folds.ts';

/**
 * A refusal proves a rejection rule only where the endpoint exists: a 404 or 405 from an endpoint that has answered
 * nothing of its suite with success is what a server without that endpoint says to every request ("bearer required"
 * passed on a mock without the endpoint). What would pass on it is not exercised then, never a pass.
 */
export function refusalUnproven(status: number | undefined, evidence: CaseEvidence): string | undefined {
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

/** One exchange being judged: what it is held to, at which citations, and the results so far. */
export interface Judging {
  exchange: Exchange;
  id: CaseIdentity;
  context: JudgeContext;
  evidence: CaseEvidence;
  expect: NonNullable<CaseSpec['expect']>;
  rec: Recorder;
  /** The case's citation; the status's (the case's rules but the schema's); the schema's; and the severity source for rules the catalogue knows. */
  cite: Citation;
  ruleCite: Citation;
  schemaCite: Citation;
  catalogued: SeverityOf | undefined;
}

export function judging(exchange: Exchange, id: CaseIdentity, context: JudgeContext): Judging {
  const { severityOf, evidence = {} } = context;
  const c = id.case;
  const cite = builtinCitation(c, severityOf);
  // Each built-in expectation is charged to the rule it judges: the schema to its resource's rule, the status (and
  // what else the case states) to the case's other rules (SCHEMA_RULES).
  // A case that cites nothing (a user's own) states its own expectations: all of them gate the run, as written.
  const catalogued = c.requirements.length > 0 ? severityOf : undefined;
  const schemaCite = schemaCitation(c.expect?.schema, catalogued, cite.requirements) ?? cite;
  const ruleCite = withoutRules(cite, schemaCite === cite ? [] : schemaCite.requirements);
  const rec = new Recorder(exchange, id, { keepPassEvidence: evidence.keepPassEvidence ?? false, unproven: refusalUnproven(exchange.response?.status, evidence) });
  return { exchange, id, context, evidence, expect: c.expect ?? {}, rec, cite, ruleCite, schemaCite, catalogued };
}

/** What an outcome is when a gate already failed: blocked by it; otherwise the outcome, judged only then. */
export function unlessBlocked(rec: Recorder, outcome: () => Outcome): Outcome {
  return rec.root ? { blocked: rec.root } : outcome();
}

export function guard(fn: () => CheckVerdict): Outcome {
  try {
    const verdict = fn();
    return isNotExercised(verdict) ? { notExercised: verdict.notExercised } : { findings: verdict };
  } catch (e) {
    return { error: describeError(e) };
  }
}

/** Parts of the body the schema rejected: a check failing only inside them says nothing new. */
export interface SchemaRoot { root: Root; pointers: string[] }
