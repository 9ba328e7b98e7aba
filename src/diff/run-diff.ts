// `conformance diff`: send the recorded requests of each cassette, in order, to another target and compare each
// answer with the recorded one. Ids the recording captured (a file id, a job id, a fine-tuned model, an image
// URL) are re-bound to the ones the target returned at the same place, so later requests name the target's own
// resources. A run of identical requests (a poll) is repeated until the target reaches the recorded state.

import { cassetteFileNames } from '../transport/cassette-folder.ts';
import { join } from 'node:path';
import type { Finding } from '../checks/types.ts';
import type { CheckResult, RunProblem, SuiteOutcome } from '../engine/types.ts';
import { emptyCounts } from '../engine/types.ts';
import { INVALID_API_KEY } from '../engine/request.ts';
import { readCassette, type CassetteDefinition } from '../transport/cassette.ts';
import { parseSseText } from '../transport/sse.ts';
import type { Exchange, OutgoingRequest, RequestBodySummary, Transport } from '../transport/types.ts';
import type { Redactor } from '../util/redact.ts';
import { compareAnswers, type Answer } from './compare.ts';
import { rebuildMultipart } from './multipart.ts';
import type { Volatility } from '../util/volatility.ts';
import { isSuccess } from '../util/status.ts';

export interface DiffCredentials { apiKey?: string; memberApiKey?: string; organization?: string; otherOrganization?: string }

export interface DiffOptions {
  dir: string;
  /** Where requests go: the target's origin plus an optional path prefix (without /v1). */
  baseUrl: string;
  credentials: DiffCredentials;
  transport: Transport;
  redactor: Redactor;
  volatility: Volatility;
  suites?: readonly string[];
  timeoutMs: number;
  /** How long a run of identical recorded requests (a poll) may take to reach the recorded state. */
  pollDeadlineMs: number;
  signal?: AbortSignal;
  onSuite?: (outcome: SuiteOutcome) => void;
  /** The command that compares one suite's recording again (a difference's `reproduce`). */
  reproduce?: (suite: string) => string;
}

/** What the target answered, for the report: its text, or for a stream its first events' data. */
function excerptOf(exchange: Exchange, events: Answer['events']): string {
  const text = exchange.response?.text ?? '';
  if (text !== '' || !events?.length) return text.slice(0, 400);
  return events.slice(0, 5).map((e) => `data: ${e.data}`).join('\n').slice(0, 400);
}

export interface DiffRun {
  results: CheckResult[];
  suites: SuiteOutcome[];
  problems: RunProblem[];
  interrupted: boolean;
}

/** Cassette files of a folder (not its manifest, not other JSON such as verdicts.json), by suite name. */
export function cassetteSuites(dir: string, only?: readonly string[]): Array<{ suite: string; defs: CassetteDefinition[] }> {
  const out: Array<{ suite: string; defs: CassetteDefinition[] }> = [];
  for (const name of cassetteFileNames(dir)) {
    let defs: CassetteDefinition[];
    try { defs = readCassette(join(dir, name)); } catch { continue; }
    if (!defs.every((d) => typeof d === 'object' && d !== null && typeof d.method === 'string' && typeof d.path === 'string')) continue;
    const suite = defs[0]?.conformance?.suite ?? name.slice(0, -'.json'.length);
    if (only && !only.includes(suite)) continue;
    out.push({ suite, defs });
  }
  return out;
}

/** Keys whose string values name something the recording created and later requests may use. */
const ID_KEYS = new Set(['id', 'fine_tuned_model', 'url', 'training_file', 'validation_file']);

function recordedAnswer(def: CassetteDefinition): Answer {
  const headers = headerMap(def.rawHeaders ?? []);
  const contentType = headers['content-type'] ?? '';
  const answer: Answer = { status: def.status, contentType };
  if (contentType.startsWith('text/event-stream') && typeof def.response === 'string') {
    answer.events = parseSseText(def.response).events.map((e) => ({ data: e.data, otherFields: e.otherFields }));
  } else if (def.response !== undefined && typeof def.response === 'object' && !def.responseIsBinary) answer.json = def.response;
  else if (def.responseIsBinary && typeof def.response === 'string' && /json/.test(contentType) && headers['content-encoding'] === undefined) {
    // JSON kept as bytes because it did not re-serialise identically (pretty-printed, e.g. imported from HAR).
    try { answer.json = JSON.parse(Buffer.from(def.response, 'hex').toString('utf8')); } catch { /* not JSON after all */ }
  }
  else if (typeof def.response === 'string' && !def.responseIsBinary && /json/.test(contentType)) {
    try { answer.json = JSON.parse(def.response); } catch { /* not JSON after all */ }
  }
  return answer;
}

function headerMap(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]!.toLowerCase()] = raw[i + 1]!;
  return out;
}

