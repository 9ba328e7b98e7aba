// Suite files parse with js-yaml, four to eight times faster than the position-keeping parser (the 16 built-in
// suites: 440 -> 110 ms of every default run; a generated 3000-case suite of 800 KB: most of its load), when that
// changes nothing: the file must validate and pass every semantic check,
// hold few aliases (the full parser bounds alias expansion) and no inline assertions, and its case positions must
// be found by a line scan. Anything else, and every problem's position, goes through the full parser
// (yaml-source.ts), so errors still point at file:line:col exactly.

import jsyaml from 'js-yaml';
import { parseCache } from './parse-cache.ts';
import type { SourcePos } from './types.ts';

const MAX_ALIASES = 100;
const TAG = /(?:^|[\s[{,])![^\s=]/m;
const BINARY = /(?:^|[\s[{,:])[-+]?0b[01_]+[ \t]*(?:$|[,\]}#])/m;

/** The document as plain data, or undefined when the fast path does not apply (the caller parses fully). */
export function fastParse(text: string): unknown {
  // The same text gives the same answer: a kept one (parse-cache.ts) stands for the checks and the parse below.
  const cache = parseCache();
  return cache ? cache.through(text, () => parseWithJsYaml(text)) : parseWithJsYaml(text);
}

function parseWithJsYaml(text: string): unknown {
  if ((text.match(/\*[A-Za-z0-9_-]+/g)?.length ?? 0) > MAX_ALIASES) return undefined;
  // Where the two parsers read the same text differently, the position-keeping one decides: explicit tags, and
  // binary integers (0b101: a number to js-yaml, a string in YAML 1.2's core schema).
  if (TAG.test(text) || BINARY.test(text)) return undefined;
  try {
    // The core schema, as the full parser uses: no timestamps, no YAML 1.1 booleans.
    return jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
}

/**
 * Where each item of the top-level `cases:` block sequence starts (1-based line, and the column of the mapping
 * after "- ", as the full parser reports it), and where `name:`'s value is; undefined unless the scan finds
 * exactly `count` items.
 */
export function scanPositions(file: string, text: string, count: number): { cases: SourcePos[]; name?: SourcePos } | undefined {
  const lines = text.split('\n');
  const cases: SourcePos[] = [];
  let name: SourcePos | undefined;
  let inCases = false;
  let itemIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^[A-Za-z_][\w-]*:/.test(line)) {
      inCases = /^cases:\s*(#.*)?$/.test(line);
      const m = /^name:\s*(\S)/.exec(line);
      if (m) name = { file, line: i + 1, col: line.indexOf(m[1]!, 5) + 1 };
      continue;
    }
    if (!inCases) continue;
    const item = /^(\s*)- /.exec(line);
    if (!item) continue;
    if (itemIndent === -1) itemIndent = item[1]!.length;
    if (item[1]!.length === itemIndent) cases.push({ file, line: i + 1, col: itemIndent + 3 });
  }
  return cases.length === count ? { cases, ...(name ? { name } : {}) } : undefined;
}
