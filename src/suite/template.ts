// `{{ expr }}` templates. A string that is exactly one template keeps the value's type
// (so `max_tokens: "{{context.completion}}"` sends a number). Expressions are a tiny closed grammar:
//   expr := term (("+" | "-") term)*
//   term := number | 'string' | "string" | name(args) | path
//   path := ident ("." (ident | digits))*
// Functions are a fixed table, so a suite cannot run code.

import { nearest } from './errors.ts';

const TEMPLATE = /\{\{\s*(.*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*(.*?)\s*\}\}$/s;

export type Scope = Readonly<Record<string, unknown>>;

export class TemplateError extends Error {}

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  /** repeat('ab', 3) → 'ababab' */
  repeat: (s, n) => String(s).repeat(toCount(n)),
  /** range(3) → [0, 1, 2] */
  range: (n) => Array.from({ length: toCount(n) }, (_, i) => i),
  /** fill(3, 'x') → ['x', 'x', 'x'] */
  fill: (n, v) => Array.from({ length: toCount(n) }, () => v),
  /** words(3) → 'w0 w1 w2': n distinct space-separated words */
  words: (n) => Array.from({ length: toCount(n) }, (_, i) => `w${i}`).join(' '),
  len: (v) => (typeof v === 'string' || Array.isArray(v) ? v.length : 0),
  /**
   * middle(text) → a piece from the middle of an observed text, for calibrated probes: the word nearest the
   * middle with its leading space (' green' of 'red green blue'), or the middle third of a text without spaces.
   * Its first occurrence lies strictly inside the text, so a stop sequence taken from it is one the target
   * itself generates, and something comes before it.
   */
  middle: (v) => middleOf(String(v)),
  json: (v) => JSON.stringify(v),
  /** half(24) → 12: half an observed count, at least 1 (calibrated limits). */
  half: (n) => Math.max(1, Math.floor(toCount(n) / 2)),
};

export function middleOf(text: string): string {
  if (text.trim().length < 3) throw new TemplateError(`middle(): the observed text ${JSON.stringify(text)} is too short to take a probe from`);
  const words = [...text.matchAll(/ +[^ ]+/g)].filter((m) => m.index! > 0 && text.indexOf(m[0]) === m.index);
  if (words.length > 0) {
    const mid = text.length / 2;
    const best = words.reduce((a, b) => (Math.abs(b.index! - mid) < Math.abs(a.index! - mid) ? b : a));
    return best[0];
  }
  const third = Math.max(1, Math.floor(text.length / 3));
  for (let start = third; start + third <= text.length; start++) {
    const piece = text.slice(start, start + third);
    if (text.indexOf(piece) === start) return piece;
  }
  throw new TemplateError(`middle(): no piece of ${JSON.stringify(text.slice(0, 40))} occurs first in its middle`);
}

function toCount(n: unknown): number {
  const v = Number(n);
  if (!Number.isInteger(v) || v < 0 || v > 10_000_000) throw new TemplateError(`expected a count, got ${JSON.stringify(n)}`);
  return v;
}

/** Whether a plan value holds any template, computed once per object (plans are never mutated). */
const templated = new WeakMap<object, boolean>();
export function holdsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (value === null || typeof value !== 'object') return false;
  let known = templated.get(value);
  if (known === undefined) {
    // Plan values are JSON data, and JSON writes `{` as it is: the text holds `{{` exactly when a string or a key
    // does. One call to V8's serialiser, instead of a walk that a short run executes mostly unoptimised.
    let text: string | undefined;
    try { text = JSON.stringify(value); } catch { /* not JSON data (a cycle): walked below */ }
    known = text !== undefined ? text.includes('{{') : Array.isArray(value) ? value.some(holdsTemplate) : Object.entries(value).some(([k, v]) => k.includes('{{') || holdsTemplate(v));
    templated.set(value, known);
  }
  return known;
}

/** Render every template inside a value (deeply). A value without templates is returned as it is. */
export function render(value: unknown, scope: Scope): unknown {
  if (!holdsTemplate(value)) return value;
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((v) => render(v, scope));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[renderString(k, scope) as string] = render(v, scope);
    return out;
  }
  return value;
}

