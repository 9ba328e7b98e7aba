// What one exchange cannot show and a sequence of them can, judged on a client's traffic: a fine-tune job's statuses
// over time (FT-STATE-TRANSITIONS, FT-STATE-TERMINAL-STABLE) and a deleted file that is still listed or served
// (FILE-DELETE-GONE). Memory is bounded: the ledger keeps at most MAX_TRACKED ids of each kind.

import type { PlannedRequestView } from '../checks/types.ts';
import type { CheckResult } from '../judge/results.ts';
import type { Exchange, ExchangeRequest } from '../transport/types.ts';
import { isRecord } from '../util/json-type.ts';
import { isSuccess } from '../util/status.ts';

const MAX_TRACKED = 10_000;
const RANK: Readonly<Record<string, number>> = { pending: 0, running: 1, succeeded: 2, cancelled: 2, failed: 2 };

export interface LedgerAt {
  suite: string;
  case: string;
  caseTitle: string;
  request: ExchangeRequest;
}

interface JobSeen {
  status: string;
  /** A cancel was asked of the job after it finished: what that does to its status is another reading. */
  cancelledLate: boolean;
}

/** A bounded map: the oldest entry goes first. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_TRACKED) map.delete(map.keys().next().value as K);
}

export class TrafficLedger {
  readonly #jobs = new Map<string, JobSeen>();
  readonly #deletedFiles = new Set<string>();

  observe(exchange: Exchange, view: PlannedRequestView, at: LedgerAt): CheckResult[] {
    const status = exchange.response?.status;
    if (!isSuccess(status)) return [];
    const path = view.path.replace(/^.*(?=\/v1\/)/, '');
    const json = exchange.response?.json;
    return [...this.#files(view.method, path, json, at), ...this.#fineTunes(view.method, path, json, at)];
  }

  #files(method: string, path: string, json: unknown, at: LedgerAt): CheckResult[] {
    const one = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path);
    if (method === 'DELETE' && one && isRecord(json) && json.deleted === true) {
      this.#deletedFiles.add(one[1]!);
      if (this.#deletedFiles.size > MAX_TRACKED) this.#deletedFiles.delete(this.#deletedFiles.values().next().value!);
      return [];
    }
    const gone = (id: string, how: string): CheckResult => result(at, { check: 'file_gone_after_delete', requirements: ['FILE-DELETE-GONE'], status: 'fail', message: `file ${id} was deleted earlier in this traffic, yet ${how}` });
    if (method === 'GET' && one && this.#deletedFiles.has(one[1]!)) return [gone(one[1]!, one[2] ? 'its content is still served' : 'it is still served')];
    if (method === 'GET' && path === '/v1/files' && isRecord(json) && Array.isArray(json.data)) {
      return json.data.filter((f): f is Record<string, unknown> => isRecord(f) && typeof f.id === 'string' && this.#deletedFiles.has(f.id)).map((f) => gone(f.id as string, 'it is still listed'));
    }
    return [];
  }

  #fineTunes(method: string, path: string, json: unknown, at: LedgerAt): CheckResult[] {
    const cancel = /^\/v1\/fine-tunes\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) {
      const seen = this.#jobs.get(cancel[1]!);
      if (seen && RANK[seen.status] === 2) seen.cancelledLate = true;
    }
    if (!/^\/v1\/fine-tunes(\/[^/]+(\/cancel)?)?$/.test(path)) return [];
    const jobs = isRecord(json) && Array.isArray(json.data) ? json.data : [json];
    return jobs.filter(isRecord).flatMap((job) => (typeof job.id === 'string' && typeof job.status === 'string' ? this.#step(job.id, job.status, at) : []));
  }

  #step(id: string, status: string, at: LedgerAt): CheckResult[] {
    const seen = this.#jobs.get(id);
    remember(this.#jobs, id, { status, cancelledLate: seen?.cancelledLate ?? false });
    if (!seen || seen.status === status || RANK[status] === undefined || RANK[seen.status] === undefined) return [];
    if (RANK[seen.status] === 2) {
      if (seen.cancelledLate) return [];
      return [result(at, { check: 'ft_terminal_status_stable', requirements: ['FT-STATE-TERMINAL-STABLE'], status: 'fail', message: `job ${id} was ${seen.status} earlier in this traffic, and is now ${status}: a finished job's status never changes` })];
    }
    if (RANK[status]! < RANK[seen.status]!) {
      return [result(at, { check: 'ft_status_transitions', requirements: ['FT-STATE-TRANSITIONS'], status: 'fail', message: `job ${id} went from ${seen.status} back to ${status}` })];
    }
    return [result(at, { check: 'ft_status_transitions', requirements: ['FT-STATE-TRANSITIONS'], status: 'pass', message: `job ${id}: ${seen.status} → ${status}` })];
  }
}

function result(at: LedgerAt, r: Pick<CheckResult, 'check' | 'requirements' | 'message'> & { status: 'pass' | 'fail' }): CheckResult {
  return { suite: at.suite, case: at.case, caseTitle: at.caseTitle, severity: 'must', request: at.request, ...r };
}
