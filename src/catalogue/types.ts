// The requirements catalogue (suites/requirements.yaml): every testable statement of the spec, by ID.

export type RequirementSeverity = 'must' | 'should' | 'untestable';

export interface Requirement {
  id: string;
  area: string;
  severity: RequirementSeverity;
  section: string;
  /** The spec's own words. */
  text: string;
  /** What a test observes. */
  statement: string;
  reason?: string;
  note?: string;
  /** Ambiguity register: the reasonable readings of the text, when it admits more than one. */
  readings?: string[];
  /** The reading the must check tests: one every server satisfies under any of the readings. */
  tested?: string;
}

export interface Catalogue {
  file: string;
  byId: ReadonlyMap<string, Requirement>;
  list: readonly Requirement[];
}
