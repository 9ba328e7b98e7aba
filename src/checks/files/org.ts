// Organization choice (Authentication / API 3): Service-Organization selects one of the key's organizations.

import type { ResponseCheck } from '../types.ts';
import { finding } from './support.ts';

/** Only choosing among the key's own organizations is described: refusing a foreign one is a convention. */
export const foreignOrganizationRejected: ResponseCheck = {
  kind: 'response',
  name: 'foreign_organization_rejected',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['AUTH-ORG-FOREIGN-REJECTED'],
  severity: 'should',
  summary: 'a Service-Organization the key does not belong to is refused (4xx)',
  run: (exchange) => {
    const status = exchange.response?.status;
    return status !== undefined && status >= 400 && status < 500 ? [] : [finding('', 'an organization the key does not belong to was not refused', '4xx', status ?? 'no response')];
  },
};

/** Unknown ids are not described by the spec; answering 404 is the HTTP convention (and the service's). */
export function unknownIdIs404(name: string, requirement: string, what: string): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements: [requirement],
    severity: 'should',
    // Judges the status itself (a refusal), so it applies to an answer of any class.
    appliesTo: 'any',
    summary: `an unknown ${what} id is answered 404 (convention; unknown ids are not shown in the spec)`,
    run: (exchange) => {
      const status = exchange.response?.status;
      return status === 404 ? [] : [finding('', `an unknown ${what} id is answered 404`, 404, status ?? 'no response')];
    },
  };
}
