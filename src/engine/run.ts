// plan × transport → events and results. The engine returns data; only the CLI prints.

import { ProblemWatch } from './problems.ts';
import { type CheckResult, type RunResult, type SuiteOutcome } from './types.ts';
import { suiteCost } from './shard.ts';
import { type EngineOptions, type WatchedOptions } from './options.ts';
import { runProgrammatic } from './coded-suite.ts';
import { runSuite, outcome } from './run-suite.ts';

export async function runSuites(options: EngineOptions): Promise<RunResult> {
  const started = Date.now();
  const results: CheckResult[] = [];
  const suites: SuiteOutcome[] = [];
  const emit = options.listener ?? (() => {});
  const watch = new ProblemWatch(options.transport, (problem) => emit({ type: 'problem', problem }), options.stillAnswers, options.profile.timeouts.requestMs);
  const opts: EngineOptions & { watch: ProblemWatch } = { ...options, transport: watch, watch };
  emit({ type: 'run-start', suites: opts.plans.length + (opts.programmatic?.length ?? 0), target: opts.profile.baseUrl, seed: opts.seed });
  // Suites in selection order; with --jobs N, up to N run at once, the costliest (polling) first. Each sends
  // through its own view of the watch and keeps its own results, joined in selection order at the end, so
  // the reports of --jobs 8 are those of --jobs 1.
  const tasks: Array<{ name: string; cost: number; run: (o: WatchedOptions, sink: CheckResult[]) => Promise<SuiteOutcome> }> = [
    ...opts.plans.map((plan) => ({ name: plan.spec.name, cost: suiteCost(plan), run: (o: WatchedOptions, sink: CheckResult[]) => runSuite(plan, o, sink) })),
    ...(opts.programmatic ?? []).map((suite) => ({ name: suite.name, cost: suiteCost(suite), run: (o: WatchedOptions, sink: CheckResult[]) => runProgrammatic(suite, o, sink) })),
  ];
  const jobs = Math.max(1, Math.min(opts.jobs ?? 1, tasks.length));
  const order = jobs > 1 ? tasks.map((_, i) => i).sort((a, b) => tasks[b]!.cost - tasks[a]!.cost || a - b) : tasks.map((_, i) => i);
  const done: Array<{ outcome: SuiteOutcome; results: CheckResult[] } | undefined> = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: jobs }, async () => {
    while (next < order.length && !opts.signal?.aborted) {
      const index = order[next++]!;
      const task = tasks[index]!;
      const sink: CheckResult[] = [];
      const outcome = await task.run({ ...opts, transport: watch.view(task.name) }, sink);
      done[index] = { outcome, results: sink };
      emit({ type: 'suite-end', outcome });
    }
  }));
  for (const d of done) {
    if (!d) continue;
    results.push(...d.results);
    suites.push(d.outcome);
  }
  const interrupted = opts.signal?.aborted ?? false;
  const durationMs = Date.now() - started;
  emit({ type: 'run-end', durationMs, interrupted });
  return { results, suites, durationMs, interrupted, seed: opts.seed, problems: watch.problems };
}
