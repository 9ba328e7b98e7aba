// A case made ready to send: its request rendered from the suite's scope and built, its inline assertions
// rendered, its poll rendered. What cannot be rendered from this run's values (a template error the loader
// could not see, such as middle() of a text the target answered too short) leaves the case unexercised:
// skipped, saying why.

import { assertionCheck } from '../../checks/assert/assertion.ts';
import type { CheckContext } from '../../checks/types.ts';
import { builtinCitation } from '../../judge/citation.ts';
import { skippedCase, type CheckResult } from '../../judge/results.ts';
import { render, TemplateError } from '../../suite/template.ts';
import type { Assertion, CheckUse, PollSpec, RequestSpec } from '../../suite/types.ts';
import { buildRequest, RequestBuildError } from '../request.ts';
import type { Ahead, CaseContext, PreparedCase } from './context.ts';
import { renderRequest } from './send-options.ts';

export function prepareCase(ctx: CaseContext, ahead: Ahead | undefined): PreparedCase | { skipped: CheckResult } {
  const { opts, suite } = ctx;
  const c = ctx.id.case;
  let id = ctx.id;
  let step = 'build the request';
  let request: RequestSpec;
  let built: PreparedCase['built'];
  try {
    // A request sent ahead is this case's plan as it stands (the pipeline sends only requests without templates).
    request = ahead ? c.request : renderRequest(c.request, suite.scope);
    built = ahead?.built ?? buildRequest(request, opts.profile, `${id.suite}/${c.id}`);
    if (c.expect?.assert?.length) {
      step = 'render the assertions';
      const cite = builtinCitation(c, opts.severityOf).requirements;
      const assertions = (render(c.expect.assert, suite.scope) as Assertion[]).map((a, j) => assertionCheck(a, j, id.assertSources?.[j] ?? id.source, cite));
      id = { ...id, assertions };
    }
  } catch (e) {
    if (e instanceof TemplateError || e instanceof RequestBuildError) return { skipped: skippedCase(id, `cannot ${step}: ${e.message}`) };
    throw e;
  }
  const view = built.view;
  const params = (use: CheckUse) => (use.with ? (render(use.with, suite.scope) as Record<string, unknown>) : {});
  const ctxFor = (use: CheckUse): CheckContext => ({ request: view, profile: opts.profile, vars: suite.scope, schemas: opts.schemas, params: params(use), history: suite.history });
  const poll = c.poll ? (render(c.poll, suite.scope) as PollSpec) : undefined;
  return { id, request, built, ctxFor, ...(poll ? { poll } : {}) };
}