function receivedAnswer(ex: Exchange, events: Answer['events']): Answer {
  const r = ex.response!;
  return { status: r.status, contentType: r.headers['content-type'] ?? '', ...(events ? { events } : r.json !== undefined ? { json: r.json } : {}) };
}

/**
 * Binds each id the recording captured to the target's id at the same place. The first binding of an id stands
 * (the answer that created it), and the items of a list (`{"object": "list", "data": [...]}`) are never paired
 * by position: the target may hold resources of its own, and `GET /v1/files` pairing the recorded upload with
 * the user's first file made the recorded DELETE remove the user's file. Arrays of one resource (a job's
 * result_files, the images of one generation) are paired.
 */
function rebind(recorded: unknown, received: unknown, key: string | undefined, ids: Map<string, string>, listed = false): void {
  if (typeof recorded === 'string' && typeof received === 'string') {
    // Bound even when equal (a target that makes the same ids, the reference server with the recording's seed): what
    // the diff created is then still known as such, and must be listed (compare.ts).
    if (key !== undefined && ID_KEYS.has(key) && !ids.has(recorded)) ids.set(recorded, received);
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(received)) {
    if (listed) return;
    for (let i = 0; i < Math.min(recorded.length, received.length); i++) rebind(recorded[i], received[i], undefined, ids, listed);
    return;
  }
  if (recorded && received && typeof recorded === 'object' && typeof received === 'object') {
    const list = (recorded as Record<string, unknown>).object === 'list';
    for (const [k, v] of Object.entries(recorded)) rebind(v, (received as Record<string, unknown>)[k], k, ids, list && k === 'data');
  }
}

/** Every string of a recorded answer that names something created: what later requests cannot use if it was never created. */
function createdIds(value: unknown, key: string | undefined, out: Set<string>): void {
  if (typeof value === 'string') { if (key !== undefined && ID_KEYS.has(key)) out.add(value); return; }
  if (Array.isArray(value)) { for (const v of value) createdIds(v, undefined, out); return; }
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) createdIds(v, k, out);
}

/**
 * Every recorded id replaced by the target's, in one pass (a recorded id may equal another resource's id on the
 * target: replacing one after the other would chain). Longest first, so an id that contains another is replaced
 * whole; in a path it may be percent-encoded.
 */
function substitute(text: string, ids: ReadonlyMap<string, string>): string {
  if (ids.size === 0) return text;
  const table = new Map<string, string>();
  for (const [from, to] of ids) {
    table.set(from, to);
    const encoded = encodeURIComponent(from);
    if (encoded !== from) table.set(encoded, encodeURIComponent(to));
  }
  const keys = [...table.keys()].sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(keys.join('|'), 'g'), (m) => table.get(m)!);
}

/** The same request sent with the same credentials (a poll); the same path with another key is another case. */
const sameRequest = (a: CassetteDefinition, b: CassetteDefinition) =>
  a.method === b.method && a.path === b.path && JSON.stringify(a.body) === JSON.stringify(b.body) && JSON.stringify(a.multipart) === JSON.stringify(b.multipart) && JSON.stringify(a.sent) === JSON.stringify(b.sent);

/** Consecutive identical requests are one poll: the target is asked again until it reaches the last recorded state. */
function groups(defs: readonly CassetteDefinition[]): CassetteDefinition[][] {
  const out: CassetteDefinition[][] = [];
  for (const d of defs) {
    const last = out[out.length - 1];
    if (last && sameRequest(last[0]!, d)) last.push(d);
    else out.push([d]);
  }
  return out;
}

function stateOf(answer: Answer): string {
  const status = answer.json && typeof answer.json === 'object' && !Array.isArray(answer.json) ? (answer.json as Record<string, unknown>).status : undefined;
  return `${Math.floor(answer.status / 100)}${typeof status === 'string' ? `:${status}` : ''}`;
}

