// YAML with positions: parse once, then map any JSON path back to file:line:col.

import type { Document, LineCounter, Node } from 'yaml';
import { yamlLib } from '../util/lazy-modules.ts';
import type { SourcePos } from './types.ts';
import type { SuiteProblem } from './errors.ts';

export interface YamlSource {
  file: string;
  text: string;
  doc: Document;
  lines: LineCounter;
}

/** How the parser reads a document, and how many aliases its data may expand (a billion-laughs file is refused). */
export const YAML_READING = { parse: { prettyErrors: false, uniqueKeys: true }, toJS: { maxAliasCount: 100 } } as const;

export function parseYaml(file: string, text: string): { source: YamlSource; problems: SuiteProblem[] } {
  const lines = new (yamlLib().LineCounter)();
  const doc = yamlLib().parseDocument(text, { lineCounter: lines, ...YAML_READING.parse });
  const problems: SuiteProblem[] = [...doc.errors, ...doc.warnings].map((e) => {
    const at = lines.linePos(e.pos[0]);
    return { pos: { file, line: at.line, col: at.col }, message: e.message.split('\n')[0] ?? e.message, length: Math.max(1, e.pos[1] - e.pos[0]) };
  });
  return { source: { file, text, doc, lines }, problems };
}

/** Position of the value at `path` (or of its key, when `key` is set and the last step is a map key). */
export function positionOf(source: YamlSource, path: ReadonlyArray<string | number>, key = false): { pos: SourcePos; length: number } {
  let node: unknown = source.doc.contents;
  let keyNode: unknown;
  let reached: unknown = node;
  for (const step of path) {
    if (yamlLib().isMap(node)) {
      const pair = node.items.find((p) => (yamlLib().isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(step));
      if (!pair) break;
      keyNode = pair.key;
      node = pair.value;
    } else if (yamlLib().isSeq(node) && typeof step === 'number') {
      keyNode = undefined;
      node = node.items[step];
    } else {
      break;
    }
    reached = node ?? keyNode;
  }
  const target = (key && keyNode ? keyNode : reached) as Node | undefined;
  const range = target?.range ?? [0, 1, 1];
  const at = source.lines.linePos(range[0]);
  const end = source.lines.linePos(range[1]);
  const length = end.line === at.line ? Math.max(1, end.col - at.col) : 1;
  return { pos: { file: source.file, line: at.line, col: at.col }, length };
}

/** Split an ajv instancePath (`/cases/0/request`) into path steps (numbers for array indexes). */
export function stepsOf(instancePath: string): Array<string | number> {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}
