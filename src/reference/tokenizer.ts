// A deliberately simple, documented tokenizer so suites can predict token counts exactly.
//
// Rule: a token is an optional run of whitespace followed by EITHER a run of ASCII letters/digits
// OR one other character; whitespace at the very end of a text is one more token.
//   "alpha beta, gamma" -> ["alpha", " beta", ",", " gamma"]        (4 tokens)
// Concatenating the tokens gives the text back exactly, so text offsets are exact.
//
// Token ids (prompts may be given as arrays of ids): id 50256 is the end-of-document token
// "<|endoftext|>"; every other id in 0..50280 decodes to " " + a pseudo-word spelled from its base-16
// digits with one syllable per digit (0 -> "ba", 1 -> "de", ..., 255 -> " zyzy").

const TOKEN_PATTERN = /\s*[A-Za-z0-9]+|\s*[^\sA-Za-z0-9]|\s+/gu;
const WORD_PATTERN = /^\s*([A-Za-z0-9]+)$/;

export const END_OF_TEXT_ID = 50256;
export const END_OF_TEXT = '<|endoftext|>';
export const MAX_TOKEN_ID = 50280;

const SYLLABLES = ['ba', 'de', 'fi', 'go', 'hu', 'ka', 'le', 'mi', 'no', 'pu', 'ra', 'se', 'ti', 'vo', 'wu', 'zy'] as const;

export function tokenize(text: string): string[] {
  return text.match(TOKEN_PATTERN) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** The word of a word token without its leading whitespace, or undefined for punctuation/whitespace tokens. */
export function wordOf(token: string): string | undefined {
  return WORD_PATTERN.exec(token)?.[1];
}

export function isValidTokenId(id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= MAX_TOKEN_ID;
}

export function decodeTokenId(id: number): string {
  if (id === END_OF_TEXT_ID) return END_OF_TEXT;
  let word = '';
  let rest = id;
  do {
    word = SYLLABLES[rest % 16]! + word;
    rest = Math.floor(rest / 16);
  } while (rest > 0);
  return ' ' + word;
}

export function decodeTokenIds(ids: readonly number[]): string {
  return ids.map(decodeTokenId).join('');
}
