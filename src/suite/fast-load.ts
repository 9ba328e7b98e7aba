// Suite files load without positions when that changes nothing: the file must validate and pass every semantic
// check, hold no inline assertions, and its case positions must be found by a line scan. Anything else, and every
// problem's position, goes through the one parser with positions (yaml-source.ts), so errors point at
// file:line:col. Two things spare a run that parse:
// - plain-yaml.ts reads the plain block-and-flow YAML that big (often generated) suites are written in, exactly as
//   that parser reads it (test/suite/plain-yaml.test.ts): a 3000-case suite of 800 KB in ~15 ms of a fresh
//   process, against ~480 ms for the parser with positions. A fresh CI machine has no parse cache: without this
//   reader such a suite's every CI run would pay that.
// - the parse cache (parse-cache.ts), when the CLI turns it on: what was read and checked of a file is kept, so a
//   file is parsed, validated and scanned once, not on every run (a file outside plain-yaml's subset too).

import { ownFingerprint, ownValidator } from '../schema/own-validators.ts';
import { parseCache } from './parse-cache.ts';
import { parsePlainYaml } from './plain-yaml.ts';
import { parseYaml, YAML_READING } from './yaml-source.ts';
import type { SourcePos, SuiteSpec } from './types.ts';

/**
 * What the fast path takes of a file before its semantic checks: data that validates as a suite file and holds no
 * inline assertion, with where its cases (and its name's value) start, as line and column.
 */
export interface CheckedRead {
  spec: SuiteSpec;
  cases: Array<[line: number, col: number]>;
  name?: [line: number, col: number];
}

/**
 * The file's checked read, or undefined when the fast path does not apply (the caller loads it fully). Kept by the
 * parse cache as a whole, keyed by the suite format's validator too: the same text and the same validator give the
 * same answer, so a kept one stands for the parse, the validation and the scan.
 */
export function checkedRead(text: string): CheckedRead | undefined {
  const cache = parseCache();
  const read = () => readChecked(text, fastParse(text));
  return cache ? cache.through(text, read, `checked@${CHECKED_READ}+${ownFingerprint('suite')}`) as CheckedRead | undefined : read();
}

/** Part of a kept checked read's key: raise it whenever what readChecked or scanPositions takes or returns changes. */
export const CHECKED_READ = 1;

/**
 * The document as plain data, or undefined when the fast path does not apply. A text outside the plain subset is
 * read by the full parser only when the parse cache is on (what it reads is then kept): without it, the full load
 * parses it anyway, and parsing it here too would parse it twice for nothing.
 */
export function fastParse(text: string): unknown {
  return parsePlainYaml(text) ?? (parseCache() ? parsedData(text) : undefined);
}

function readChecked(text: string, data: unknown): CheckedRead | undefined {
  if (data === undefined || !ownValidator('suite')(data)) return undefined;
  const spec = data as SuiteSpec;
  if (spec.cases.some((c) => c.expect?.assert?.length)) return undefined;
  const positions = scanPositions('', text, spec.cases.length);
  if (!positions) return undefined;
  const at = (p: SourcePos): [number, number] => [p.line, p.col];
  return { spec, cases: positions.cases.map(at), ...(positions.name ? { name: at(positions.name) } : {}) };
}

/** What the parser with positions reads, as the full load takes it; undefined when it found a problem. */
function parsedData(text: string): unknown {
  const { source, problems } = parseYaml('', text);
  if (problems.length > 0) return undefined;
  try {
    return source.doc.toJS(YAML_READING.toJS);
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
        if (width === itemIndent) {
          // A case's mapping starts right after "- " only when a key (or a flow mapping) does: after an anchor, a tag,
          // a comment or more spaces the parser places it elsewhere, and only the full parse knows where.
          if (!startsMapping(text.charCodeAt(indent + 2))) return undefined;
          cases.push({ file, line, col: itemIndent + 3 });
        }
      }
    }
    if (nl === -1) break;
    start = nl + 1;
  }
  return cases.length === count ? { cases, ...(name ? { name } : {}) } : undefined;
}

/** How the mapping of a case may start on its "- " line: a plain key, a quoted one, a digit, or a flow mapping. */
function startsMapping(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 34 /* " */ || c === 39 /* ' */ || c === 123 /* { */;
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
