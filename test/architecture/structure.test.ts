// Structure that stays: the import graph has no circles and no layer is imported upward, and the engine stays in
// small files of short functions with few positional parameters. ARCHITECTURE.md says where new code goes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/util/paths.ts';

const src = join(repoRoot, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

interface Edge { to: string; typeOnly: boolean }

/** Every relative import of every source file (static and dynamic), as paths relative to src/. */
function importGraph(): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const file of files(src)) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const edges: Edge[] = [];
    const add = (spec: string, typeOnly: boolean) => {
      if (!spec.startsWith('.')) return;
      edges.push({ to: relative(src, resolve(dirname(file), spec)), typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
        add(node.moduleSpecifier.text, typeOnly);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node.isTypeOnly);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        add(node.arguments[0].text, false);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        add(node.argument.literal.text, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    graph.set(relative(src, file), edges);
  }
  return graph;
}

/** The import circles of the graph (strongly connected components of more than one file), each as its files. */
function circles(graph: Map<string, Edge[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to)) continue;
      if (!idx.has(to)) { strong(to); low.set(v, Math.min(low.get(v)!, low.get(to)!)); }
      else if (on.has(to)) low.set(v, Math.min(low.get(v)!, idx.get(to)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found;
}

const graph = importGraph();
const folder = (path: string) => path.split('/')[0]!;

describe('the import graph', () => {
  it('has no import circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('imports no layer upward: util is the ground, nothing imports cli/, the judge runs without transports or the engine', () => {
    const wrong: string[] = [];
    for (const [from, edges] of graph) {
      for (const { to, typeOnly } of edges) {
        const [a, b] = [folder(from), folder(to)];
        if (a === 'util' && b !== 'util') wrong.push(`${from} → ${to} (util imports only util)`);
        if (b === 'cli' && a !== 'cli') wrong.push(`${from} → ${to} (nothing imports cli/)`);
        if (a === 'judge' && (b === 'engine' || b === 'cli' || b === 'api' || b === 'report' || (b === 'transport' && !typeOnly))) wrong.push(`${from} → ${to} (the judge imports no engine, and transports only as types)`);
        if (a === 'checks' && ['engine', 'cli', 'api', 'report', 'judge'].includes(b)) wrong.push(`${from} → ${to} (a check is a pure rule)`);
        if (a === 'engine' && ['cli', 'api', 'report', 'run'].includes(b)) wrong.push(`${from} → ${to} (the engine returns data; only outer layers print)`);
        if (a === 'run' && b === 'api') wrong.push(`${from} → ${to} (the library drives the run, not the other way round)`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reaches the engine from outside only through its public surface', () => {
    // index.ts runs suites; the rest are the types and building blocks other layers share with the engine.
    const PUBLIC = new Set(['engine/index.ts', 'engine/types.ts', 'engine/programmatic.ts', 'engine/request.ts', 'engine/preflight.ts', 'engine/shard.ts', 'engine/resources.ts']);
    const wrong = [...graph].flatMap(([from, edges]) => edges.filter(({ to }) => folder(from) !== 'engine' && folder(to) === 'engine' && !PUBLIC.has(to)).map(({ to }) => `${from} → ${to}`));
    expect(wrong).toEqual([]);
  });
});

/** Every function-like node of a file with its name, line count and positional parameter count. */
function functionsOf(file: string): Array<{ name: string; lines: number; params: number; ctor: boolean }> {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Array<{ name: string; lines: number; params: number; ctor: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = ts.isConstructorDeclaration(node) ? 'constructor' : (node as ts.FunctionDeclaration).name?.getText(sf) ?? `(anonymous at line ${start + 1})`;
      out.push({ name: `${relative(src, file)}:${start + 1} ${name}`, lines: end - start + 1, params: node.parameters.length, ctor: ts.isConstructorDeclaration(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('the engine and the judge stay small', () => {
  const engine = [...files(join(src, 'engine')), ...files(join(src, 'judge'))].filter((f) => !f.endsWith('judge/endpoints.ts'));

  it('spells no API path outside its resource table (resources.ts)', () => {
    const spelt = engine.filter((f) => f.includes('/engine/') && !f.endsWith('resources.ts')).flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ at: `${relative(src, f)}:${i + 1}`, line })))
      .filter(({ line }) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && /['`]\/v1\//.test(line)).map(({ at }) => at);
    expect(spelt).toEqual([]);
  });

  it('has no file over 250 lines', () => {
    const long = engine.map((f) => ({ f: relative(src, f), lines: readFileSync(f, 'utf8').split('\n').length })).filter((x) => x.lines > 250);
    expect(long).toEqual([]);
  });

  it('has no function over 60 lines, nor one with more than 3 positional parameters (a bundle of context counts as one)', () => {
    const all = engine.flatMap(functionsOf);
    expect(all.filter((f) => f.lines > 60).map((f) => `${f.name}: ${f.lines} lines`)).toEqual([]);
    expect(all.filter((f) => !f.ctor && f.params > 3).map((f) => `${f.name}: ${f.params} parameters`)).toEqual([]);
  });
});
