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

/**
 * Random-looking object ids like the real ones (`cmpl-` + 29 chars), unique per server from its counter. Seeded by
 * the server's seed, so the same requests in the same order get the same ids: two recordings of one run are
 * byte-identical, and a replay's captured ids are the recorded ones.
 */
export interface IdSource {
  next(prefix: string, length?: number): string;
}

export function idSource(seed: number): IdSource {
  const random = seededRandom(hashParts('ids', seed));
  let counter = 0;
  return { next: (prefix, length = 24) => makeIdFrom(random, ++counter, prefix, length) };
}

function makeIdFrom(random: () => number, counter: number, prefix: string, length: number): string {
  let s = '';
  for (let i = 0; i < length - 6; i++) s += ID_ALPHABET[Math.floor(random() * ID_ALPHABET.length)];
  let c = counter;
  for (let i = 0; i < 6; i++) {
    s += ID_ALPHABET[c % ID_ALPHABET.length];
    c = Math.floor(c / ID_ALPHABET.length);
  }
  return `${prefix}${s}`;
}

export function unixSeconds(ms: number = Date.now()): number {
  return Math.floor(ms / 1000);
}
