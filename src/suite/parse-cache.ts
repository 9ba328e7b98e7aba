// Parsed suite files, kept between runs. Parsing YAML is most of what loading a big suite file costs (a generated
// 3000-case suite of 800 KB: parsing and the garbage it leaves took ~6% of a whole 3000-request run), and a suite
// file changes far less often than it is run. An entry is what the readers read of one exact text (see
// fast-load.ts), found by the SHA-256 of that text (and of the readers' versions): it cannot go stale, only
// unused. The CLI turns it on (`conformance run`, as Node's compile cache for its modules); the library leaves
// it off unless asked.
//
// What it may never do is change a verdict or hide a problem, so every doubt is a miss: an entry that does not
// read back whole is parsed again (and rewritten), a folder that is not the user's own is not used at all, and
// a file that fails validation is re-read by the position-keeping parser as before (load.ts).

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { tempPathFor } from '../util/atomic-write.ts';
import { repoRoot } from '../util/paths.ts';
import { PLAIN_YAML_READER } from './plain-yaml.ts';
import { YAML_READING } from './yaml-source.ts';

/** Entries kept; past it the least recently used go. A suite file is some hundreds of KB at most. */
const MAX_ENTRIES = 64;
/** Texts shorter than this parse in well under a millisecond: not worth a file. */
const MIN_TEXT_CHARS = 16 * 1024;
/** Changes when what an entry holds changes. */
const FORMAT = 'suite-parse-3';

export interface ParseCacheOptions {
  dir: string;
  maxEntries?: number;
  minTextChars?: number;
}

export class ParseCache {
  readonly #dir: string;
  readonly #maxEntries: number;
  readonly #minChars: number;
  readonly #parser: string;
  #usable: boolean | undefined;

  constructor(opts: ParseCacheOptions) {
    this.#dir = opts.dir;
    this.#maxEntries = opts.maxEntries ?? MAX_ENTRIES;
    this.#minChars = opts.minTextChars ?? MIN_TEXT_CHARS;
    this.#parser = parserVersion();
  }

  /**
   * What `parse` reads of `text`, from the cache or from `parse` (then kept); `parse` returning undefined is not
   * kept. `reading`: what else the value depends on (a validator's version), part of the key.
   */
  through(text: string, parse: () => unknown, reading = ''): unknown {
    if (text.length < this.#minChars || !this.#ready()) return parse();
    const key = createHash('sha256').update(`${FORMAT}\0${this.#parser}\0${reading}\0`).update(text).digest('hex');
    const path = join(this.#dir, `${key}.v8`);
    const held = this.#read(path, key);
    if (held.found) return held.value;
    const value = parse();
    if (value !== undefined) this.#write(path, key, value);
    return value;
  }

  /** The folder exists (made if not), is a folder of this user's own, and others cannot write to it. */
  #ready(): boolean {
    if (this.#usable !== undefined) return this.#usable;
    try {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      const st = statSync(this.#dir);
      const uid = process.getuid?.();
      this.#usable = st.isDirectory() && (uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0));
    } catch {
      this.#usable = false;
    }
    return this.#usable;
  }

  #read(path: string, key: string): { found: true; value: unknown } | { found: false } {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return { found: false };
    }
    try {
      const entry = deserialize(bytes) as { key?: unknown; value?: unknown } | null;
      if (entry === null || typeof entry !== 'object' || entry.key !== key || !('value' in entry)) return { found: false };
      // Used now: the least recently used entries are the ones evicted.
      try { const now = new Date(); utimesSync(path, now, now); } catch { /* an entry still read is kept anyway */ }
      return { found: true, value: entry.value };
    } catch {
      return { found: false }; // torn or foreign: parsed again, and written over
    }
  }

  #write(path: string, key: string, value: unknown): void {
    const tmp = tempPathFor(path);
    try {
      // Renamed into place: another run reading it sees the whole entry or none. Not synced to the disk: an
      // entry lost to a crash is a miss, never a wrong answer (it must read back whole, with its key).
      writeFileSync(tmp, serialize({ key, value }), { mode: 0o600 });
      renameSync(tmp, path);
      this.#evict();
    } catch {
      try { rmSync(tmp, { force: true }); } catch { /* nothing left to do */ }
    }
  }

  #evict(): void {
    const entries = readdirSync(this.#dir).filter((n) => n.endsWith('.v8'));
    if (entries.length <= this.#maxEntries) return;
    const byAge = entries.map((n) => {
      try { return { n, t: statSync(join(this.#dir, n)).mtimeMs }; } catch { return { n, t: 0 }; }
    }).sort((a, b) => a.t - b.t);
    for (const { n } of byAge.slice(0, entries.length - this.#maxEntries)) {
      try { rmSync(join(this.#dir, n), { force: true }); } catch { /* another run removed it */ }
    }
  }
}

function parserVersion(): string {
  let yaml = '?';
  try {
    yaml = (createRequire(import.meta.url)('yaml/package.json') as { version: string }).version;
  } catch { /* keyed without it */ }
  // The package's own version too: the cache outlives an upgrade (it sits in node_modules/.cache), and a release may
  // change how a file is read or checked without a reader's number changing.
  let own = '?';
  try {
    own = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch { /* keyed without it */ }
  // The parser's settings too: read more strictly, a kept entry could hand the loader what the parser now refuses.
  return `model-api-conformance@${own}+plain-yaml@${PLAIN_YAML_READER}+yaml@${yaml}+${JSON.stringify(YAML_READING)}`;
}

/**
 * Where the CLI keeps it: CONFORMANCE_CACHE_DIR, else node_modules/.cache/model-api-conformance of the project
 * the tool is installed in (or of this clone), the folder build tools share for caches. CONFORMANCE_CACHE=off
 * turns it off.
 */
export function defaultParseCacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.CONFORMANCE_CACHE === 'off' || env.CONFORMANCE_CACHE === '0') return undefined;
  if (env.CONFORMANCE_CACHE_DIR) return join(env.CONFORMANCE_CACHE_DIR, 'parsed');
  let modules = join(repoRoot, 'node_modules');
  for (let dir = dirname(repoRoot); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') { modules = dir; break; }
  }
  return join(modules, '.cache', 'model-api-conformance', 'parsed');
}

let active: ParseCache | undefined;

/** Turns the cache on for this process (the CLI does), or off with undefined. */
export function useParseCache(cache: ParseCache | undefined): void {
  active = cache;
}

/** The cache in use, if any. */
export function parseCache(): ParseCache | undefined {
  return active;
}