export async function runDiff(opts: DiffOptions): Promise<DiffRun> {
  const results: CheckResult[] = [];
  const suites: SuiteOutcome[] = [];
  const problems: RunProblem[] = [];
  let interrupted = false;
  // What the folder holds must be what was asked for: nothing compared is no "same" (exit 0 in CI).
  const held = cassetteSuites(opts.dir);
  if (held.length === 0) problems.push({ kind: 'cassette-missing', message: `${opts.dir} holds no cassette`, hint: 'give a folder written by conformance run --record, or by conformance import-har' });
  const missing = (opts.suites ?? []).filter((s) => !held.some((h) => h.suite === s));
  if (held.length > 0 && missing.length > 0) problems.push({ kind: 'cassette-missing', message: `${opts.dir} holds no cassette of suite ${missing.join(', ')}`, hint: `it holds: ${held.map((h) => h.suite).join(', ')}` });
  if (problems.length > 0) return { results, suites, problems, interrupted };
  // A key the target refuses is a problem of the run, as in `conformance run`: three requests that were answered
  // 2xx with the run's key when recorded, refused now before anything was accepted, stop the diff.
  let refusals = 0;
  let accepted = false;
  for (const { suite, defs } of held.filter((h) => !opts.suites || opts.suites.includes(h.suite))) {
    const started = Date.now();
    const mine: CheckResult[] = [];
    const ids = new Map<string, string>();
    const unusable = new Set<string>();
    for (const [i, group] of groups(defs).entries()) {
      if (opts.signal?.aborted) { interrupted = true; break; }
      const def = group[0]!;
      const last = group[group.length - 1]!;
      const caseId = `${String(i + 1).padStart(3, '0')} ${def.method} ${def.path.split('?')[0]}`;
      // Requests to one endpoint differ by their bodies: the title shows the start of it, so differences tell apart.
      const asked = def.body === undefined ? '' : ` ${opts.redactor.text(typeof def.body === 'string' ? def.body : JSON.stringify(def.body)).slice(0, 100)}`;
      const base = { suite, case: caseId, caseTitle: `${def.method} ${def.path} (recorded interaction ${i + 1})${asked}`, check: 'diff', requirements: [], severity: 'should' as const };
      const recorded = recordedAnswer(last);
      const skip = (why: string) => {
        createdIds(recorded.json, undefined, unusable);
        mine.push({ ...base, status: 'skip', message: `not sent: ${why}` });
      };
      if (def.status === 0) { skip('recorded without an answer'); continue; }
      const multipart = def.multipart !== undefined ? rebuildMultipart(def.multipart, `${suite}/${i}`) : undefined;
      if (multipart !== undefined && 'why' in multipart) { skip(multipart.why); continue; }
      const requestText = `${def.scope}${def.path} ${JSON.stringify(def.body ?? null)}`;
      const blocked = [...unusable].find((u) => !ids.has(u) && requestText.includes(u));
      if (blocked !== undefined) { skip(`it names ${blocked}, which an earlier request that was not sent created`); continue; }
      // A multipart body a HAR kept as text (browsers leave the files' bytes out): sent as text it asks another
      // question (400, "expects multipart/form-data"), so it is not sent, and neither is what needs its upload.
      if (typeof def.body === 'string' && /^--\S+\r?\ncontent-disposition: form-data/i.test(def.body)) { skip('a multipart body imported from a HAR, whose files cannot be sent again'); continue; }
      const lacking = lackingCredential(def, opts.credentials);
      if (lacking) { skip(`recorded with ${lacking}, which this diff was not given`); continue; }
      const outgoing = buildOutgoing(def, ids, opts, recorded.events !== undefined, multipart);
      let exchange: Exchange | undefined;
      let events: Answer['events'];
      const deadline = Date.now() + opts.pollDeadlineMs;
      for (let attempt = 0; ; attempt++) {
        const collected: NonNullable<Answer['events']> = [];
        exchange = await opts.transport.send(outgoing, {
          timeoutMs: opts.timeoutMs, headersTimeoutMs: opts.timeoutMs, idleTimeoutMs: opts.timeoutMs,
          onEvent: (e) => { if (collected.length < 10_000) collected.push({ data: e.data, otherFields: e.otherFields }); },
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        events = recorded.events ? collected : undefined;
        if (!exchange.response || group.length === 1) break;
        if (stateOf(receivedAnswer(exchange, events)) === stateOf(recorded) || Date.now() + 500 > deadline || opts.signal?.aborted) break;
        await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** Math.min(attempt, 3), 2000)));
      }
      if (!exchange.response) {
        if (exchange.error?.kind === 'aborted') { interrupted = true; break; }
        problems.push({ kind: 'unreachable', suite, message: `${def.method} ${opts.redactor.text(outgoing.url)}: ${exchange.error?.message ?? 'no answer'}`, hint: 'check --base-url and the target; nothing after this request was compared' });
        mine.push({ ...base, status: 'error', message: `the target did not answer: ${exchange.error?.message ?? 'no answer'}` });
        break;
      }
      const received = receivedAnswer(exchange, events);
      if (isSuccess(received.status)) accepted = true;
      if (!accepted && (def.sent?.auth ?? 'key') === 'key' && isSuccess(recorded.status) && (received.status === 401 || received.status === 403)) {
        if (++refusals >= 3) {
          problems.push({ kind: 'auth-refused', suite, message: `the target refused the run's key: ${def.method} ${def.path.split('?')[0]} answered ${received.status}, as did two earlier requests answered 2xx when recorded`, hint: 'check --api-key / CONFORMANCE_API_KEY (and --organization); nothing after this request was compared' });
          break;
        }
      }
      rebind(recorded.json, received.json, undefined, ids);
      const findings: Finding[] = compareAnswers(recorded, received, { volatility: opts.volatility, fixesLengths: def.body !== undefined && typeof def.body === 'object', ids });
      // A poll that ran out of time: the state it waited for is the difference (status is volatile, so the
      // shapes alone would pass while the job is still running).
      if (group.length > 1 && stateOf(received) !== stateOf(recorded)) {
        findings.unshift({ pointer: '', message: `the target did not reach the recorded state within --poll-deadline ${opts.pollDeadlineMs} ms`, expected: stateOf(recorded), actual: stateOf(received) });
      }
      mine.push(findings.length === 0
        ? { ...base, status: 'pass', message: 'the answer has the recorded shape' }
        : { ...base, status: 'warn', message: `${findings.length} difference${findings.length === 1 ? '' : 's'} from the recorded answer: ${findings[0]!.message} at ${findings[0]!.pointer || '/'}`, findings, request: exchange.request, response: { status: exchange.response.status, contentType: exchange.response.headers['content-type'] ?? '', excerpt: excerptOf(exchange, events) }, ...(opts.reproduce ? { reproduce: opts.reproduce(suite) } : {}) });
    }
    const counts = emptyCounts();
    for (const r of mine) counts[r.status]++;
    const outcome: SuiteOutcome = { suite, area: suite, file: join(opts.dir, `${suite}.json`), durationMs: Date.now() - started, counts };
    results.push(...mine);
    suites.push(outcome);
    opts.onSuite?.(outcome);
    if (interrupted || problems.length > 0) break;
  }
  return { results, suites, problems, interrupted };
}

