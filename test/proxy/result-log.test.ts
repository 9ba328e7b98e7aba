// The proxy's results stay bounded however long it runs: passes are counted per check, everything else kept.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/judge/results.ts';
import { ResultLog } from '../../src/traffic/result-log.ts';

const result = (status: CheckResult['status'], check: string, exchange: number): CheckResult =>
  ({ suite: 'app', case: `POST /v1/embeddings #${exchange}`, caseTitle: 't', check, requirements: ['EMB-ADA-1536'], severity: 'must', status, message: 'm' }) as CheckResult;

describe('ResultLog', () => {
  it('keeps every failure, and one pass per check with how many exchanges passed it', () => {
    const log = new ResultLog();
    for (let i = 0; i < 10_000; i++) log.add([result('pass', 'embedding_ada_002_has_1536_floats', i), result('pass', 'schema', i)]);
    log.add([result('fail', 'embedding_ada_002_has_1536_floats', 10_001)]);
    const list = log.list();
    expect(list).toHaveLength(3);
    expect(list[0]!.status).toBe('fail');
    expect(list.find((r) => r.check === 'schema')!.message).toBe('m (10000 exchanges)');
  });
});
