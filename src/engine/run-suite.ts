// One YAML suite, as a table of contents: begin → (area gate) → for each selected case: admit → run → settle →
// record → remember → (key rule) → clean up → end.

import { render } from '../suite/template.ts';
import type { CaseSpec, SuitePlan } from '../suite/types.ts';
import { blockedCase, skippedCase, type CaseIdentity, type CheckResult } from '../judge/results.ts';
import { unjudged } from './problems.ts';
import { emptyCounts, type SuiteOutcome } from './types.ts';
import type { WatchedOptions } from './options.ts';
import { selectCases } from './select.ts';
import { dependencyOf } from './admission.ts';
import { endpointBaseline, hangingEndpoint, refusedKeyStopsSuite, type Placed } from './causality.ts';
import { cleanUp } from './cleanup.ts';
import { runCase } from './case/run-case.ts';
import { SuiteState } from './suite-state.ts';
import { Pipeline } from './pipeline.ts';

export async function runSuite(plan: SuitePlan, opts: WatchedOptions, sink: CheckResult[]): Promise<SuiteOutcome> {
  const { spec } = plan;
  const started = Date.now();
  const selected = selectCases(spec.cases, opts.filter, spec.tags);
  opts.listener?.({ type: 'suite-start', suite: spec.name, area: spec.area, cases: selected.size });
  const state = new SuiteState(plan, opts);
  await opts.transport.beginSuite?.(spec.name);
  if (!opts.profile.areas.has(spec.area)) {
    // Begun and ended like any suite, though it sends nothing: a recording then holds it (an empty cassette), and
    // its replay reports the same skipped cases as the live run did.
    spec.cases.forEach((c, i) => { if (selected.has(c.id)) state.record(c.id, [skippedCase(identity(plan, opts, { spec: c, index: i }), `area "${spec.area}" is not claimed by the target`)]); });
    await opts.transport.endSuite?.(spec.name, { seed: opts.seed, ...opts.suiteMeta, complete: !opts.signal?.aborted });
    sink.push(...state.results);
    return outcome(plan, state.results, started);
  }
  const pipeline = new Pipeline({ plan, state, opts, selected });
  // Whether every selected case ran: a recorder writes only a suite that completed (never a partial one over a good cassette).
  let complete = false;
  try {
    for (const [name, value] of Object.entries(spec.variables ?? {})) state.scope[name] = render(value, state.scope);
    for (const [index, c] of spec.cases.entries()) {
      if (!selected.has(c.id)) continue;
      if (opts.signal?.aborted) break;
      if (!(await runAdmitted(plan, { state, pipeline, opts }, { spec: c, index }))) break;
    }
    complete = !state.stoppedAt && !opts.signal?.aborted;
  } finally {
    await pipeline.drain();
    await cleanUp(spec.name, state.ledger, opts);
    await opts.transport.endSuite?.(spec.name, { seed: opts.seed, ...opts.suiteMeta, complete });
  }
  // Refusals never followed by an acceptance, nor by a stop (a suite that ended first): judged as they are.
  state.release();
  const { stoppedAt } = state;
  const final = stoppedAt ? unjudged(state.results, stoppedAt.problem, stoppedAt.caseId) : state.results;
  sink.push(...final);
  return { ...outcome(plan, final, started), ...(stoppedAt ? { stopped: stoppedAt.problem.message } : {}) };
}

interface Running { state: SuiteState; pipeline: Pipeline; opts: WatchedOptions }

/** One case, if it is admitted; false when the suite stops with it (a problem of the run). */
async function runAdmitted(plan: SuitePlan, run: Running, at: Placed): Promise<boolean> {
  const { state, pipeline, opts } = run;
  const c = at.spec;
  const id = identity(plan, opts, at);
  if (!admit(run, id, at)) return true;
  const { flow, answer } = pipeline.take(at.index);
  const ran = await runCase({ id, opts, suite: state }, flow);
  const problem = answer.stopped ? answer.stopped.by : opts.watch?.stoppedBy(plan.spec.name);
  if (problem) {
    state.record(c.id, unjudged(ran.results, problem, undefined));
    state.stop(problem, c.id);
    return false;
  }
  const settled = state.settle(at, ran);
  // Before the case is recorded: a refusal holds its case-end back until the key's fate is known.
  const refused = refusedKeyStopsSuite(state.keys, { suite: plan.spec.name, spec: c }, ran.exchange?.response?.status);
  state.record(c.id, settled);
  state.remember(at, ran);
  if (!refused) return true;
  opts.watch?.report(refused);
  state.stop(refused, state.keys.refusals[0]!);
  return false;
}

/** May the case send its request? Blocked by its endpoint's failed (or hanging) baseline or a capture's root, or skipped. */
function admit(run: Running, id: CaseIdentity, at: Placed): boolean {
  const { state, opts } = run;
  const c = at.spec;
  const baseline = endpointBaseline(state, at) ?? hangingEndpoint(state, at);
  if (baseline) { state.record(c.id, [blockedCase(id, baseline)]); return false; }
  const dependency = dependencyOf(c, opts.profile, state);
  if (dependency?.blocked) { state.blocked(c.id, dependency.blocked); state.record(c.id, [blockedCase(id, dependency.blocked)]); return false; }
  if (dependency?.skip) { state.record(c.id, [skippedCase(id, dependency.skip)]); return false; }
  return true;
}

function identity(plan: SuitePlan, opts: WatchedOptions, at: { spec: CaseSpec; index: number }): CaseIdentity {
  const { spec } = plan;
  const p = plan.casePositions[at.index];
  const asserts = plan.assertPositions?.[at.index]?.map((a) => `${a.file}:${a.line}:${a.col}`);
  return { suite: spec.name, case: at.spec, source: p ? `${p.file}:${p.line}:${p.col}` : plan.file, reproduce: opts.reproduce(spec.name, at.spec.id), ...(asserts ? { assertSources: asserts } : {}) };
}

export function outcome(plan: SuitePlan, results: CheckResult[], started: number): SuiteOutcome {
  const counts = emptyCounts();
  for (const r of results) counts[r.status]++;
  return { suite: plan.spec.name, area: plan.spec.area, file: plan.file, durationMs: Date.now() - started, counts };
}
