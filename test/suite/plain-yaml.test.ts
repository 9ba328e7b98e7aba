// The plain YAML reader either reads a text exactly as the position-keeping parser does (`yaml`, core schema,
// unique keys, no error or warning), or steps aside. Checked on every YAML file of the repository, on documents
// generated with awkward scalars, keys and layouts, and on those documents broken by random edits: a reader that
// took a text the full parser rejects, or read any scalar differently, fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parsePlainYaml } from '../../src/suite/plain-yaml.ts';
import { repoRoot } from '../../src/util/paths.ts';

// Fixed seeds keep CI reproducible; PLAIN_YAML_RUNS and PLAIN_YAML_SEED search further on a developer's machine.
const RUNS = (n: number) => Number(process.env.PLAIN_YAML_RUNS ?? n);
const SEED = (n: number) => Number(process.env.PLAIN_YAML_SEED ?? n);

/** What the full load path reads (yaml-source.ts, load.ts), or undefined where it reports a problem. */
function fullRead(text: string): { value: unknown } | undefined {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return undefined;
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }) };
  } catch {
    return undefined;
  }
}

/** The property: where the plain reader answers, the full parser accepts the text and reads the same value. */
function agrees(text: string): { taken: boolean; ok: boolean; full?: unknown; plain?: unknown } {
  const plain = parsePlainYaml(text);
  if (plain === undefined) return { taken: false, ok: true };
  const full = fullRead(text);
  return { taken: true, ok: full !== undefined && isDeepStrictEqual(plain, full.value), full: full?.value, plain };
}

function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...yamlFilesUnder(path));
    else if (/\.ya?ml$/.test(name)) out.push(path);
  }
  return out;
}

// Scalars chosen where YAML's readings part: words the core schema resolves, numbers in every form, indicators,
// comment and mapping markers inside text, quotes, escapes, non-ASCII.
const TRICKY_TEXT = [
  'a', 'hello world', 'true', 'True', 'TRUE', 'false', 'FALSE', 'null', 'Null', 'NULL', '~', '', 'yes', 'no', 'on', 'off',
  '1', '-1', '0', '-0', '00', '007', '0.5', '-0.5', '1.', '.5', '+1', '1e3', '1E-3', '2e', '1_000', '0x1F', '0o17', '0b101',
  '.inf', '-.inf', '.NaN', '12345678901234567890', '1.0000000000000002', '3.14159265358979323846',
  'a: b', 'a:b', 'a #b', 'a#b', '#x', '- x', '-x', '--', '---', '...', ':x', 'x:', '{a}', '[1]', 'a, b', 'a,b', "it's", 'say "hi"',
  'back\\slash', 'new\nline', 'tab\there', 'ünï', '😀', 'http://x/y?q=1#f', '/v1/completions', ' lead', 'trail ', '@at', '`tick',
  '%p', '&a', '*a', '!t', '|', '>', '?q', '? q', 'a ', '\u0085', '\u2028', '\\u0041', 'x'.repeat(40), 'ctl\b\f\r\u0001', 'c\u0001\u007f\u00a0', '\u3000x', '\ud83d', 'é',
];
const KEYS = ['a', 'b', 'c', 'key', 'x-api-key', '$ref', 'a.b', 'a/b', '_x', 'model', 'json', 'id', 'name', 'request', 'expect', 'status', 'messages', 'role', 'content', 'n'];
const TRICKY_KEYS = ['true', 'null', 'Null', '1', '1e3', '__proto__', 'a b', 'k:', '-k', 'ü', '', ' a', 'a#b', '"q"', "'q'", '~'];
const key = fc.oneof({ arbitrary: fc.constantFrom(...KEYS), weight: 8 }, { arbitrary: fc.constantFrom(...TRICKY_KEYS), weight: 1 });

type Tree = string | number | boolean | null | Tree[] | { [k: string]: Tree };

