// The one failure renderer: console, markdown and JUnit bodies all show a failed/warned/errored check this way.

import type { CheckResult } from '../engine/types.ts';
import type { ExchangeRequest, RequestBodySummary } from '../transport/types.ts';
import { compactJson, sanitize, style, truncate } from './text.ts';

export interface RenderFailureOptions {
  color: boolean;
  markdown: boolean;
}

export const BODY_MAX = 400;
export const VALUE_MAX = 200;
export const EXCERPT_MAX = 300;

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|openai-api-key)$|token|secret|password/i;
const REDACTED = /redacted|^\*+$|^\[.*\]$/i;

/** Header values as they may appear in a report: secrets replaced (defensively; transports already redact). */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name) || REDACTED.test(value)) {
      out[name] = value;
      continue;
    }
    const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value);
    out[name] = scheme ? `${scheme[1]} [redacted]` : '[redacted]';
  }
  return out;
}

/** The request body in one line (or a few, for multipart). */
export function summarizeBody(body: RequestBodySummary): string[] {
  switch (body.kind) {
    case 'none':
      return [];
    case 'json':
      return [`body: ${compactJson(body.value, BODY_MAX)}`];
    case 'text':
      return [`body: ${truncate(JSON.stringify(body.value), BODY_MAX)}`];
    case 'multipart': {
      const lines = ['body: multipart/form-data'];
      for (const [name, value] of Object.entries(body.fields)) {
        lines.push(`  field ${name}=${truncate(JSON.stringify(value), 120)}`);
      }
      for (const f of body.files) {
        const fixture = f.fixture ? `, ${f.fixture}` : '';
        lines.push(
          `  file ${f.field}: ${f.filename} (${f.contentType}, ${f.size} bytes, sha256 ${f.sha256.slice(0, 12)}${fixture})`,
        );
      }
      return lines;
    }
  }
}

export function requestLines(req: ExchangeRequest): string[] {
  const lines = [`request: ${req.method} ${req.url}`];
  for (const [name, value] of Object.entries(redactHeaders(req.headers))) lines.push(`  ${name}: ${value}`);
  for (const line of summarizeBody(req.body)) lines.push(`  ${line}`);
  return lines;
}

export function caseLabel(r: CheckResult): string {
  const title = r.caseTitle ? ` — ${r.caseTitle}` : '';
  return `${r.suite} › ${r.case}${title}`;
}

export function statusLabel(r: CheckResult): string {
  switch (r.status) {
    case 'fail': return 'FAIL';
    case 'warn': return 'WARNING';
    case 'error': return 'ERROR';
    case 'skip': return 'SKIP';
    case 'pass': return 'PASS';
    case 'blocked': return 'BLOCKED';
    case 'not-exercised': return 'NOT EXERCISED';
  }
}

/** The detail block (request, findings, response). Untrusted text is sanitised before any styling. */
function detailLines(r: CheckResult, s: ReturnType<typeof style>): string[] {
  const lines: string[] = [];
  if (r.request) lines.push(...requestLines(r.request).map((l, i) => (i === 0 ? sanitize(l) : s.dim(sanitize(l)))));
  for (const f of r.findings ?? []) {
    lines.push(`at ${s.cyan(sanitize(f.pointer || '(root)'))}: ${sanitize(f.message)}`);
    if (f.expected !== undefined) lines.push(`  expected: ${s.green(sanitize(compactJson(f.expected, VALUE_MAX)))}`);
    if (f.actual !== undefined) lines.push(`  actual:   ${s.red(sanitize(compactJson(f.actual, VALUE_MAX)))}`);
  }
  const res = r.response;
  if (res) {
    const head = [res.status !== undefined ? String(res.status) : 'no status', res.contentType]
      .filter((x) => x !== undefined && x !== '')
      .join(' ');
    lines.push(`response: ${sanitize(head)}`);
    if (res.error) lines.push(`  transport error: ${sanitize(res.error)}`);
    if (res.message) lines.push(`  server message: ${sanitize(JSON.stringify(res.message))}`);
    if (res.excerpt) {
      for (const l of sanitize(truncate(res.excerpt, EXCERPT_MAX)).split('\n')) lines.push(`  ${s.dim(l)}`);
    }
  }
  return lines;
}

function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function inlineCode(text: string): string {
  const t = text.replace(/\n/g, ' ');
  let longest = 0;
  for (const m of t.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const tick = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${tick}${pad}${t}${pad}${tick}`;
}

/** Escape text for markdown prose (not code). */
function mdText(s: string): string {
  return s.replace(/([\\`*_[\]<>|#])/g, '\\$1').replace(/\n/g, ' ');
}

export function renderFailure(r: CheckResult, opts: RenderFailureOptions): string {
  if (opts.markdown) return renderMarkdownFailure(r);
  const s = style(opts.color);
  const label = statusLabel(r);
  const mark = r.status === 'warn' ? s.yellow(label) : s.red(label);
  const out: string[] = [];
  out.push(`${mark} ${s.bold(sanitize(r.check))}: ${sanitize(r.message).replace(/\n/g, '\n  ')}`);
  out.push(`  severity: ${r.severity}${r.status === 'error' ? ' (check could not be evaluated)' : ''}`);
  if (r.requirements.length > 0) out.push(`  requirements: ${sanitize(r.requirements.join(', '))}`);
  out.push(`  case: ${sanitize(caseLabel(r))}${r.source ? s.dim(`  (${sanitize(r.source)})`) : ''}`);
  for (const line of detailLines(r, s)) out.push(`  ${line}`);
  if (r.reproduce) out.push(`  reproduce: ${sanitize(r.reproduce)}`);
  return out.join('\n');
}

function renderMarkdownFailure(r: CheckResult): string {
  const out: string[] = [];
  out.push(`#### ${statusLabel(r)} ${inlineCode(r.check)} — ${mdText(sanitize(r.message))}`);
  out.push('');
  out.push(`- **Severity:** ${r.severity}${r.status === 'error' ? ' (check could not be evaluated)' : ''}`);
  if (r.requirements.length > 0) out.push(`- **Requirements:** ${r.requirements.map(inlineCode).join(', ')}`);
  out.push(`- **Case:** ${mdText(caseLabel(r))}${r.source ? ` (${inlineCode(r.source)})` : ''}`);
  const detail = detailLines(r, style(false)).join('\n');
  if (detail) {
    const fence = fenceFor(detail);
    out.push('', `${fence}text`, detail, fence);
  }
  if (r.reproduce) {
    const fence = fenceFor(r.reproduce);
    out.push('', 'Reproduce:', '', `${fence}sh`, sanitize(r.reproduce), fence);
  }
  return out.join('\n');
}
