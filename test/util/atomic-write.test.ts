import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicFromParts, writeFileAtomicSync } from '../../src/util/atomic-write.ts';

async function tmp(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'atomic-'));
}

describe('writeFileAtomic', () => {
  it('creates parents and replaces the target', async () => {
    const dir = await tmp();
    const target = join(dir, 'a', 'b', 'out.json');
    await writeFileAtomic(target, '{"v":1}');
    await writeFileAtomic(target, new TextEncoder().encode('{"v":2}'));
    expect(await readFile(target, 'utf8')).toBe('{"v":2}');
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['out.json']);
  });

  it('leaves the previous target intact and no temp file when the write fails', async () => {
    const dir = await tmp();
    const target = join(dir, 'out.txt');
    await writeFile(target, 'old');
    await expect(writeFileAtomic(target, 42 as unknown as string)).rejects.toThrow();
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['out.txt']);
    expect(() => writeFileAtomicSync(target, { bad: true } as unknown as string)).toThrow();
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['out.txt']);
  });

  it('cleans up when the rename fails (target is a non-empty directory)', async () => {
    const dir = await tmp();
    const target = join(dir, 'report');
    await mkdir(target);
    await writeFile(join(target, 'keep.txt'), 'keep');
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow();
    expect(() => writeFileAtomicSync(target, 'new')).toThrow();
    expect((await readdir(dir)).sort()).toEqual(['report']);
    expect(await readFile(join(target, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('sync variant writes', async () => {
    const dir = await tmp();
    const target = join(dir, 'x', 's.txt');
    writeFileAtomicSync(target, 'sync');
    expect(await readFile(target, 'utf8')).toBe('sync');
  });

  it('streams parts into the file, multi-byte characters and batches included', async () => {
    const dir = await tmp();
    const target = join(dir, 'r', 'page.html');
    const parts = function* () { for (let i = 0; i < 20_000; i++) yield `<tr>${i} ✔ é</tr>\n`; };
    await writeFileAtomicFromParts(target, parts());
    expect(await readFile(target, 'utf8')).toBe([...parts()].join(''));
    expect(await readdir(join(dir, 'r'))).toEqual(['page.html']);
  });

  it('writes the bytes Buffer.from would: surrogate pairs, lone surrogates, parts larger than a batch', async () => {
    const dir = await tmp();
    const target = join(dir, 'mixed.txt');
    const parts = ['a', '😀'.repeat(50_000), 'é', '\ud800 lone', 'x'.repeat(700 * 1024), '✔', ''];
    await writeFileAtomicFromParts(target, parts);
    expect((await readFile(target)).equals(Buffer.from(parts.join(''), 'utf8'))).toBe(true);
  });

  it('a renderer that throws half way leaves the previous file as it was, and no temp file', async () => {
    const dir = await tmp();
    const target = join(dir, 'report.json');
    await writeFile(target, 'old');
    const broken = function* () { yield 'x'.repeat(300 * 1024); throw new Error('renderer broke'); };
    await expect(writeFileAtomicFromParts(target, broken())).rejects.toThrow(/renderer broke/);
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['report.json']);
  });

  it('a rename that fails (a folder where the file goes) rejects, and leaves no temp file', async () => {
    const dir = await tmp();
    const target = join(dir, 'report.json');
    await mkdir(join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomicFromParts(target, ['{}'])).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['report.json']);
    expect(await readdir(target)).toEqual(['inside']);
  });
});
