// Checks of the edits area, registered in checks/index.ts.

import type { Check, ResponseCheck } from '../types.ts';
import { usageTotalIsSum } from '../common/usage.ts';
import { choicesOf, indexFindings, intField, okBody, requestJson, skipUnlessOk } from '../completions/request.ts';

export const editUsageTotalIsSum = usageTotalIsSum('edit_usage_total_is_sum', 'EDIT-USAGE-TOTAL-SUM');

/** Create edit: n (default 1) is "edits per input and instruction". */
export const editChoicesN: ResponseCheck = {
  kind: 'response',
  name: 'edit_choices_n',
  requirements: ['EDIT-N-DEFAULT', 'EDIT-N-CHOICES'],
  severity: 'must',
  summary: 'choices holds n edits (default 1) with indices 0..n-1 each once',
  skipWhen: (ex, ctx) => (intField(requestJson(ctx), 'n', 1) === undefined ? 'n is not an integer in the request' : skipUnlessOk(ex)),
  run: (ex, ctx) => {
    const n = intField(requestJson(ctx), 'n', 1)!;
    const got = choicesOf(okBody(ex)!);
    if ('finding' in got) return [got.finding];
    const count = got.choices.length === n ? [] : [{ pointer: '/choices', message: `n=${n} asks for ${n} edits`, expected: n, actual: got.choices.length }];
    return [...count, ...indexFindings(got.choices.map((c) => c.index), n, (i) => `/choices/${i}/index`, 'edit')];
  },
};

export const EDITS_CHECKS: readonly Check[] = [editUsageTotalIsSum, editChoicesN];
