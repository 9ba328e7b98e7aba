// `--suite NAME`: one place that knows every suite — YAML plans and suites written in code (the plugin
// checker, the fuzz suites) — resolves names and aliases, and refuses unknown names with a did-you-mean.

import type { ProgrammaticSuite } from '../engine/programmatic.ts';
import { nearest } from '../suite/errors.ts';
import type { SuitePlan } from '../suite/types.ts';
import { UsageError } from './usage-error.ts';

/** Names that select a group of suites. */
const ALIASES: Record<string, (name: string) => boolean> = {
  fuzz: (name) => name.startsWith('fuzz-'),
};

export interface Selection {
  plans: SuitePlan[];
  programmatic: ProgrammaticSuite[];
}

/**
 * The suites a run executes: all of them without --suite, otherwise exactly the named ones.
 * `knownProgrammatic` lists suites that exist even when switched off (e.g. fuzz with --fuzz-runs 0),
 * so naming them is not an error.
 */
export function selectSuites(names: readonly string[], plans: SuitePlan[], programmatic: ProgrammaticSuite[], knownProgrammatic: readonly string[] = []): Selection {
  if (names.length === 0) return { plans, programmatic };
  const all = [...plans.map((p) => p.spec.name), ...programmatic.map((s) => s.name), ...knownProgrammatic];
  const wanted = (name: string) => names.some((n) => n === name || ALIASES[n]?.(name));
  for (const n of names) {
    if (!all.some((name) => name === n || ALIASES[n]?.(name))) {
      const guess = nearest(n, [...new Set([...all, ...Object.keys(ALIASES)])]);
      throw new UsageError(`no suite named "${n}"${guess ? ` — did you mean "${guess}"?` : ''} (suites: ${[...new Set(all)].join(', ')})`);
    }
  }
  return { plans: plans.filter((p) => wanted(p.spec.name)), programmatic: programmatic.filter((s) => wanted(s.name)) };
}
