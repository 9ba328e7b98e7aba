// A reproduce command is pasted into a shell: each argument must reach the program as the very same single word.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../src/util/shell-word.ts';

/** What /bin/sh hands a program for the command text `printf '%s\0' WORD…`. */
function throughShell(words: string[]): string[] {
  const r = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${words.map(shellWord).join(' ')}`], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

describe('shellWord', () => {
  it('leaves ordinary paths, URLs and names as they are', () => {
    for (const w of ['suites', './my-suites/a.yaml', 'http://127.0.0.1:4010/v1', 'chat=gpt-3.5-turbo', '/tmp/x,y@z%20+1']) expect(shellWord(w)).toBe(w);
  });

  it('makes anything else one word that the shell gives back unchanged', () => {
    const words = ["Jo's suites", 'a b', 'https://h/p?x=1&y=2', '$HOME', '`id`', '*.yaml', 'semi;colon', 'back\\slash', "''", 'new\nline', 'tab\there', '~user', '#not-a-comment', '!bang', '(paren)', '{a,b}', '', 'é ü'];
    expect(throughShell(words)).toEqual(words);
  });
});
