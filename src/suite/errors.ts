// Every problem in a suite file is rendered the same way: what is wrong, file:line:col, the line, a hint.

import type { SourcePos } from './types.ts';

export interface SuiteProblem {
  pos: SourcePos;
  message: string;
  /** Width of the offending text, for the caret line. */
  length?: number;
  hint?: string;
}

export class SuiteError extends Error {
  constructor(readonly problems: SuiteProblem[], readonly sources: ReadonlyMap<string, string>) {
    super(problems.map((p) => `${p.pos.file}:${p.pos.line}:${p.pos.col}: ${p.message}`).join('\n'));
    this.name = 'SuiteError';
  }

  /** Hurl-style rendering: title, `--> file:line:col`, the offending line with a caret, the hint. */
  render(): string {
    return this.problems.map((p) => renderProblem(p, this.sources.get(p.pos.file))).join('\n\n');
  }
}

function renderProblem(p: SuiteProblem, source: string | undefined): string {
  const out = [`error: ${p.message}`, `  --> ${p.pos.file}:${p.pos.line}:${p.pos.col}`];
  const raw = source?.split(/\r?\n/)[p.pos.line - 1];
  const line = raw === undefined ? undefined : maskSecretField(raw);
  if (line !== undefined) {
    const gutter = String(p.pos.line).length;
    const pad = ' '.repeat(gutter);
    out.push(`${pad} |`, `${p.pos.line} | ${line}`, `${pad} | ${' '.repeat(Math.max(0, p.pos.col - 1))}${'^'.repeat(Math.max(1, p.length ?? 1))}`);
  }
  if (p.hint) out.push(`  = ${p.hint}`);
  return out.join('\n');
}

/**
 * A quoted line that sets a field named like a secret (`api_key: sk-…`, `"token": "…"`) shows the field, not its
 * value: a file put in the wrong place (a key in the config file) must not print the key into a CI log.
 */
const SECRET_FIELD = /^(\s*(?:-\s+)?["']?(?:[\w.-]*[_.-])?(?:api_?key|key|secret|token|password|passwd|credentials?|authorization)["']?\s*[:=]\s*)(\S.*)$/i;
function maskSecretField(line: string): string {
  const m = SECRET_FIELD.exec(line);
  return m ? `${m[1]}${'*'.repeat(Math.min(8, m[2]!.length))}` : line;
}

export { nearest } from '../util/nearest.ts';
