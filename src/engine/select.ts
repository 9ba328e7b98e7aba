// Which cases run: --grep and --tag, plus every earlier case a selected one depends on.

import { referencedNames } from '../suite/template.ts';
import type { CaseSpec } from '../suite/types.ts';
import { type CaseFilter } from './options.ts';

/**
 * Checks read earlier exchanges by case id, always named in their `with:` parameters
 * (e.g. `with: { create: create-job }`): only those cases' exchanges are kept, so a suite of thousands
 * of cases does not hold every response until its end.
 */
export function casesNamedByChecks(cases: readonly CaseSpec[], among: readonly CaseSpec[] = cases): Set<string> {
  const ids = new Set(among.map((c) => c.id));
  const named = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') { if (ids.has(v)) named.add(v); }
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(visit);
  };
  for (const c of cases) for (const use of c.expect?.checks ?? []) if (typeof use !== 'string') visit(use.with);
  return named;
}

/**
 * Cases selected by --grep/--tag, plus every earlier case they depend on: the case that captures a value they use
 * (so that `--grep <case>` reproduces a case that needs a file uploaded first), and every earlier case that changes
 * the resource that value names (a request other than GET using it: a delete, a cancel). `deleted-not-listed`
 * judges the list after `delete-upload`; selected alone, the file was never deleted and a conformant target failed.
 */
export function selectCases(cases: CaseSpec[], filter: CaseFilter | undefined, suiteTags: readonly string[] = []): Set<string> {
  if (!filter?.grep && !filter?.tags?.length) return new Set(cases.map((c) => c.id));
  // A grep that is exactly a case's id selects that case alone (as a fuzz property's exact name does): the
  // reproduce command names the failed case so, and must not rerun every case whose id or title contains it.
  const g = filter.grep?.toLowerCase();
  const exactId = g !== undefined && cases.some((c) => c.id.toLowerCase() === g);
  const wanted = cases.filter((c) => matches(c, filter, { suiteTags, exactId }));
  const selected = new Set(wanted.map((c) => c.id));
  for (let i = cases.length - 1; i >= 0; i--) {
    const c = cases[i]!;
    if (!selected.has(c.id)) continue;
    const needs = new Set(referencedNames([c.request, c.expect ?? {}, c.poll ?? {}]));
    // Names whose resource the case reads: every earlier change to it matters, not only the nearest capture.
    const resources = new Set(needs);
    // Earlier cases its checks read by id (`with: { job: retrieve-job }`): their answers are what it compares with.
    const named = casesNamedByChecks([c], cases);
    for (let j = i - 1; j >= 0; j--) {
      const earlier = cases[j]!;
      if (named.has(earlier.id)) selected.add(earlier.id);
      const captures = Object.keys(earlier.capture ?? {}).some((n) => needs.has(n));
      const changes = earlier.request.method !== 'GET' && referencedNames([earlier.request]).some((n) => resources.has(n));
      if (captures || changes) {
        selected.add(earlier.id);
        for (const n of Object.keys(earlier.capture ?? {})) needs.delete(n);
        for (const n of referencedNames([earlier.request, earlier.poll ?? {}])) { needs.add(n); resources.add(n); }
      }
    }
  }
  return selected;
}

export function matches(c: CaseSpec, filter: CaseFilter | undefined, within: { suiteTags: readonly string[]; exactId: boolean }): boolean {
  const { suiteTags, exactId } = within;
  if (filter?.tags?.length && !filter.tags.some((t) => c.tags?.includes(t) || suiteTags.includes(t))) return false;
  if (filter?.grep) {
    const g = filter.grep.toLowerCase();
    if (exactId) return c.id.toLowerCase() === g;
    if (!c.id.toLowerCase().includes(g) && !c.title.toLowerCase().includes(g)) return false;
  }
  return true;
}
