// Inline assertions (`expect.assert` in a suite): a closed grammar — subject → selector → predicates — turned into
// a check like every other, so it is gated, blocked, reported and counted like the registered checks. A body
// assertion judges the answer; an `events` or `assembled` assertion folds the stream as it arrives (bounded).

import { jsonPathLib } from '../../util/lazy-modules.ts';
import type { Assertion, Predicates } from '../../suite/types.ts';
import type { Exchange, SseEvent } from '../../transport/types.ts';
import { resolvePointer, escapeToken } from '../../util/pointer.ts';
import { jsonType } from '../../util/json-type.ts';
import type { Check, CheckVerdict, Finding } from '../types.ts';
import { eventJson } from '../stream/event-json.ts';

/** Events kept for `subject: events` (a stream longer than this is judged on its first events, and says so). */
const MAX_EVENTS = 10_000;
/** Characters kept for `subject: assembled`. */
const MAX_ASSEMBLED = 1_000_000;

/** The check of one assertion; `where` is its `file:line:col`, shown in every failure. */
export function assertionCheck(a: Assertion, index: number, where: string, requirements: readonly string[]): Check {
  const name = `assert[${index + 1}]`;
  const summary = `${describeSelector(a)}: ${describePredicates(a)}`;
  const base = { name, requirements, severity: a.severity ?? 'must', summary, appliesTo: 'any' } as const;
  const subject = a.subject ?? 'body';
  if (subject === 'body') {
    return {
      ...base,
      kind: 'response',
      run: (ex: Exchange): CheckVerdict => {
        const json = ex.response?.json;
        if (json === undefined) return [{ pointer: '', message: `the body is not JSON, so ${describeSelector(a)} cannot be read (${where})`, expected: 'a JSON body', actual: (ex.response?.text ?? '').slice(0, 120) }];
        return judge(a, json, where);
      },
    };
  }
  interface Fold { events: unknown[]; text: string; dropped: number }
  return {
    ...base,
    kind: 'stream',
    start: (): Fold => ({ events: [], text: '', dropped: 0 }),
    event: (s: Fold, e: SseEvent): void => {
      if (e.data === '[DONE]') return;
      let parsed: unknown;
      try {
        parsed = eventJson(e);
      } catch {
        parsed = e.data;
      }
      if (subject === 'events') {
        if (s.events.length < MAX_EVENTS) s.events.push(parsed);
        else s.dropped++;
      } else if (s.text.length < MAX_ASSEMBLED) {
        s.text += textOf(parsed);
      }
    },
    end: (s: Fold): CheckVerdict => {
      const findings = judge(a, subject === 'events' ? s.events : s.text, where);
      if (s.dropped > 0) findings.forEach((f) => (f.message += ` (judged on the first ${MAX_EVENTS} events of ${MAX_EVENTS + s.dropped})`));
      return findings;
    },
  };
}