// Mostly ordinary values, so that many documents are within the reader's subset and the comparison has teeth.
const scalar: fc.Arbitrary<Tree> = fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY_TEXT), weight: 3 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9 ./_-]{0,10}[a-z0-9]$/), weight: 6 },
  { arbitrary: fc.integer({ min: -1e6, max: 1e6 }), weight: 3 },
  { arbitrary: fc.double({ noNaN: false }), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  ),
})).node;
/** Documents are mappings, as suite files are (other roots are left to the general parsers). */
const doc: fc.Arbitrary<Tree> = fc.dictionary(key, tree, { minKeys: 1, maxKeys: 5 });

/** How one document is written: all choices drawn up front so a failure shrinks and replays. */
interface Style {
  indent: number;
  /** Per value, in order: 0 plain, 1 single-quoted, 2 double-quoted (JSON), 3 double-quoted with extra escapes. */
  quoting: number[];
  /** Per collection: written in flow style on one line. */
  flow: boolean[];
  /** Per line: a trailing comment, a comment line after it, a blank line after it. */
  decor: number[];
  sameIndentSequences: boolean;
  jsonKeys: boolean;
}

const style: fc.Arbitrary<Style> = fc.record({
  indent: fc.constantFrom(1, 2, 3, 4),
  quoting: fc.array(fc.constantFrom(0, 0, 0, 0, 1, 2, 3), { minLength: 64, maxLength: 64 }),
  flow: fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }),
  decor: fc.array(fc.nat(7), { minLength: 64, maxLength: 64 }),
  sameIndentSequences: fc.boolean(),
  jsonKeys: fc.boolean(),
});

function render(value: Tree, s: Style): string {
  let q = 0;
  let f = 0;
  let d = 0;
  const quoting = () => s.quoting[q++ % s.quoting.length]!;
  const flowy = () => s.flow[f++ % s.flow.length]!;
  const decorate = (line: string) => {
    const k = s.decor[d++ % s.decor.length]!;
    return k === 1 ? `${line} # note` : k === 2 ? `${line} #x` : k === 3 ? `${line}\n# between` : k === 4 ? `${line}\n` : k === 5 ? `${line}   ` : line;
  };
  const text = (v: string): string => {
    const how = quoting();
    if (how === 1) return `'${v.replace(/'/g, "''")}'`;
    if (how === 2) return JSON.stringify(v);
    if (how === 3) return JSON.stringify(v).replace(/\//g, '\\/').replace(/é/g, '\\u00e9').replace(/ /g, (m, at: number) => (at % 2 ? '\\u0020' : m));
    // Plain, as it is: where that is not YAML, or means something else, the full parser says so.
    return v;
  };
  const scalarText = (v: Tree): string => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number') return quoting() === 2 ? JSON.stringify(String(v)) : Object.is(v, -0) ? '-0' : String(v);
    return String(v);
  };
  const key = (k: string, inFlow: boolean) => (inFlow && s.jsonKeys ? JSON.stringify(k) : quoting() === 2 ? JSON.stringify(k) : k);
  const flowText = (v: Tree): string => {
    if (Array.isArray(v)) return `[${v.map(flowText).join(', ')}]`;
    if (v !== null && typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${key(k, true)}: ${flowText(x)}`).join(', ')} }`;
    return scalarText(v);
  };
  const lines: string[] = [];
  const block = (v: Tree, indent: number, lead: string, root = false): void => {
    const pad = ' '.repeat(indent);
    if (Array.isArray(v) && v.length > 0 && !flowy()) {
      v.forEach((item, i) => {
        const first = i === 0 ? lead : pad;
        if (item !== null && typeof item === 'object' && !flowy() && (Array.isArray(item) ? item.length : Object.keys(item).length)) {
          if (Array.isArray(item)) { lines.push(decorate(`${first}-`)); block(item, indent + s.indent, ' '.repeat(indent + s.indent)); }
          else block(item, indent + 2, `${first}- `);
        } else {
          lines.push(decorate(`${first}- ${item !== null && typeof item === 'object' ? flowText(item) : scalarText(item)}`));
        }
      });
      return;
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && (root || !flowy())) {
      Object.entries(v).forEach(([k, x], i) => {
        const first = `${i === 0 ? lead : pad}${key(k, false)}:`;
        if (x !== null && typeof x === 'object' && (Array.isArray(x) ? x.length : Object.keys(x).length) && !flowy()) {
          lines.push(decorate(first));
          const deeper = Array.isArray(x) && s.sameIndentSequences ? indent : indent + s.indent;
          block(x, deeper, ' '.repeat(deeper));
        } else {
          lines.push(decorate(`${first} ${x !== null && typeof x === 'object' ? flowText(x) : scalarText(x)}`));
        }
      });
      return;
    }
    lines.push(decorate(`${lead}${v !== null && typeof v === 'object' ? flowText(v) : scalarText(v)}`));
  };
  // The root as a block mapping, as suite files are.
  block(value, 0, '', true);
  return `${lines.join('\n')}\n`;
}

/** Random edits at YAML's sensitive spots: the full parser must reject, or agree with, whatever the reader takes. */
const edits = fc.array(fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('insert', 'delete', 'indent', 'dedent', 'duplicate'),
  char: fc.constantFrom(...': -#\'"{}[],&*!|>%@`?\n\t\\x0.'.split(''), ': ', ' #', '- ', '\r\n'),
}), { minLength: 1, maxLength: 3 });

