// One fuzz case: patch the endpoint's base request, send it through the run's transport, and judge the
// response — a reject case must be refused with a 4xx; an accept case must be a 2xx that satisfies the
// endpoint's resource schema and its registered invariant checks (reused through evaluateCase).

import type { ProgrammaticContext } from '../engine/programmatic.ts';
import type { CheckRegistry } from '../checks/registry.ts';
import type { CheckContext, Finding } from '../checks/types.ts';
import { isRefusal } from '../checks/expectations.ts';
import { judge } from '../judge/judge.ts';
import { buildRequest, RequestBuildError } from '../engine/request.ts';
import { answersTheSameTwice, RESOURCES } from '../engine/resources.ts';
import { builtinScope } from '../engine/index.ts';
import { render, TemplateError } from '../suite/template.ts';
import type { CaseSpec, RequestSpec } from '../suite/types.ts';
import type { Exchange } from '../transport/types.ts';
import { resolvePointer } from '../util/pointer.ts';
import { ENDPOINTS, type EndpointId, type EndpointSpec } from './limits.ts';
import { applyPatches } from './patch.ts';
import { BASELINES } from './baseline.ts';
import type { FuzzProperty } from './properties.ts';
import { isSuccess } from '../util/status.ts';

/** What a property needs: the run's context (transport, profile, registries, seed, signal) and its own state. */
export interface FuzzEnv extends Pick<ProgrammaticContext, 'transport' | 'profile' | 'registry' | 'schemas' | 'seed' | 'signal'> {
  /** Per-request timeout: never longer than a property's budget, so a slow target cannot stall the run. */
  timeoutMs: number;
  /** Template scope: the built-in variables plus `fuzz.*` (uploaded training files). */
  scope: Record<string, unknown>;
  /** Registered invariant checks per endpoint (computed once). */
  invariants: Map<EndpointId, string[]>;
  /** Invariant checks that could not be evaluated on fuzz cases (they need case parameters); left out from then on. */
  unusable: Set<string>;
  /** Cases sent, for throughput figures. */
  cases: number;
}

export interface CaseOutcome {
  ok: boolean;
  /** The rendered request as sent. */
  request?: RequestSpec;
  exchange?: Exchange;
  status?: number;
  problems: Finding[];
  /** The run was interrupted: the case says nothing. */
  aborted?: boolean;
  /** The request could not be built (a harness or profile problem, not a finding about the target). */
  buildError?: string;
  /** The rules the problems break, when that is not the property's own (a body of the wrong shape breaks the body's rule). */
  cites?: string[];
  /**
   * The request ran out of the fuzz cap on a request (the property's budget, shorter than --timeout): the target
   * got less time than a suite's case gives it, so the case says nothing about the rule. Why, in one line.
   */
  unanswered?: string;
}

export function createEnv(init: Omit<FuzzEnv, 'scope' | 'invariants' | 'unusable' | 'cases'> & { extraScope?: Record<string, unknown> }): FuzzEnv {
  const { extraScope, ...rest } = init;
  const invariants = new Map<EndpointId, string[]>();
  for (const endpoint of Object.values(ENDPOINTS)) invariants.set(endpoint.id, invariantChecks(init.registry, endpoint));
  return { ...rest, scope: { ...builtinScope(init.profile, init.seed), ...extraScope }, invariants, unusable: new Set(), cases: 0 };
}

/** Registered response checks (severity must) whose every requirement belongs to the endpoint. */
export function invariantChecks(registry: CheckRegistry, endpoint: EndpointSpec): string[] {
  return registry
    .all()
    .filter((c) => c.kind === 'response' && c.severity === 'must' && c.requirements.every((r) => endpoint.requirementPrefixes.some((p) => r.startsWith(p))))
    .map((c) => c.name);
}

export function schemaFor(endpoint: EndpointSpec, request: RequestSpec): string | undefined {
  const s = endpoint.schema;
  if (s === null) return undefined;
  if (typeof s === 'string') return s;
  const raw = request.multipart?.fields?.[s.byField] ?? (request.json as Record<string, unknown> | undefined)?.[s.byField];
  if (raw === undefined) return s.default;
  const v = s.values[String(raw)];
  return v === null ? undefined : (v ?? s.default);
}

