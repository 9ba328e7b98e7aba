// One recorded answer against one received answer: status class, media type, JSON structure (with the
// tolerances of schemas/volatility.yaml) and, for event streams, the framing. Each difference is a finding.

import type { Finding } from '../checks/types.ts';
import type { Volatility } from '../util/volatility.ts';
import { escapeToken } from '../util/pointer.ts';

export interface Answer {
  status: number;
  contentType: string;
  json?: unknown;
  /** For event streams: the events, `[DONE]` included, and whether any carried fields other than data. */
  events?: Array<{ data: string; otherFields: string[] }>;
}

export interface CompareContext {
  volatility: Volatility;
  /** The request had a JSON body: the lengths of /choices, /data, /results are fixed by it. */
  fixesLengths: boolean;
  /** Recorded ids and the target's ids for the same resources, as the diff bound them so far. */
  ids?: ReadonlyMap<string, string>;
}

const mediaType = (ct: string) => ct.split(';')[0]!.trim().toLowerCase();
const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const short = (v: unknown): unknown => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 117)}…` : Array.isArray(v) ? `array(${v.length})` : v !== null && typeof v === 'object' ? 'object' : v);

export function compareAnswers(recorded: Answer, received: Answer, ctx: CompareContext): Finding[] {
  if (Math.floor(recorded.status / 100) !== Math.floor(received.status / 100)) {
    return [{ pointer: '', message: 'another status class', expected: recorded.status, actual: received.status }];
  }
  const findings: Finding[] = [];
  if (mediaType(recorded.contentType) !== mediaType(received.contentType)) {
    findings.push({ pointer: '#headers/content-type', message: 'another media type', expected: mediaType(recorded.contentType) || '(none)', actual: mediaType(received.contentType) || '(none)' });
  }
  if (recorded.events && received.events) findings.push(...compareStreams(recorded.events, received.events, ctx));
  else if (recorded.json !== undefined) {
    if (received.json === undefined) findings.push({ pointer: '', message: 'the recorded answer was JSON, this one is not', expected: 'JSON', actual: mediaType(received.contentType) || 'no body' });
    else compareJson(recorded.json, received.json, '', undefined, ctx, findings);
  }
  return findings;
}

function compareJson(r: unknown, g: unknown, pointer: string, key: string | undefined, ctx: CompareContext, out: Finding[]): void {
  const v = ctx.volatility;
  if (key !== undefined && v.vectors.has(key) && Array.isArray(r) && Array.isArray(g)) return compareVector(r, g, pointer, v.vectors.get(key)!.normTolerance, out);
  const [tr, tg] = [jsonType(r), jsonType(g)];
  const volatile = key !== undefined && v.volatileKeys.has(key);
  if (tr !== tg) {
    // A value that is not there yet on one side (null) is a state, not a shape, for volatile keys.
    if (volatile && (tr === 'null' || tg === 'null')) return;
    out.push({ pointer: pointer || '/', message: 'another JSON type', expected: tr, actual: tg });
    return;
  }
  if (volatile && tr !== 'object' && tr !== 'array') return;
  if (tr === 'object') {
    const ro = r as Record<string, unknown>;
    const go = g as Record<string, unknown>;
    const list = ro.object === 'list';
    for (const k of Object.keys(ro)) {
      if (!(k in go)) out.push({ pointer: `${pointer}/${esc(k)}`, message: 'a key of the recorded answer is missing', expected: short(ro[k]), actual: 'absent' });
      else if (list && k === 'data' && Array.isArray(ro[k]) && Array.isArray(go[k])) compareListItems(ro[k] as unknown[], go[k] as unknown[], `${pointer}/data`, ctx, out);
      else compareJson(ro[k], go[k], `${pointer}/${esc(k)}`, k, ctx, out);
    }
    for (const k of Object.keys(go)) if (!(k in ro)) out.push({ pointer: `${pointer}/${esc(k)}`, message: 'a key the recorded answer did not have', expected: 'absent', actual: short(go[k]) });
    return;
  }
  if (tr === 'array') {
    const [ra, ga] = [r as unknown[], g as unknown[]];
    if (volatile) return;
    if (ctx.fixesLengths && v.fixedLengths.has(pointer) && ra.length !== ga.length) out.push({ pointer, message: 'another number of items, which the request fixes', expected: ra.length, actual: ga.length });
    for (let i = 0; i < Math.min(ra.length, ga.length); i++) compareJson(ra[i], ga[i], `${pointer}/${i}`, undefined, ctx, out);
    return;
  }
  if (tr === 'number') {
    const tolerance = key !== undefined ? v.tolerantNumbers.get(key) : undefined;
    const [a, b] = [r as number, g as number];
    if (tolerance !== undefined) {
      if (Math.abs(a - b) > tolerance * Math.max(Math.abs(a), 1)) out.push({ pointer, message: `differs by more than ${Math.round(tolerance * 100)}%`, expected: a, actual: b });
    } else if (v.compareOtherNumbers && a !== b) out.push({ pointer, message: 'another value', expected: a, actual: b });
    return;
  }
  // Absolute URLs name the target they came from: two targets differ in origin, so only the rest is compared.
  if (tr === 'string' && urlPath(r as string) !== undefined && urlPath(g as string) !== undefined) {
    if (urlPath(r as string) !== urlPath(g as string)) out.push({ pointer, message: 'a URL with another path', expected: short(r), actual: short(g) });
    return;
  }
  if (r !== g) out.push({ pointer, message: 'another value', expected: short(r), actual: short(g) });
}

/** What names a list item: its id (a resource), else its index (an embedding); else nothing, and position decides. */
function identityOf(item: unknown): { by: 'id' | 'index'; value: string | number } | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const o = item as Record<string, unknown>;
  if (typeof o.id === 'string') return { by: 'id', value: o.id };
  if (typeof o.index === 'number') return { by: 'index', value: o.index };
  return undefined;
}

/**
 * The items of a list (`{"object": "list", "data": [...]}`) are paired by what names them, not by their place: the
 * spec states no order for a list, and a target may hold resources of its own (jobs of an earlier run, the user's
 * files). What the diff itself created (a recorded id it bound to the target's) must be in the list; what the
 * recording found there is compared when the target lists it too, and the target's other items are not a
 * difference. Items that nothing names (fine-tune events) are compared in order.
 */
function compareListItems(ra: unknown[], ga: unknown[], pointer: string, ctx: CompareContext, out: Finding[]): void {
  const named = ra.map(identityOf);
  if (ra.length === 0 || named.some((n) => n === undefined)) {
    compareJson(ra, ga, pointer, 'data', ctx, out);
    return;
  }
  if (ctx.fixesLengths && ctx.volatility.fixedLengths.has(pointer) && ra.length !== ga.length) out.push({ pointer, message: 'another number of items, which the request fixes', expected: ra.length, actual: ga.length });
  const byName = new Map<string, number>();
  ga.forEach((g, j) => { const n = identityOf(g); if (n) byName.set(`${n.by}:${n.value}`, j); });
  named.forEach((n, i) => {
    const bound = n!.by === 'id' ? ctx.ids?.get(n!.value as string) : undefined;
    const want = bound ?? n!.value;
    const j = byName.get(`${n!.by}:${want}`);
    if (j === undefined && n!.by === 'id' && bound === undefined) return; // the recording's account held it, not the diff
    if (j === undefined) out.push({ pointer: `${pointer}/${i}`, message: `a recorded item (${n!.by} ${String(n!.value)}) is not in the list`, expected: want, actual: 'absent' });
    else compareJson(ra[i], ga[j], `${pointer}/${i}`, undefined, ctx, out);
  });
}

function urlPath(s: string): string | undefined {
  if (!/^https?:\/\//.test(s)) return undefined;
  try { const u = new URL(s); return u.pathname + u.search; } catch { return undefined; }
}

function compareVector(r: unknown[], g: unknown[], pointer: string, tolerance: number, out: Finding[]): void {
  if (r.length !== g.length) { out.push({ pointer, message: 'another dimension', expected: r.length, actual: g.length }); return; }
  const norm = (xs: unknown[]) => Math.sqrt(xs.reduce<number>((s, x) => s + (typeof x === 'number' ? x * x : 0), 0));
  const [nr, ng] = [norm(r), norm(g)];
  if (Math.abs(nr - ng) > tolerance * Math.max(nr, 1)) out.push({ pointer, message: 'another norm', expected: Number(nr.toFixed(6)), actual: Number(ng.toFixed(6)) });
}

const isDone = (e: { data: string }) => e.data.trim() === '[DONE]';

function parseChunk(e: { data: string } | undefined): unknown {
  if (e === undefined) return undefined;
  try { return JSON.parse(e.data); } catch { return undefined; }
}

function compareStreams(recorded: NonNullable<Answer['events']>, received: NonNullable<Answer['events']>, ctx: CompareContext): Finding[] {
  const out: Finding[] = [];
  const [rDone, gDone] = [recorded.length > 0 && isDone(recorded[recorded.length - 1]!), received.length > 0 && isDone(received[received.length - 1]!)];
  if (rDone && !gDone) out.push({ pointer: '#events', message: 'the stream does not end with data: [DONE]', expected: '[DONE] last', actual: received.length ? short(received[received.length - 1]!.data) : 'no event' });
  if (!rDone && gDone) out.push({ pointer: '#events', message: 'the stream ends with data: [DONE], the recorded one did not', expected: 'no [DONE]', actual: '[DONE] last' });
  const fields = (es: typeof recorded) => [...new Set(es.flatMap((e) => e.otherFields))].sort();
  const [rf, gf] = [fields(recorded), fields(received)];
  if (rf.join() !== gf.join()) out.push({ pointer: '#events', message: 'other fields than data in the events', expected: rf.length ? rf : 'data only', actual: gf.length ? gf : 'data only' });
  const chunks = (es: typeof recorded) => es.filter((e) => !isDone(e));
  const [rc, gc] = [chunks(recorded), chunks(received)];
  // The shape of the first and the last chunk: what a client parses at the start and at the end.
  for (const [label, r, g] of [['0', rc[0], gc[0]], ['last', rc[rc.length - 1], gc[gc.length - 1]]] as const) {
    const [rj, gj] = [parseChunk(r), parseChunk(g)];
    if (rj === undefined || gj === undefined) continue;
    compareJson(rj, gj, `#events/${label}`, undefined, { ...ctx, fixesLengths: true }, out);
  }
  return out;
}

function esc(key: string): string {
  return escapeToken(key);
}
