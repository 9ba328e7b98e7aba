// Runs one property with fast-check and turns the outcome into one CheckResult. Boundary examples run first;
// a failure is shrunk, then the final (shrunk) counterexample is sent once more and only called a violation
// when it fails again (Schemathesis' lesson on false positives). Every result carries the seeds; a failure
// carries the minimal request and the one-line command that replays exactly that case.

import fc from 'fast-check';
import type { CheckResult } from '../engine/types.ts';
import { responseExcerpt } from '../judge/excerpt.ts';
import type { FuzzEnv, CaseOutcome } from './execute.ts';
import { runCase } from './execute.ts';
import { describeRequest } from './patch.ts';
import type { FuzzProperty } from './properties.ts';

export interface RunPropertyOptions {
  /** Random cases after the boundary examples. */
  runs: number;
  /** Time budget of the property (generation, shrinking and the re-check). */
  budgetMs: number;
  /** Replay: the counterexample path printed by a failing run (with the same --seed). */
  path?: string;
  /** The command line that reruns one case (the CLI's reproducer). */
  reproduce?: (suite: string, caseId: string) => string;
}

export interface PropertyOutcome {
  result: CheckResult;
  /** Shrunk counterexample value, when the property failed. */
  counterexample?: unknown;
  outcome?: CaseOutcome;
  details: { seed: number; numRuns: number; numShrinks: number; interrupted: boolean; path: string | null };
}