export async function runCase(env: FuzzEnv, prop: FuzzProperty, value: unknown): Promise<CaseOutcome> {
  const endpoint = ENDPOINTS[prop.endpoint];
  let request: RequestSpec;
  let built: ReturnType<typeof buildRequest>;
  try {
    request = render(applyPatches(endpoint.base, prop.side.patches(value)), env.scope) as RequestSpec;
    built = buildRequest(request, env.profile, `fuzz/${prop.name}`);
  } catch (e) {
    if (e instanceof TemplateError || e instanceof RequestBuildError) {
      return { ok: false, buildError: e.message, problems: [{ pointer: '', message: `cannot build the request: ${e.message}` }] };
    }
    throw e;
  }
  env.cases++;
  // Not aborted by an interrupt: the request finishes (bounded by its timeout), so what it creates is undone below.
  // Sent again on a new connection if its first was reset unanswered, unless a second would be answered otherwise.
  const resendOnReset = answersTheSameTwice(built.outgoing.method, built.view.path);
  const exchange = await env.transport.send(built.outgoing, { timeoutMs: env.timeoutMs, idleTimeoutMs: env.timeoutMs, resendOnReset });
  const status = exchange.response?.status;
  if (env.signal?.aborted) {
    if (isSuccess(status)) await cleanUp(env, endpoint, exchange);
    return { ok: true, aborted: true, request, exchange, problems: [] };
  }
  const base = { request, exchange, ...(status !== undefined ? { status } : {}) };
  // Cut at the cap: not judged while what it needs never came. A status that did come is judged, though: a reject
  // property's 2xx (or 5xx) is the violation whatever the body; an accept property's 2xx needs its body.
  const success = isSuccess(status);
  if (exchange.error?.kind === 'timeout' && env.timeoutMs < env.profile.timeouts.requestMs && (status === undefined || (success && prop.expect === 'accept'))) {
    if (success) await cleanUp(env, endpoint, exchange);
    return { ...base, ok: true, problems: [], unanswered: `${exchange.error.message} (the fuzz cap on a request; --timeout is ${env.profile.timeouts.requestMs} ms)` };
  }
  if (status === undefined) {
    return { ...base, ok: false, problems: [{ pointer: '', message: `no response: ${exchange.error?.message ?? 'unknown transport error'}`, expected: prop.expect === 'reject' ? '4xx' : '2xx', actual: exchange.error?.kind ?? 'no response' }] };
  }
  if (isSuccess(status)) await cleanUp(env, endpoint, exchange);

  if (prop.expect === 'reject') {
    if (isRefusal(status, exchange.response?.json)) return { ...base, ok: true, problems: [] };
    const message = status < 300 ? 'accepted although a parameter is outside its limit' : status >= 500 ? 'a server error without an error body is no refusal: the request crashed the server' : `status ${status} is not a rejection`;
    return { ...base, ok: false, problems: [{ pointer: '', message, expected: '4xx', actual: status }] };
  }

  if (status < 200 || status >= 300) {
    return { ...base, ok: false, problems: [{ pointer: '', message: `rejected a request whose parameters are within their limits: ${errorMessage(exchange)}`, expected: '2xx', actual: status }] };
  }
  const cites = new Set<string>();
  const problems = invariantProblems(env, prop, endpoint, request, built.view, exchange, cites);
  return { ...base, ok: problems.length === 0, problems, ...(cites.size ? { cites: [...cites] } : {}) };
}

function invariantProblems(env: FuzzEnv, prop: FuzzProperty, endpoint: EndpointSpec, request: RequestSpec, view: CheckContext['request'], exchange: Exchange, cites: Set<string>): Finding[] {
  const problems: Finding[] = [];
  if (exchange.error) problems.push({ pointer: '', message: exchange.error.message, expected: 'a complete response', actual: exchange.error.kind });
  const schema = schemaFor(endpoint, request);
  const checks = (env.invariants.get(endpoint.id) ?? []).filter((n) => !env.unusable.has(n));
  if (schema || checks.length) {
    const c: CaseSpec = { id: prop.name, title: prop.title, requirements: prop.requirements, request, expect: { ...(schema ? { schema } : {}), checks } };
    const ctxFor = (): CheckContext => ({ request: view, profile: env.profile, vars: env.scope, schemas: env.schemas, params: {}, history: new Map() });
    const { results } = judge(exchange, { suite: `fuzz-${endpoint.area}`, case: c, source: '(fuzz)', reproduce: '' }, { registry: env.registry, ctxFor, folds: [], schemas: env.schemas });
    for (const r of results) {
      if (r.status === 'error' && r.check !== 'schema' && r.check !== 'transport') {
        env.unusable.add(r.check);
        continue;
      }
      if (r.status === 'fail' || r.status === 'error') {
        // The body's shape is the body's rule; an invariant check's failure is that check's rule.
        for (const id of r.check === 'schema' || r.check === 'transport' ? [BASELINES[endpoint.id].resource] : r.requirements) cites.add(id);
        const first = r.findings?.[0];
        problems.push({ pointer: first?.pointer ?? '', message: `${r.check} (${r.requirements.join(', ')}): ${r.message}`, ...(first && 'expected' in first ? { expected: first.expected } : {}), ...(first && 'actual' in first ? { actual: first.actual } : {}) });
      }
    }
  }
  if (endpoint.count) {
    const n = Number(request.multipart?.fields?.[endpoint.count.field] ?? (request.json as Record<string, unknown> | undefined)?.[endpoint.count.field] ?? 1);
    const items = resolvePointer(exchange.response?.json, endpoint.count.pointer);
    const prompts = endpoint.id === 'completions' ? promptCount((request.json as Record<string, unknown>).prompt) : 1;
    if (Array.isArray(items) && items.length !== n * prompts) {
      cites.add(endpoint.count.requirement);
      problems.push({ pointer: endpoint.count.pointer, message: `${endpoint.count.requirement}: ${endpoint.count.pointer} must hold one item per requested ${endpoint.count.field}`, expected: n * prompts, actual: items.length });
    }
  }
  return problems;
}

function promptCount(prompt: unknown): number {
  if (Array.isArray(prompt) && prompt.length > 0 && prompt.every((p) => typeof p === 'string' || Array.isArray(p))) return prompt.length;
  return 1;
}

function errorMessage(exchange: Exchange): string {
  const json = exchange.response?.json as { error?: { message?: unknown } } | undefined;
  const m = json?.error?.message;
  const text = typeof m === 'string' ? m : (exchange.response?.text ?? '');
  return text.length > 200 ? text.slice(0, 200) + '…' : text || '(empty body)';
}

/** Accepted requests that created something (a file, a fine-tune job) are undone at once. */
async function cleanUp(env: FuzzEnv, endpoint: EndpointSpec, exchange: Exchange): Promise<void> {
  if (!endpoint.creates) return;
  const id = (exchange.response?.json as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return;
  const spec: RequestSpec = RESOURCES[endpoint.creates].undo(id);
  await env.transport.send(buildRequest(spec, env.profile, 'fuzz/cleanup').outgoing, { timeoutMs: env.timeoutMs });
}
