// Build Exchanges and contexts by hand, and run a check over them the way the engine does.

import type { Check, CheckContext, Finding, PlannedRequestView } from '../../src/checks/types.ts';
import type { Exchange, StreamEnd } from '../../src/transport/types.ts';
import { parseSseText } from '../../src/transport/sse.ts';
import { SchemaRegistry } from '../../src/schema/registry.ts';
import { buildProfile } from '../../src/profile/profile.ts';

const schemas = SchemaRegistry.load();
const profile = buildProfile({}, { baseUrl: 'http://127.0.0.1:1' });

export function exchangeOf(body: unknown, opts: { status?: number; headers?: Record<string, string>; text?: string } = {}): Exchange {
  const text = opts.text ?? (body === undefined ? '' : JSON.stringify(body));
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, body: { kind: 'none' } },
    response: { status: opts.status ?? 200, headers: { 'content-type': 'application/json', ...opts.headers }, text, ...(body !== undefined ? { json: body } : {}), bytes: Buffer.from(text), truncated: false },
    attachments: {},
    timing: { startedAt: 0, durationMs: 1 },
  };
}

export function contextOf(request: Partial<PlannedRequestView> = {}, params: Record<string, unknown> = {}, history = new Map<string, Exchange>()): CheckContext {
  return { request: { method: 'POST', path: '/v1/x', query: {}, stream: false, ...request }, profile, vars: {}, schemas, params, history };
}

/** Run a check; stream checks get the SSE text folded event by event, as the live transport does. */
export function runCheck(check: Check, exchange: Exchange, ctx: CheckContext, sse?: { text: string; end?: StreamEnd }): Finding[] {
  if (check.kind === 'response') return check.run(exchange, ctx);
  const parsed = parseSseText(sse?.text ?? '');
  const end: StreamEnd = sse?.end ?? (parsed.doneSeen ? 'done' : 'eof');
  exchange.stream = { sample: parsed.events.slice(0, 20), eventCount: parsed.events.length, end, afterDone: parsed.afterDone, bytes: sse?.text.length ?? 0 };
  const state = check.start(ctx);
  const findings: Finding[] = [];
  parsed.events.forEach((e, i) => findings.push(...(check.event(state, e, i, ctx) ?? [])));
  return [...findings, ...check.end(state, end, exchange, ctx)];
}