/** The property's own fast-check seed: a function of the run seed and the property name, so `--seed` replays it. */
export function propertySeed(runSeed: number, name: string): number {
  let h = (runSeed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h | 0;
}

export function replayCommand(prop: FuzzProperty, env: FuzzEnv, opts: RunPropertyOptions, path: string): string {
  const base = opts.reproduce?.('fuzz', prop.name) ?? `npx conformance run --suite fuzz --grep ${prop.name} --seed ${env.seed}`;
  return `${base} --fuzz-path ${path}`;
}

export async function runProperty(env: FuzzEnv, prop: FuzzProperty, opts: RunPropertyOptions): Promise<PropertyOutcome> {
  const seed = propertySeed(env.seed, prop.name);
  const suite = `fuzz-${prop.area}`;
  const examples = prop.side.examples.map((v) => [v] as [unknown]);
  const runs = Math.min(opts.runs, prop.maxRuns ?? Infinity);
  let numRuns = examples.length + runs;
  if (opts.path) numRuns = Math.max(numRuns, Number(opts.path.split(':')[0]) + 1);
  const started = Date.now();
  let aborted = false;
  // Cases the target did not answer within the fuzz cap on a request: discarded (fc.pre), neither passed nor failed.
  let unanswered = 0;
  let lastUnanswered = '';
  // A time budget makes the number of cases depend on speed; a recording must replay case for case,
  // so when recording or replaying the property runs exactly numRuns (each request is still bounded).
  const budgeted = env.transport.name === 'live';
  // The case fast-check left behind when the budget ran out: its request still runs (bounded by the cap), and
  // the next property waits for it, so a single-worker target never has two of our requests at once.
  let inFlight: Promise<unknown> | undefined;
  const property = fc.asyncProperty(prop.side.arbitrary, async (value: unknown) => {
    if (aborted || env.signal?.aborted) return true;
    const running = runCase(env, prop, value);
    inFlight = running;
    const outcome = await running;
    if (outcome.aborted) aborted = true;
    if (outcome.unanswered !== undefined) {
      unanswered++;
      lastUnanswered = outcome.unanswered;
      // Live, it is discarded and another case tried within the budget; a recording keeps the count of cases
      // (no budget bounds the discards there), the case passing as not judged.
      if (budgeted) fc.pre(false);
      return true;
    }
    return outcome.ok;
  });
  const details = await fc.check(property, {
    seed,
    numRuns,
    examples,
    plugins: budgeted ? [fc.interruptAfterTimeLimit(opts.budgetMs)] : [],
    ...(opts.path ? { path: opts.path, endOnFailure: true } : {}),
  });
  await inFlight?.catch(() => undefined);
  const info = { seed, numRuns: details.numRuns, numShrinks: details.numShrinks, interrupted: details.interrupted, path: details.counterexamplePath };
  const base: CheckResult = {
    suite, case: prop.name, caseTitle: prop.title, check: 'fuzz', requirements: prop.requirements, severity: prop.severity,
    status: 'pass', message: '', source: `src/fuzz/limits.ts (${prop.name})`,
  };
  const seeds = `run seed ${env.seed}, property seed ${seed}`;
  const elapsed = `${Date.now() - started} ms`;

  if (aborted || env.signal?.aborted) {
    return { result: { ...base, status: 'skip', message: `interrupted after ${details.numRuns} cases (${seeds})` }, details: info };
  }
  const notJudged = unanswered > 0 ? `; ${unanswered} ${unanswered === 1 ? 'case' : 'cases'} not judged, unanswered within ${env.timeoutMs} ms (raise --fuzz-budget-ms)` : '';
  // Nothing answered in time: the property was not exercised, which is no pass, and the target broke no rule.
  // Live, an unanswered case was discarded; recorded or replayed, it was counted as a run (not judged).
  const judged = budgeted ? details.numRuns : details.numRuns - unanswered;
  if ((!details.failed && judged === 0 && unanswered > 0) || (details.failed && details.counterexample === null && unanswered > 0)) {
    return { result: { ...base, status: 'skip', message: `not exercised: no case was answered within ${env.timeoutMs} ms, the fuzz cap on a request (${unanswered} sent; last: ${lastUnanswered}); raise --fuzz-budget-ms (${seeds})` }, details: info };
  }
  if (!details.failed) {
    const cut = details.interrupted ? `; budget of ${opts.budgetMs} ms reached after ${details.numRuns} of ${numRuns} cases` : '';
    const what = prop.expect === 'accept' ? 'accepted with a valid response' : 'rejected with a 4xx';
    // Boundary examples run first: a budget that ran out among them says how many of them ran.
    const boundary = details.numRuns >= examples.length ? `${examples.length} boundary` : `only ${details.numRuns} of its ${examples.length} boundary cases`;
    return { result: { ...base, message: `${judged} case${judged === 1 ? '' : 's'} (${boundary}) ${what}${cut}${notJudged} (${seeds}, ${elapsed})` }, details: info };
  }
  if (details.counterexample === null && details.interrupted) {
    // Our own budget ran out (a slow target, or waits for --rate-limit shared by --jobs): nothing was judged, which
    // is no pass and no verdict on the target either.
    return { result: { ...base, status: 'skip', message: `not exercised: the budget of ${opts.budgetMs} ms ran out before a single case completed; waits for --rate-limit count against it (raise --fuzz-budget-ms, or lower --jobs) (${seeds})` }, details: info };
  }
  if (details.counterexample === null) {
    return { result: { ...base, status: 'error', message: `${prop.name} could not be evaluated: fast-check could not generate cases (${seeds})` }, details: info };
  }

  // Re-validate the final shrunk counterexample before calling it a violation.
  const value = (details.counterexample as [unknown])[0];
  const outcome = await runCase(env, prop, value);
  const minimal = outcome.request ? describeRequest(outcome.request) : '(request not built)';
  const path = details.counterexamplePath;
  const replay = replayCommand(prop, env, opts, path);
  const shrunk = `${details.numShrinks} shrinks`;
  if (outcome.unanswered !== undefined) {
    return {
      result: { ...base, status: 'warn', message: `a counterexample (${prop.side.describe(value)}) failed during the run but got no answer when sent again (${outcome.unanswered}): not reproduced, not reported as a violation (${seeds}, path ${path})`, reproduce: replay },
      counterexample: value, outcome, details: info,
    };
  }
  if (outcome.ok) {
    return {
      result: { ...base, status: 'warn', message: `a counterexample (${prop.side.describe(value)}) failed during the run but passed when sent again: not reproducible, not reported as a violation (${seeds}, path ${path})`, reproduce: replay },
      counterexample: value, outcome, details: info,
    };
  }
  if (outcome.buildError) {
    return { result: { ...base, status: 'error', message: `${prop.name} could not be evaluated: cannot build the request: ${outcome.buildError} (${seeds})` }, details: info };
  }
  const first = outcome.problems[0];
  const result: CheckResult = {
    ...base,
    ...(outcome.cites ? { requirements: outcome.cites } : prop.citesFor ? { requirements: prop.citesFor(value) } : {}),
    status: prop.severity === 'must' ? 'fail' : 'warn',
    message: `${first?.message ?? 'property failed'} — minimal case (after ${shrunk}): ${prop.side.describe(value)}; minimal request: ${minimal} (${seeds}, path ${path})`,
    findings: outcome.problems.map((p) => ({ ...p, message: `${prop.side.describe(value)}: ${p.message}` })),
    reproduce: replay,
    ...(outcome.exchange ? { request: outcome.exchange.request, response: responseExcerpt(outcome.exchange) } : {}),
  };
  return { result, counterexample: value, outcome, details: info };
}
