// Consistency rules of the built-in suites, as data: what a must may demand of a status. The spec states no status
// codes (Errors 1), so a must case expects a success as any 2xx and a refusal as any refusal (expectations.ts,
// isRefusal); an exact code, or a class the spec does not state, is a should of its own.

import { describe, expect, it } from 'vitest';
import { loadHarness } from '../../src/run/setup.ts';
import { builtinCitation } from '../../src/judge/citation.ts';

const harness = loadHarness();
const severityOf = (id: string) => harness.catalogue.byId.get(id)?.severity;
const mustCases = harness.plans.flatMap((plan) => plan.spec.cases
  .filter((c) => builtinCitation(c, severityOf).severity === 'must')
  .map((c) => ({ where: `${plan.spec.name} › ${c.id}`, c })));

describe('must cases ask only for what the spec states', () => {
  it('finds the must cases to lint', () => {
    expect(mustCases.length).toBeGreaterThan(200);
  });

  it('no must case names an exact success code: a success is 2xx unless the spec states a code (it states none)', () => {
    const exact = mustCases.filter(({ c }) => {
      const s = c.expect?.status;
      const codes = typeof s === 'number' ? [s] : Array.isArray(s) ? s : [];
      return codes.some((code) => code >= 200 && code < 300);
    });
    expect(exact.map(({ where, c }) => `${where}: status ${JSON.stringify(c.expect?.status)}`)).toEqual([]);
  });

  it('no must case names an exact refusal code: any refusal is a rejection, and its class is ERR-4XX-NOT-5XX (should)', () => {
    const exact = mustCases.filter(({ c }) => {
      const s = c.expect?.status;
      const codes = typeof s === 'number' ? [s] : Array.isArray(s) ? s : [];
      return codes.some((code) => code >= 400);
    });
    expect(exact.map(({ where, c }) => `${where}: status ${JSON.stringify(c.expect?.status)}`)).toEqual([]);
  });
});