export function renderString(text: string, scope: Scope): unknown {
  const whole = WHOLE.exec(text);
  if (whole) return evaluate(whole[1]!, scope);
  if (!text.includes('{{')) return text;
  return text.replace(TEMPLATE, (_, expr: string) => {
    const v = evaluate(expr, scope);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

/**
 * A request path: a template that makes up a whole segment (`/v1/models/{{id}}`) is a path parameter, percent-encoded
 * as one segment (a model id `owner/name` is one parameter, not two segments). Any other template (a whole path, a
 * query added to a segment) is taken as written.
 */
export function renderPath(text: string, scope: Scope): string {
  const whole = WHOLE.exec(text);
  if (whole) return String(evaluate(whole[1]!, scope));
  if (!text.includes('{{')) return text;
  return text.split('/').map((segment) => {
    const parameter = WHOLE.exec(segment);
    if (parameter) return encodeSegment(asText(evaluate(parameter[1]!, scope)));
    return segment.includes('{{') ? String(renderString(segment, scope)) : segment;
  }).join('/');
}

function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Percent-encodes what a path segment cannot hold (`/ ? #`, `%`, spaces, non-ASCII), and nothing more: `:` and
 * `@` and the sub-delimiters are allowed in a segment (RFC 3986 3.3), and an encoded one is not the same URI, so a
 * fine-tuned model name (`curie:ft-acme-…`) goes out as written.
 */
function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/%(3A|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi, (m) => decodeURIComponent(m));
}

/** Root names an expression reads, for checking a suite before running it. */
export function referencedNames(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(TEMPLATE)) {
        const tokens = tokenize(m[1]!);
        tokens.forEach((t, i) => {
          const next = tokens[i + 1];
          const isCall = next?.kind === 'punct' && next.text === '(';
          if (t.kind === 'ident' && t.root && !isCall) names.add(t.text);
        });
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) { visit(k); visit(x); }
  };
  visit(value);
  return [...names];
}

/** For each function, the positions of its arguments that are counts (checked by toCount). */
const COUNT_ARGUMENTS: Readonly<Record<string, readonly number[]>> = { repeat: [1], range: [0], fill: [0], words: [0], half: [0] };

/**
 * What is wrong with the templates of a text before any value is known: the grammar, an unknown function, a
 * call with the wrong number of arguments, a literal count a function refuses, a model role that does not
 * exist. A suite with one of these cannot run as written, so it is a load error (file:line:col, exit 2); what
 * depends on values observed at run time (middle() of a target's text) is judged when the case runs.
 */
export function templateProblems(text: string, modelRoles: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(TEMPLATE)) {
    try {
      checkExpression(m[1]!, modelRoles);
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      problems.push(e.message);
    }
  }
  // Rendering leaves an unclosed one as it is: the request would carry "{{models.chat" and the target be blamed.
  const rest = text.replace(TEMPLATE, '');
  const open = rest.indexOf('{{');
  if (open !== -1) problems.push(`"{{" opens a template that is never closed with "}}": ${JSON.stringify(rest.slice(open, open + 40))}`);
  return problems;
}

const didYouMean = (word: string, known: Iterable<string>): string => {
  const guess = nearest(word, known);
  return guess ? ` (did you mean ${guess}?)` : '';
};

/** evaluate()'s grammar without values: a literal number is known, anything else is not. */
function checkExpression(expr: string, modelRoles: ReadonlySet<string>): void {
  const tokens = tokenize(expr);
  let pos = 0;
  const peek = () => tokens[pos];
  const isPunct = (t: Token | undefined, text: string) => t?.kind === 'punct' && t.text === text;
  const fail = (why: string): never => { throw new TemplateError(`${why} in {{ ${expr} }}`); };

  const term = (): number | undefined => {
    const t = tokens[pos++];
    if (!t) return fail('expression ends too early');
    if (t.kind === 'num') return t.value;
    if (t.kind === 'str') return undefined;
    if (t.kind === 'punct' && t.text === '-') { const v = term(); return v === undefined ? undefined : -v; }
    if (t.kind !== 'ident') return fail(`unexpected "${t.text}"`);
    if (isPunct(peek(), '(')) {
      pos++;
      const fn = FUNCTIONS[t.text] ?? fail(`unknown function ${t.text}()${didYouMean(t.text, Object.keys(FUNCTIONS))} — known: ${Object.keys(FUNCTIONS).join(', ')}`);
      const args: Array<number | undefined> = [];
      while (!isPunct(peek(), ')')) {
        args.push(sum());
        if (isPunct(peek(), ',')) pos++;
        else if (!isPunct(peek(), ')')) fail('expected "," or ")"');
      }
      pos++;
      if (args.length !== fn.length) fail(`${t.text}() takes ${fn.length} argument${fn.length === 1 ? '' : 's'}, not ${args.length}`);
      for (const i of COUNT_ARGUMENTS[t.text] ?? []) {
        if (args[i] === undefined) continue;
        try { toCount(args[i]); } catch (e) { fail(`${t.text}(): ${(e as Error).message}`); }
      }
      return undefined;
    }
    const path = [t.text];
    while (isPunct(peek(), '.')) {
      pos++;
      const key = tokens[pos++];
      path.push(key?.kind === 'ident' ? key.text : key?.kind === 'num' ? String(key.value) : fail('expected a name after "."'));
    }
    if (path[0] === 'models' && path.length > 1 && !modelRoles.has(path[1]!)) fail(`"models.${path[1]}" names no model role${didYouMean(path[1]!, modelRoles)} — roles: ${[...modelRoles].join(', ')}`);
    return undefined;
  };

  const sum = (): number | undefined => {
    let value = term();
    while (isPunct(peek(), '+') || isPunct(peek(), '-')) {
      pos++;
      term();
      value = undefined;
    }
    return value;
  };

  sum();
  if (pos !== tokens.length) fail('unexpected text after the expression');
}

