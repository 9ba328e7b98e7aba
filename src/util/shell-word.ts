// Arguments of the commands a failure prints to reproduce it (`conformance run …`, `conformance plugin …`): a
// person pastes them into a shell, so each argument must come out as one word, whatever a path or URL holds.

/** `word` as one word of a POSIX shell: as it is when nothing in it is special to the shell, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
