// Table-driven check tests: build Exchanges and contexts by hand, run a registered check the way the
// engine does (skipWhen, then run or the stream fold), and assert pass, fail or skip per row.

import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.ts';
import { parseSseText } from '../../src/transport/sse.ts';
import type { Check, CheckContext, Finding, PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange, SseEvent, StreamEnd } from '../../src/transport/types.ts';
import { buildProfile } from '../../src/profile/profile.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';

const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'http://127.0.0.1:1' });

export function ctxOf(request: Partial<PlannedRequestView> & { json?: unknown } = {}, params: Record<string, unknown> = {}, history: Map<string, Exchange> = new Map()): CheckContext {
  return {
    request: { method: 'POST', path: '/v1/completions', query: {}, stream: false, ...request },
    profile,
    vars: {},
    schemas,
    params,
    history,
  };
}

export function exchangeOf(json: unknown, status = 200, headers: Record<string, string> = { 'content-type': 'application/json' }): Exchange {
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, body: { kind: 'none' } },
    response: { status, headers, json, text: JSON.stringify(json), truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 0 },
  };
}

/** A streamed exchange: each string is the data of one event; `[DONE]` is added unless told otherwise. */
export function streamOf(chunks: Array<unknown>, opts: { done?: boolean; detail?: string; end?: StreamEnd } = {}): { exchange: Exchange; events: SseEvent[] } {
  const data = chunks.map((c) => (typeof c === 'string' ? c : JSON.stringify(c)));
  if (opts.done !== false) data.push('[DONE]');
  const events: SseEvent[] = data.map((d, i) => ({ data: d, otherFields: [], offset: i }));
  const exchange: Exchange = {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, body: { kind: 'none' } },
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, truncated: false },
    stream: { sample: events, eventCount: events.length, end: opts.end ?? (opts.done === false ? 'eof' : 'done'), afterDone: '', bytes: 0, ...(opts.detail ? { detail: opts.detail } : {}) },
    attachments: {},
    timing: { startedAt: 0, durationMs: 0 },
  };
  return { exchange, events };
}

import { isNotExercised } from '../../src/checks/types.ts';

export type Outcome = { skip: string } | { findings: Finding[] } | { notExercised: string };

export function runCheck(check: Check, exchange: Exchange, ctx: CheckContext, events: SseEvent[] = []): Outcome {
  const skip = check.skipWhen?.(exchange, ctx);
  if (skip) return { skip };
  if (check.kind === 'response') {
    const verdict = check.run(exchange, ctx);
    return isNotExercised(verdict) ? verdict : { findings: verdict };
  }
  const state = check.start(ctx);
  const findings: Finding[] = [];
  events.forEach((e, i) => findings.push(...(check.event(state, e, i, ctx) ?? [])));
  const end = check.end(state, exchange.stream?.end ?? 'eof', exchange, ctx);
  if (isNotExercised(end) && findings.length === 0) return end;
  findings.push(...(isNotExercised(end) ? [] : end));
  return { findings };
}

/** A registered check by name: the tables name the rule, and the lookup proves it is registered. */
export function c(name: string): Check {
  const check = defaultRegistry().get(name);
  if (!check) throw new Error(`no registered check named ${name}`);
  return check;
}

export interface Row { name: string; check: Check; exchange: Exchange; ctx?: CheckContext; events?: SseEvent[]; expect: 'pass' | 'fail' | 'skip' | 'not-exercised' }

export function outcomeOf(row: Row): Row['expect'] {
  const o = runCheck(row.check, row.exchange, row.ctx ?? ctxOf(), row.events);
  return 'skip' in o ? 'skip' : 'notExercised' in o ? 'not-exercised' : o.findings.length ? 'fail' : 'pass';
}

export function describeRows(title: string, rows: Row[]): void {
  describe(title, () => {
    it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
      expect(outcomeOf(row)).toBe(row.expect);
    });
  });
}

/** A streamed exchange from raw SSE text, parsed by the harness's own parser (for field-level stream rules). */
export function sseOf(text: string, opts: { headers?: Record<string, string>; end?: StreamEnd } = {}): { exchange: Exchange; events: SseEvent[] } {
  const parsed = parseSseText(text);
  const exchange: Exchange = {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, body: { kind: 'none' } },
    response: { status: 200, headers: opts.headers ?? { 'content-type': 'text/event-stream' }, truncated: false },
    stream: { sample: parsed.events.slice(0, 20), eventCount: parsed.events.length, end: opts.end ?? (parsed.doneSeen ? 'done' : 'eof'), afterDone: parsed.afterDone, bytes: text.length },
    attachments: {},
    timing: { startedAt: 0, durationMs: 0 },
  };
  return { exchange, events: parsed.events };
}

/** The findings of a check that does not skip (throws if it skips: a test row that skips is a mistake). */
export function findingsOf(check: Check, exchange: Exchange, ctx: CheckContext, events: SseEvent[] = []): Finding[] {
  const o = runCheck(check, exchange, ctx, events);
  if ('skip' in o) throw new Error(`${check.name} skipped: ${o.skip}`);
  return 'findings' in o ? o.findings : [];
}

/** One row of an area's check table: a request and its exchange, and what the check must make of them. */
export interface TableCase {
  check: string;
  title: string;
  request: PlannedRequestView;
  exchange: Exchange;
  params?: Record<string, unknown>;
  history?: Record<string, Exchange>;
  outcome: 'pass' | 'fail' | 'skip' | 'not-exercised';
}

/** Run every row, and require each of the area's checks to have at least one passing and one failing row. */
export function describeCheckTable(area: string, checks: readonly Check[], cases: readonly TableCase[]): void {
  describe(`${area} checks`, () => {
    it.each(cases)('$check — $title → $outcome', (row) => {
      const check = checks.find((k) => k.name === row.check);
      if (!check) throw new Error(`no ${area} check named ${row.check}`);
      const o = runCheck(check, row.exchange, ctxOf(row.request, row.params ?? {}, new Map(Object.entries(row.history ?? {}))));
      expect('skip' in o ? 'skip' : 'notExercised' in o ? 'not-exercised' : o.findings.length ? 'fail' : 'pass').toBe(row.outcome);
    });

    it(`every registered ${area} check has a passing and a failing case`, () => {
      for (const check of checks) {
        expect(cases.some((c) => c.check === check.name && c.outcome === 'pass'), check.name).toBe(true);
        expect(cases.some((c) => c.check === check.name && c.outcome === 'fail'), check.name).toBe(true);
      }
    });
  });
}