/** The text a completion chunk (choices[].text) or a chat chunk (choices[].delta.content) adds. */
function textOf(chunk: unknown): string {
  const choices = (chunk as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return '';
  let out = '';
  for (const c of choices) {
    const o = c as { text?: unknown; delta?: { content?: unknown } };
    if (typeof o?.text === 'string') out += o.text;
    else if (typeof o?.delta?.content === 'string') out += o.delta.content;
  }
  return out;
}

function judge(a: Assertion, subject: unknown, where: string): Finding[] {
  const pointer = a.pointer ?? a.path ?? '';
  let value: unknown;
  // A JSONPath selects nodes: each has a JSON pointer of its own, which an `every` failure names.
  let itemPointer: ((i: number) => string) | undefined;
  if (a.path !== undefined) {
    try {
      const nodes: unknown[] = [];
      const pointers: string[] = [];
      jsonPathLib().exec(subject as never, a.path, (v: unknown, path: ReadonlyArray<string | number>) => { nodes.push(v); pointers.push(toPointer(path)); });
      value = nodes;
      itemPointer = (i) => pointers[i] ?? `${a.path}[${i}]`;
    } catch (e) {
      return [{ pointer, message: `the JSONPath ${a.path} cannot be evaluated: ${(e as Error).message} (${where})`, expected: 'a valid RFC 9535 path', actual: a.path }];
    }
  } else value = a.pointer !== undefined ? resolvePointer(subject, a.pointer) : subject;
  const present = a.path !== undefined ? (value as unknown[]).length > 0 : value !== undefined;
  return failures(a, value, present, a.pointer ?? '', itemPointer).map((f) => ({
    pointer: f.pointer ?? pointer,
    message: `${f.rule} (${where})`,
    expected: f.expected,
    actual: f.actual ?? shown(value, present),
  }));
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function toPointer(path: ReadonlyArray<string | number>): string {
  return path.map((k) => `/${escapeToken(k)}`).join('');
}

/** A predicate that does not hold. `actual`, when given, is what it measured (a length, a count, an item) rather than the value itself; `pointer`, where (an item of `every`). */
interface Failed { expected: unknown; rule: string; actual?: unknown; pointer?: string }

/** Each predicate that does not hold, with what it expected. `at` is the value's pointer; `itemAt`, its items' (a JSONPath's nodes). */
function failures(p: Predicates, value: unknown, present: boolean, at: string, itemAt: (i: number) => string = (i) => `${at}/${i}`): Failed[] {
  const out: Failed[] = [];
  const fail = (rule: string, expected: unknown, actual?: string) => out.push({ rule, expected, ...(actual !== undefined ? { actual } : {}) });
  if (p.exists !== undefined && present !== p.exists) fail(p.exists ? 'is missing' : 'must be absent', p.exists ? 'present' : 'absent');
  if (p.equals !== undefined && !deepEqual(value, p.equals)) fail(`does not equal ${show(p.equals)}`, p.equals);
  if (p.not_equals !== undefined && deepEqual(value, p.not_equals)) fail(`must not equal ${show(p.not_equals)}`, `not ${show(p.not_equals)}`);
  if (p.matches !== undefined && (typeof value !== 'string' || !new RegExp(p.matches).test(value))) fail(`does not match /${p.matches}/`, `/${p.matches}/`);
  if (p.type !== undefined && !(jsonType(value) === p.type || (p.type === 'number' && jsonType(value) === 'integer'))) fail(`is not of type ${p.type}`, p.type);
  if (p.contains !== undefined && !(Array.isArray(value) ? value.some((v) => deepEqual(v, p.contains)) : typeof value === 'string' && typeof p.contains === 'string' && value.includes(p.contains))) fail(`does not contain ${show(p.contains)}`, `contains ${show(p.contains)}`);
  const length = typeof value === 'string' || Array.isArray(value) ? value.length : undefined;
  const measured = `length ${length ?? 'none'}`;
  if (p.length !== undefined && length !== p.length) fail(`has length ${length ?? 'none'}, not ${p.length}`, `length ${p.length}`, measured);
  if (p.min_length !== undefined && (length === undefined || length < p.min_length)) fail(`is shorter than ${p.min_length}`, `length ≥ ${p.min_length}`, measured);
  if (p.max_length !== undefined && (length === undefined || length > p.max_length)) fail(`is longer than ${p.max_length}`, `length ≤ ${p.max_length}`, measured);
  const n = typeof value === 'number' ? value : undefined;
  for (const [key, op, test] of [['gt', '>', (a: number, b: number) => a > b], ['gte', '≥', (a: number, b: number) => a >= b], ['lt', '<', (a: number, b: number) => a < b], ['lte', '≤', (a: number, b: number) => a <= b]] as const) {
    const bound = p[key];
    if (bound !== undefined && (n === undefined || !test(n, bound))) fail(`is not ${op} ${bound}`, `${op} ${bound}`);
  }
  if (p.in !== undefined && !p.in.some((v) => deepEqual(v, value))) fail(`is not one of ${show(p.in)}`, p.in);
  if (p.every !== undefined) {
    if (!Array.isArray(value)) fail('is not an array, so "every" cannot hold', 'an array');
    else value.forEach((item, i) => failures(p.every!, item, item !== undefined, itemAt(i)).forEach((f) => out.push({ rule: `item ${i} ${f.rule}`, expected: f.expected, actual: f.actual ?? shown(item, item !== undefined), pointer: f.pointer ?? itemAt(i) })));
  }
  if (p.count !== undefined) {
    if (!Array.isArray(value)) fail('is not an array, so its items cannot be counted', 'an array');
    else failures(p.count, value.length, true, at).forEach((f) => fail(`count ${value.length} ${f.rule.replace(/^is /, 'is ')}`, f.expected, `count ${value.length}`));
  }
  return out.slice(0, 20);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0))) : x)) ?? 'undefined';
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function shown(value: unknown, present: boolean): unknown {
  if (!present) return 'absent';
  const s = JSON.stringify(value);
  return s !== undefined && s.length > 400 ? `${s.slice(0, 397)}...` : value;
}

function describeSelector(a: Assertion): string {
  const subject = a.subject ?? 'body';
  const at = a.pointer !== undefined ? ` at ${a.pointer || '(root)'}` : a.path !== undefined ? ` ${a.path}` : '';
  return `${subject === 'body' ? 'the body' : subject === 'events' ? 'the stream events' : 'the assembled stream text'}${at}`;
}

function describePredicates(p: Predicates): string {
  const keys = Object.keys(p).filter((k) => !['subject', 'pointer', 'path', 'severity'].includes(k));
  return keys.map((k) => `${k} ${show((p as Record<string, unknown>)[k])}`).join(', ');
}
