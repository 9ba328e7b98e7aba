// Seeded, dependency-free pseudo-randomness so that the same request always gets the same answer.

/** 32-bit FNV-1a over the given parts (joined with a separator that cannot occur in JSON text). */
export function hashParts(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast, good enough for fake scores; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random-looking object ids like the real ones (`cmpl-` + 29 chars); uniqueness from a process counter. */
let idCounter = 0;
const idRandom = seededRandom(Date.now() ^ (process.pid << 8));
export function makeId(prefix: string, length = 24): string {
  idCounter++;
  let s = '';
  for (let i = 0; i < length - 6; i++) s += ID_ALPHABET[Math.floor(idRandom() * ID_ALPHABET.length)];
  let c = idCounter;
  for (let i = 0; i < 6; i++) {
    s += ID_ALPHABET[c % ID_ALPHABET.length];
    c = Math.floor(c / ID_ALPHABET.length);
  }
  return `${prefix}${s}`;
}

export function unixSeconds(ms: number = Date.now()): number {
  return Math.floor(ms / 1000);
}
