// The fast path for big suite files gives exactly what the position-keeping parser gives: the same plan and the
// same case positions; and it steps aside (to the full parser, with exact positions) for anything else.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastParse, scanPositions } from '../../src/suite/fast-load.ts';
import { ParseCache, useParseCache } from '../../src/suite/parse-cache.ts';
import { parsePlainYaml } from '../../src/suite/plain-yaml.ts';
import { parseYaml, positionOf } from '../../src/suite/yaml-source.ts';
import { repoRoot } from '../../src/util/paths.ts';

const suitesDir = join(repoRoot, 'suites');
const cacheDir = join(mkdtempSync(join(tmpdir(), 'fast-load-cache-')), 'parsed');

describe('the fast suite parser', () => {
  it('finds every built-in suite\'s case positions where the full parser does', () => {
    for (const name of readdirSync(suitesDir).filter((f) => f.endsWith('.yaml') && f !== 'requirements.yaml')) {
      const file = join(suitesDir, name);
      const text = readFileSync(file, 'utf8');
      const { source } = parseYaml(file, text);
      const cases = (source.doc.toJS() as { cases: unknown[] }).cases;
      const scanned = scanPositions(file, text, cases.length);
      expect(scanned, name).toBeDefined();
      expect(scanned!.cases, name).toEqual(cases.map((_, i) => positionOf(source, ['cases', i]).pos));
      expect(scanned!.name, name).toEqual(positionOf(source, ['name']).pos);
      // Read without the cache (the plain reader, when the text is in its subset) or through it (any text), the
      // data must be exactly the full parser's.
      const plain = fastParse(text);
      if (plain !== undefined) expect(plain, name).toEqual(source.doc.toJS({ maxAliasCount: 100 }));
      useParseCache(new ParseCache({ dir: cacheDir, minTextChars: 0 }));
      try {
        expect(fastParse(text), name).toEqual(source.doc.toJS({ maxAliasCount: 100 }));
        expect(fastParse(text), `${name}, kept`).toEqual(source.doc.toJS({ maxAliasCount: 100 }));
      } finally {
        useParseCache(undefined);
      }
    }
  });

  it('reads a big generated suite to the same data as the full parser', () => {
    const lines = ['version: 1', 'name: big', 'area: completions', 'cases:'];
    for (let i = 0; lines.join('\n').length < 128 * 1024; i++) {
      lines.push(`  - id: c-${i}`, `    title: case ${i}, with "quotes" and a # that is not a comment`, '    requirements: [COMP-CREATE]', `    request: { method: POST, path: /v1/completions, json: {"model": "m", "prompt": "p ${i}", "max_tokens": ${i % 7}, "echo": false, "stop": null, "n": 1.0} }`, '    expect: { status: 200, schema: resources/completion.schema.json }');
    }
    const text = lines.join('\n') + '\n';
    const { source } = parseYaml('big.yaml', text);
    expect(fastParse(text)).toEqual(source.doc.toJS());
    const cases = (source.doc.toJS() as { cases: unknown[] }).cases;
    expect(scanPositions('big.yaml', text, cases.length)!.cases).toEqual(cases.map((_, i) => positionOf(source, ['cases', i]).pos));
  });

  it('steps aside where a case\'s mapping does not start right after "- " (an anchor, a tag, a comment, more spaces)', () => {
    for (const item of ['- &a\n    id: a', '- !!map\n    id: a', '- # c\n    id: a', '-   id: a', '- id: a']) {
      const text = `version: 1\nname: n\ncases:\n  ${item}\n`;
      const { source } = parseYaml('f.yaml', text);
      const scanned = scanPositions('f.yaml', text, 1);
      // Either no positions (the full load finds them) or exactly the full parser's.
      if (item === '- id: a') expect(scanned?.cases).toEqual([positionOf(source, ['cases', 0]).pos]);
      else expect(scanned, item).toBeUndefined();
    }
  });

  it('scans positions as the line-by-line regular expressions it replaced did, on awkward text too', () => {
    // The scan as first written (a split and three regular expressions): the oracle for the allocation-free one.
    const oracle = (file: string, text: string) => {
      const lines = text.split('\n');
      const cases: { file: string; line: number; col: number }[] = [];
      let name: { file: string; line: number; col: number } | undefined;
      let inCases = false;
      let itemIndent = -1;
      lines.forEach((line, i) => {
        if (/^[A-Za-z_][\w-]*:/.test(line)) {
          inCases = /^cases:\s*(#.*)?$/.test(line);
          const m = /^name:\s*(\S)/.exec(line);
          if (m) name = { file, line: i + 1, col: line.indexOf(m[1]!, 5) + 1 };
          return;
        }
        if (!inCases) return;
        const item = /^(\s*)- /.exec(line);
        if (!item) return;
        if (itemIndent === -1) itemIndent = item[1]!.length;
        if (item[1]!.length === itemIndent) cases.push({ file, line: i + 1, col: itemIndent + 3 });
      });
      return { cases, ...(name ? { name } : {}) };
    };
    const texts = [
      'version: 1\r\nname:\tcrlf\r\ncases:  # the cases\r\n  - id: a\r\n    list:\r\n      - nested\r\n  - id: b\r\nafter: 1\r\n',
      'name:\ncases:\n\t- id: tab\n\t- id: tab2\nx-1_y: 2\ncases: # again\n    - id: deep\n',
      '\ufeffname: bom\ncases: [inline]\n  - id: not-a-block\n',
      'cases:\n\u00a0- id: nbsp\n- id: top\n-\n- \nname:   spaced\n_k9-: v\n9bad: v\n',
      '',
      'cases:',
    ];
    for (const text of texts) {
      const expected = oracle('f.yaml', text);
      expect(scanPositions('f.yaml', text, expected.cases.length), JSON.stringify(text)).toEqual(expected);
    }
  });

  it('steps aside for many aliases and for text it cannot parse (the full parser then says where)', () => {
    expect(fastParse('version: 1\n')).toEqual({ version: 1 });
    expect(fastParse(`a: &x 1\n${'b: *x\n'.repeat(20_000)}`)).toBeUndefined();
    expect(fastParse(`a: [\n${'x'.repeat(1000)}`)).toBeUndefined();
    expect(fastParse('a: 1\na: 2\n')).toBeUndefined(); // a duplicate key, refused by both parsers
    // Text the two parsers read differently goes to the full parser.
    for (const text of ['k: 0b101\n', 'k: [1, 0b11]\n', 'k: !!float 1\n', 'k: !custom x\n']) expect(fastParse(text), text).toBeUndefined();
    expect(fastParse('k: "wow!" # not a tag\nm: a != b\n')).toEqual({ k: 'wow!', m: 'a != b' });
  });
});

describe('the catalogue through the fast reader', () => {
  it('reads suites/requirements.yaml to exactly what the full parser reads', () => {
    const file = join(repoRoot, 'suites', 'requirements.yaml');
    const text = readFileSync(file, 'utf8');
    const { source } = parseYaml(file, text);
    // The catalogue is written in the plain subset: read by that reader, it is exactly what the full parser reads.
    const plain = parsePlainYaml(text);
    expect(plain).toBeDefined();
    expect(plain).toEqual(source.doc.toJS());
  });
});
