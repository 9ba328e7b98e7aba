// The limits the spec states (fuzz/limits.ts, the one table of them), judged on what a client happened to send: a
// value outside a limit that is answered with success breaks the rule, as it does in a suite. Only limits of one
// parameter are judged here; relations between parameters need a designed request.

import type { Severity } from '../checks/types.ts';
import { ENDPOINTS, LIMIT_SPECS, type Domain, type LimitSpec } from '../fuzz/limits.ts';
import type { CheckResult } from '../judge/results.ts';
import type { PlannedRequestView } from '../checks/types.ts';
import type { Exchange, ExchangeRequest } from '../transport/types.ts';
import { resolvePointer } from '../util/pointer.ts';
import { isSuccess } from '../util/status.ts';

export interface LimitAt {
  suite: string;
  case: string;
  caseTitle: string;
  request: ExchangeRequest;
  severityOf: (id: string) => string | undefined;
}

type Judged = LimitSpec & { reject: readonly string[] };

/** Limits of one parameter with a reject side, by the path of their endpoint. */
const JUDGED: ReadonlyMap<string, readonly Judged[]> = (() => {
  const byPath = new Map<string, Judged[]>();
  for (const limit of LIMIT_SPECS) {
    if (!limit.reject?.length || !(limit.endpoint in ENDPOINTS) || !/^(json|form):/.test(limit.param) || !breaks(limit.domain, undefined).judgeable) continue;
    const path = ENDPOINTS[limit.endpoint as keyof typeof ENDPOINTS].base.path;
    byPath.set(path, [...(byPath.get(path) ?? []), limit as Judged]);
  }
  return byPath;
})();

/** Whether a value breaks a domain (`judgeable`: the domain is one this module reads). */
function breaks(domain: Domain, value: unknown): { judgeable: boolean; broken?: string } {
  switch (domain.kind) {
    case 'number':
    case 'integer':
      if (domain.acceptOnly) return { judgeable: false };
      if (typeof value !== 'number') return { judgeable: true };
      if (domain.min !== undefined && value < domain.min) return { judgeable: true, broken: `${value} is below ${domain.min}` };
      if (domain.max !== undefined && value > domain.max) return { judgeable: true, broken: `${value} is above ${domain.max}` };
      return { judgeable: true };
    case 'count':
      return Array.isArray(value) && value.length > domain.max ? { judgeable: true, broken: `${value.length} items, more than ${domain.max}` } : { judgeable: true };
    case 'length':
      return typeof value === 'string' && value.length > domain.max ? { judgeable: true, broken: `${value.length} characters, more than ${domain.max}` } : { judgeable: true };
    case 'enum':
      if (domain.acceptOnly) return { judgeable: false };
      // A case variant of a listed value is another reading (the register): only a value outside the set breaks it.
      return typeof value === 'string' && !domain.values.some((v) => v.toLowerCase() === value.toLowerCase()) ? { judgeable: true, broken: `${JSON.stringify(value)} is not one of ${domain.values.join(', ')}` } : { judgeable: true };
    default:
      return { judgeable: false };
  }
}

function valueAt(view: PlannedRequestView, param: string): unknown {
  const [where, name] = [param.slice(0, param.indexOf(':')), param.slice(param.indexOf(':') + 1)];
  if (where === 'form') {
    const raw = view.multipartFields?.[name];
    return raw !== undefined && raw !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  }
  return resolvePointer(view.json, name);
}

/** One result per stated limit the request broke: a failure when it was answered with success. */
export function limitResults(view: PlannedRequestView, exchange: Exchange, at: LimitAt): CheckResult[] {
  const status = exchange.response?.status;
  if (status === undefined) return [];
  const out: CheckResult[] = [];
  for (const limit of JUDGED.get(view.path.replace(/^.*(?=\/v1\/)/, '')) ?? []) {
    if (view.method !== ENDPOINTS[limit.endpoint as keyof typeof ENDPOINTS].base.method) continue;
    const { broken } = breaks(limit.domain, valueAt(view, limit.param));
    if (broken === undefined) continue;
    const severity: Severity = limit.reject.some((id) => at.severityOf(id) === 'must') ? 'must' : 'should';
    const accepted = isSuccess(status);
    out.push({
      suite: at.suite, case: at.case, caseTitle: at.caseTitle, check: `limit:${limit.name}`, requirements: [...limit.reject], severity,
      status: accepted ? (severity === 'must' ? 'fail' : 'warn') : 'pass',
      message: accepted ? `"${limit.rule}": ${broken}, yet the request was answered ${status}` : `"${limit.rule}": ${broken}, refused with ${status}`,
      request: at.request, response: { status },
    });
  }
  return out;
}
