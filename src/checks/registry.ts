import type { Check, ParamSpecs } from './types.ts';

/** Checks are registered explicitly (see checks/index.ts), so the set of rules is visible in one place. */
export class CheckRegistry {
  private readonly byName = new Map<string, Check>();

  constructor(checks: readonly Check[]) {
    for (const check of checks) {
      if (this.byName.has(check.name)) throw new Error(`check "${check.name}" is registered twice`);
      if (check.requirements.length === 0) throw new Error(`check "${check.name}" cites no requirement`);
      this.byName.set(check.name, check);
    }
  }

  get(name: string): Check | undefined {
    return this.byName.get(name);
  }

  /** The parameters a check takes (`with:`); undefined for a check that is not registered. */
  params(name: string): ParamSpecs | undefined {
    const check = this.byName.get(name);
    return check ? (check.params ?? {}) : undefined;
  }

  names(): ReadonlySet<string> {
    return new Set(this.byName.keys());
  }

  all(): Check[] {
    return [...this.byName.values()];
  }
}