/**
 * The credential a request was recorded with that this diff lacks: sent without it, the request asks another
 * question (no key instead of the member's) and its answer "differs" although the target is right. The
 * organization header is optional (AUTH-ORG-HEADER-OPTIONAL): a request recorded with the default one is sent
 * without it.
 */
function lackingCredential(def: CassetteDefinition, c: DiffOptions['credentials']): string | undefined {
  const sent = def.sent;
  if (!sent) return undefined;
  if (sent.auth === 'key' && !c.apiKey) return 'the key (--api-key or CONFORMANCE_API_KEY)';
  if (sent.auth === 'member-key' && !c.memberApiKey) return 'the member key (--member-api-key or CONFORMANCE_MEMBER_API_KEY)';
  if (sent.organization === 'other' && !c.otherOrganization) return 'the other organization (--other-organization or CONFORMANCE_OTHER_ORGANIZATION)';
  return undefined;
}

function buildOutgoing(def: CassetteDefinition, ids: ReadonlyMap<string, string>, opts: DiffOptions, stream: boolean, multipart?: { body: Uint8Array; contentType: string }): OutgoingRequest {
  const recordedUrl = `${def.scope}${def.path}`;
  // A URL the recording followed (an image) becomes the URL the target returned in its place.
  const mapped = ids.get(recordedUrl);
  const url = mapped ?? `${opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}${substitute(def.path, ids)}`;
  const headers: Record<string, string> = { 'user-agent': 'model-api-conformance' };
  const sent = def.sent ?? { auth: mapped ? 'none' : 'key' };
  const key = sent.auth === 'key' ? opts.credentials.apiKey : sent.auth === 'member-key' ? opts.credentials.memberApiKey : sent.auth === 'other-key' ? INVALID_API_KEY : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  const org = sent.organization === 'default' ? opts.credentials.organization : sent.organization === 'other' ? opts.credentials.otherOrganization : sent.organization === 'another' ? 'org-conformance-unknown' : undefined;
  if (org) headers['service-organization'] = org;
  if (stream) headers.accept = 'text/event-stream';
  let body: Uint8Array | undefined;
  let bodySummary: RequestBodySummary = { kind: 'none' };
  if (multipart !== undefined && def.multipart !== undefined) {
    // Field values may name what the recording created (a file id): re-bound like a JSON body.
    body = multipart.body;
    headers['content-type'] = multipart.contentType;
    bodySummary = { kind: 'multipart', fields: def.multipart.fields, files: def.multipart.files.map(({ text: _t, ...f }) => f) };
  } else if (def.body !== undefined) {
    const text = substitute(typeof def.body === 'string' ? def.body : JSON.stringify(def.body), ids);
    body = Buffer.from(text, 'utf8');
    if (typeof def.body === 'string') { headers['content-type'] = 'text/plain'; bodySummary = { kind: 'text', value: text }; }
    else { headers['content-type'] = 'application/json'; bodySummary = { kind: 'json', value: JSON.parse(text) as unknown }; }
  }
  return { method: def.method.toUpperCase() as OutgoingRequest['method'], url, headers, ...(body ? { body } : {}), bodySummary, stream };
}
