// Which rules a result cites, and at which severity: the catalogue decides, never the case alone.

import type { Severity } from '../checks/types.ts';
import { HEADER_RULES, SCHEMA_RULES } from '../checks/expectations.ts';
import type { CaseSpec } from '../suite/types.ts';

/** Severity of a catalogue requirement (undefined for an unknown ID). */
export type SeverityOf = (id: string) => 'must' | 'should' | 'untestable' | undefined;

/**
 * What the built-in expectations (status, schema, headers) of a case cite, and at which severity.
 * They cite the case's `must` requirements; a case that cites only `should` requirements (a convention,
 * e.g. an invalid language code being rejected) makes its built-ins warnings. Never a convention as a must.
 * A case citing nothing (a user's uncatalogued case) states its own expectations: they gate the run, as its
 * inline assertions do by default.
 */
export function builtinCitation(c: CaseSpec, severityOf: SeverityOf | undefined): { requirements: string[]; severity: Severity } {
  if (!severityOf || c.requirements.length === 0) return { requirements: [...c.requirements], severity: 'must' };
  const must = c.requirements.filter((id) => severityOf(id) !== 'should');
  if (must.length > 0) return { requirements: must, severity: 'must' };
  return { requirements: [...c.requirements], severity: 'should' };
}

/** The citation of a response header the catalogue knows the rule of (HEADER_RULES). */
export function headerCitation(name: string, severityOf: SeverityOf | undefined): { requirements: string[]; severity: Severity } | undefined {
  const rules = severityOf ? HEADER_RULES[name.toLowerCase()] : undefined;
  return rules ? { requirements: [...rules], severity: rules.some((r) => severityOf!(r) === 'must') ? 'must' : 'should' } : undefined;
}

/**
 * The citation of a schema the catalogue knows the rule of (SCHEMA_RULES), with the resource rules (RES-*) the case
 * cites besides (the object value, the finish_reason type: parts of the same shape), at their severity.
 */
export function schemaCitation(schema: string | undefined, severityOf: SeverityOf | undefined, cited: readonly string[]): { requirements: string[]; severity: Severity } | undefined {
  const rules = schema === undefined || !severityOf ? undefined : SCHEMA_RULES[schema];
  if (!rules) return undefined;
  const requirements = [...new Set([...rules, ...cited.filter((r) => r.startsWith('RES-'))])];
  return { requirements, severity: requirements.some((r) => severityOf!(r) === 'must') ? 'must' : 'should' };
}

/** A citation without the rules another result judges; unchanged when nothing else would be left. */
export function withoutRules(cite: { requirements: string[]; severity: Severity }, taken: readonly string[]): { requirements: string[]; severity: Severity } {
  const left = cite.requirements.filter((r) => !taken.includes(r));
  return left.length > 0 ? { ...cite, requirements: left } : cite;
}

