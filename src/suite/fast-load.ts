// Suite files parse without positions when that changes nothing: the file must validate and pass every semantic
// check, hold no inline assertions, and its case positions must be found by a line scan. Anything else, and every
// problem's position, goes through the full parser (yaml-source.ts), so errors still point at file:line:col.
// Two readers serve that path, the first that takes the text:
// - plain-yaml.ts, for the plain block-and-flow YAML that big (often generated) suites are written in: a 3000-case
//   suite of 800 KB in ~60 ms of a fresh process, against ~115 ms for js-yaml (garbage collection included);
// - js-yaml, four to eight times faster than the position-keeping parser (the 16 built-in suites: 440 -> 110 ms of
//   every default run), for text with few aliases (the full parser bounds alias expansion).

import jsyaml from 'js-yaml';
import { parseCache } from './parse-cache.ts';
import { parsePlainYaml } from './plain-yaml.ts';
import type { SourcePos } from './types.ts';

const MAX_ALIASES = 100;
const TAG = /(?:^|[\s[{,])![^\s=]/m;
const BINARY = /(?:^|[\s[{,:])[-+]?0b[01_]+[ \t]*(?:$|[,\]}#])/m;

/** The document as plain data, or undefined when the fast path does not apply (the caller parses fully). */
export function fastParse(text: string): unknown {
  // The same text gives the same answer: a kept one (parse-cache.ts) stands for the checks and the parse below.
  const cache = parseCache();
  return cache ? cache.through(text, () => parseQuickly(text)) : parseQuickly(text);
}

function parseQuickly(text: string): unknown {
  return parsePlainYaml(text) ?? parseWithJsYaml(text);
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
  // Line by line without splitting the text (a 3000-case file is 15000 lines): only what is found is allocated.
  const cases: SourcePos[] = [];
  let name: SourcePos | undefined;
  let inCases = false;
  let itemIndent = -1;
  for (let start = 0, line = 1; start <= text.length; line++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const first = text.charCodeAt(start);
    if (isKeyStart(first)) {
      // A top-level key (`key:`) ends the block before it.
      const colon = keyEnd(text, start, end);
      if (colon !== -1) {
        const key = text.slice(start, colon);
        inCases = key === 'cases' && /^:\s*(#.*)?$/.test(text.slice(colon, end));
        if (key === 'name') {
          let v = colon + 1;
          while (v < end && isSpace(text.charCodeAt(v))) v++;
          if (v < end) name = { file, line, col: v - start + 1 };
        }
      }
    } else if (inCases) {
      let indent = start;
      while (indent < end && isSpace(text.charCodeAt(indent))) indent++;
      if (text.charCodeAt(indent) === 45 /* - */ && text.charCodeAt(indent + 1) === 32 /* space */) {
        const width = indent - start;
        if (itemIndent === -1) itemIndent = width;
        if (width === itemIndent) cases.push({ file, line, col: itemIndent + 3 });
      }
    }
    if (nl === -1) break;
    start = nl + 1;
  }
  return cases.length === count ? { cases, ...(name ? { name } : {}) } : undefined;
}

/** [A-Za-z_]: how a top-level key starts. */
function isKeyStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Where `[A-Za-z_][\w-]*` starting at `start` ends in a colon, or -1. */
function keyEnd(text: string, start: number, end: number): number {
  let i = start + 1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!(isKeyStart(c) || (c >= 48 && c <= 57) || c === 45)) break;
  }
  return i < end && text.charCodeAt(i) === 58 /* : */ ? i : -1;
}

/** What a regular expression's \s matches within a line. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
