// The results of traffic, kept for the reports in bounded memory however long the proxy runs: every result that is
// not a pass (up to a bound, then counted), and one pass per check and group with how many exchanges it stands for.

import type { CheckResult } from '../judge/results.ts';

/** Results other than passes kept whole; past it they are counted only (a proxy left running for days). */
const MAX_KEPT = 100_000;

export class ResultLog {
  readonly #kept: CheckResult[] = [];
  readonly #passes = new Map<string, { first: CheckResult; count: number }>();
  #dropped = 0;

  add(results: readonly CheckResult[]): void {
    for (const r of results) {
      if (r.status === 'pass') {
        const key = `${r.suite}\u0000${r.check}\u0000${r.requirements.join(',')}`;
        const seen = this.#passes.get(key);
        if (seen) seen.count++;
        else this.#passes.set(key, { first: r, count: 1 });
      } else if (this.#kept.length < MAX_KEPT) this.#kept.push(r);
      else this.#dropped++;
    }
  }

  /** Results other than passes that were counted but not kept. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The results: everything kept, and each check's pass once, saying how many exchanges passed it. */
  list(): CheckResult[] {
    const passes = [...this.#passes.values()].map(({ first, count }) => (count === 1 ? first : { ...first, message: `${first.message} (${count} exchanges)` }));
    return [...this.#kept, ...passes];
  }
}