function mutate(text: string, changes: Array<{ at: number; kind: string; char: string }>): string {
  let out = text;
  for (const c of changes) {
    const at = out.length ? c.at % out.length : 0;
    if (c.kind === 'insert') out = out.slice(0, at) + c.char + out.slice(at);
    else if (c.kind === 'delete') out = out.slice(0, at) + out.slice(at + 1);
    else {
      const start = out.lastIndexOf('\n', at - 1) + 1;
      if (c.kind === 'indent') out = `${out.slice(0, start)} ${out.slice(start)}`;
      else if (c.kind === 'dedent') out = out[start] === ' ' ? out.slice(0, start) + out.slice(start + 1) : out;
      else {
        const end = out.indexOf('\n', start);
        const line = out.slice(start, end === -1 ? out.length : end + 1);
        out = out.slice(0, start) + line + (line.endsWith('\n') ? '' : '\n') + out.slice(start);
      }
    }
  }
  return out;
}

describe('the plain YAML reader', () => {
  it('reads every YAML file of the repository as the full parser does, or steps aside', () => {
    const files = yamlFilesUnder(repoRoot);
    expect(files.length).toBeGreaterThan(20);
    let taken = 0;
    for (const file of files) {
      const r = agrees(readFileSync(file, 'utf8'));
      expect(r.ok, `${file}: ${JSON.stringify(r.plain)?.slice(0, 300)} vs ${JSON.stringify(r.full)?.slice(0, 300)}`).toBe(true);
      if (r.taken) taken++;
    }
    // The catalogue and plain suites at least: a reader that took nothing would pass the loop above.
    expect(taken).toBeGreaterThan(0);
  });

  it('reads a generated suite, in the shape generators write, to the full parser\'s data', () => {
    const lines = ['version: 1', 'name: big', 'area: completions', 'description: peer workload', 'cases:'];
    for (let i = 0; i < 300; i++) {
      lines.push(
        `  - id: completion-${i}`, `    title: completion ${i}, with "quotes" and a # that is not a comment`, '    requirements: [RES-COMPLETION, "COMP-CREATE"]',
        `    request: { method: POST, path: /v1/completions, json: {"model":"davinci","prompt":"Say \\"hi\\" ${i}\\n","max_tokens":${i % 7},"temperature":0.5,"logprobs":null,"echo":false,"stop":["\\n", "END"],"n":-1e-3} }`,
        `    expect: { status: 200, schema: 'bench/it''s.schema.json' }   # trailing comment`,
        '',
        '    # a comment line between cases',
      );
    }
    const text = `${lines.join('\n')}\n`;
    const r = agrees(text);
    expect(r.taken).toBe(true);
    expect(r.ok).toBe(true);
  });

  it('agrees with the full parser on generated documents, and takes most of the ones written plainly', () => {
    let taken = 0;
    let total = 0;
    fc.assert(fc.property(doc, style, (value, s) => {
      const text = render(value, s);
      const r = agrees(text);
      total++;
      if (r.taken) taken++;
      if (!r.ok) throw new Error(`disagrees on:\n${text}\nplain: ${JSON.stringify(r.plain)}\nfull: ${JSON.stringify(r.full)}`);
    }), { numRuns: RUNS(3000), seed: SEED(20261125) });
    // Not a reader that steps aside from everything: a fair share of generated documents is within its subset.
    expect(taken / total).toBeGreaterThan(0.2);
  });

  it('never takes what the full parser rejects or reads differently, after random edits', () => {
    let taken = 0;
    fc.assert(fc.property(doc, style, edits, (value, s, changes) => {
      const text = mutate(render(value, s), changes);
      const r = agrees(text);
      if (r.taken) taken++;
      if (!r.ok) throw new Error(`disagrees on:\n${JSON.stringify(text)}\nplain: ${JSON.stringify(r.plain)}\nfull: ${JSON.stringify(r.full)}`);
    }), { numRuns: RUNS(4000), seed: SEED(20261126) });
    expect(taken).toBeGreaterThan(100);
  });

  it('steps aside for each construct outside its subset', () => {
    const outside = [
      'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: |\n  text\n', 'a: >\n  text\n', 'a: b\n  c\n', '? a\n: b\n', 'a:\n\tb: 1\n', 'a: 1\r\nb: 2\r\n',
      '\ufeffa: 1\n', '%YAML 1.2\n---\na: 1\n', '---\na: 1\n', 'a: 1\n---\nb: 2\n', 'a: "x\n  y"\n', 'a: [1,\n  2]\n', 'a: {b: 1,}\n',
      'a: 0x1F\n', 'a: .inf\n', 'a: 1_000\n', 'a: "\\x41"\n', 'a: 1\na: 2\n', '__proto__: 1\n', 'a: {__proto__: 1}\n', 'a b: 1\n',
      'true: 1\n', '1: a\n', '"a":1\n', '"__proto__": 1\n', '- "a":1\n', 'a: b: c\n', 'a: - b\n', '- - a\n', '', '# only a comment\n', 'a:\n  b\n  c\n', 'a:\n  [1,\n  2]\n', 'a: { b: }\n', 'a: [b: c]\n',
    ];
    for (const text of outside) expect(parsePlainYaml(text), JSON.stringify(text)).toBeUndefined();
  });

  it('reads what it takes exactly: numbers, words, quotes, escapes, nesting', () => {
    const cases: Array<[string, unknown]> = [
      ['a: 1\nb: -0\nc: 0.25\nd: 1e3\ne: true\nf: False\ng: ~\nh:\ni: NULL\n', { a: 1, b: -0, c: 0.25, d: 1000, e: true, f: false, g: null, h: null, i: null }],
      ['a: "x\\"y\\\\z\\/\\n\\u00e9"\nb: \'it\'\'s\'\nc: a#b # comment\nd: http://x/y?q=1#f\n', { a: 'x"y\\z/\né', b: "it's", c: 'a#b', d: 'http://x/y?q=1#f' }],
      ['list:\n- 1\n- a: 2\n  b: [x, "y", {"k":3}]\n-\n  - deep\n', { list: [1, { a: 2, b: ['x', 'y', { k: 3 }] }, ['deep']] }],
      ['- a\n-\n- {}\n- []\n', ['a', null, {}, []]],
      ['a:\n  { b: 1 }\nc:\n  "x": y\nd:\n  plain # comment\n', { a: { b: 1 }, c: { x: 'y' }, d: 'plain' }],
      ['just text\n', 'just text'],
    ];
    for (const [text, value] of cases) {
      expect(parsePlainYaml(text), text).toStrictEqual(value);
      expect(fullRead(text)?.value, text).toStrictEqual(value);
    }
  });
});