type Token =
  | { kind: 'num'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'ident'; text: string; root: boolean }
  | { kind: 'punct'; text: string };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (/\d/.test(c)) {
      const m = /^\d+(\.\d+)?/.exec(expr.slice(i))!;
      tokens.push({ kind: 'num', value: Number(m[0]) });
      i += m[0].length;
    } else if (c === "'" || c === '"') {
      const end = expr.indexOf(c, i + 1);
      if (end < 0) throw new TemplateError(`unterminated string in {{ ${expr} }}`);
      tokens.push({ kind: 'str', value: expr.slice(i + 1, end) });
      i = end + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expr.slice(i))!;
      const prev = tokens[tokens.length - 1];
      tokens.push({ kind: 'ident', text: m[0], root: !(prev?.kind === 'punct' && prev.text === '.') });
      i += m[0].length;
    } else if ('+-.(),'.includes(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else {
      throw new TemplateError(`unexpected "${c}" in {{ ${expr} }}`);
    }
  }
  return tokens;
}

export function evaluate(expr: string, scope: Scope): unknown {
  const tokens = tokenize(expr);
  let pos = 0;
  const peek = () => tokens[pos];
  const isPunct = (t: Token | undefined, text: string) => t?.kind === 'punct' && t.text === text;
  const fail = (why: string): never => { throw new TemplateError(`${why} in {{ ${expr} }}`); };

  const term = (): unknown => {
    const t = tokens[pos++];
    if (!t) return fail('expression ends too early');
    if (t.kind === 'num' || t.kind === 'str') return t.value;
    if (t.kind === 'punct' && t.text === '-') return -Number(term());
    if (t.kind !== 'ident') return fail(`unexpected "${t.text}"`);
    if (isPunct(peek(), '(')) {
      pos++;
      const fn = FUNCTIONS[t.text] ?? fail(`unknown function ${t.text}() — known: ${Object.keys(FUNCTIONS).join(', ')}`);
      const args: unknown[] = [];
      while (!isPunct(peek(), ')')) {
        args.push(sum());
        if (isPunct(peek(), ',')) pos++;
        else if (!isPunct(peek(), ')')) fail('expected "," or ")"');
      }
      pos++;
      return fn(...args);
    }
    if (!Object.prototype.hasOwnProperty.call(scope, t.text)) fail(`unknown variable "${t.text}"`);
    let value: unknown = scope[t.text];
    let path = t.text;
    while (isPunct(peek(), '.')) {
      pos++;
      const key = tokens[pos++];
      const k = key?.kind === 'ident' ? key.text : key?.kind === 'num' ? String(key.value) : fail('expected a name after "."');
      path += `.${k}`;
      if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, k)) fail(`"${path}" is not defined`);
      value = (value as Record<string, unknown>)[k];
    }
    return value;
  };

  const sum = (): unknown => {
    let value = term();
    while (isPunct(peek(), '+') || isPunct(peek(), '-')) {
      const op = (tokens[pos++] as { text: string }).text;
      const right = term();
      if (op === '+' && (typeof value === 'string' || typeof right === 'string')) value = String(value) + String(right);
      else {
        if (typeof value !== 'number' || typeof right !== 'number') fail(`"${op}" needs numbers`);
        value = op === '+' ? (value as number) + (right as number) : (value as number) - (right as number);
      }
    }
    return value;
  };

  const result = sum();
  if (pos !== tokens.length) fail('unexpected text after the expression');
  return result;
}
