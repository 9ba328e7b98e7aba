// The proxy's cassettes: one file per name (the `x-conformance-cassette` header), in the harness's nock format.
// Each change is written atomically (temp file, fsync, rename) and writes of one file never overlap: while one is
// on its way to the disk, later exchanges wait for the next, so a `kill -9` at any moment leaves each file whole
// and valid, or absent, and a clean stop writes everything recorded so far.
//
// Modes, as nock.back names them, per cassette:
//   record   replay what the cassette holds; forward what it does not, and add it
//   update   forward everything; the cassette is written again from this session's exchanges
//   lockdown replay only; a request the cassette does not hold is answered 404, naming the nearest recorded one
//   dryrun   replay what the cassette holds; forward the rest; write nothing
//   wild     forward everything; read and write nothing

import { cassetteFileNames, NOT_CASSETTES } from '../transport/cassette-folder.ts';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { serialisedResponse } from '../transport/cassette-record.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { CassetteError, cassettePath, readCassette, type CassetteDefinition, type CassetteMeta } from '../transport/cassette.ts';
import { describeTarget, keyOf, nearest, targetOfDefinition, type MatchTarget } from '../transport/cassette-match.ts';

export const PROXY_MODES = ['record', 'update', 'lockdown', 'dryrun', 'wild'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

/** The cassette of a request that names none. */
export const DEFAULT_CASSETTE = 'proxy';

/** Every cassette of the folder (a server of recordings asked without a cassette name). */
export const ANY_CASSETTE = '*';

export type Lookup =
  | { kind: 'replay'; def: CassetteDefinition }
  | { kind: 'forward' }
  | { kind: 'miss'; message: string };

/** How a cassette's file is made: the header its first entry carries, and a last look at the text (the key scan). */
export interface CassetteFile {
  header(name: string, interactions: number): CassetteMeta;
  /** Throws when this part of a cassette's text must not reach the disk. */
  guard(part: string | Uint8Array): void;
  /**
   * Changes whenever guard() may refuse what it passed before (a key learnt since): every part is looked at again.
   * While it stays, a part once passed need not be: a write looks only at the entries added since the last one.
   */
  guardVersion(): number;
}

interface Cassette {
  defs: CassetteDefinition[];
  /**
   * Each entry after the first as the file holds it (`,\n  {…}`, UTF-8), made once: a write joins them instead of
   * serialising and encoding the whole cassette again. The first entry carries the header, made at each write.
   */
  parts: Buffer[];
  /** How many of `parts` passed the key scan, under which guardVersion(). */
  guarded: { version: number; count: number };
  /** Recorded interactions this session has not served yet (by index), for replay in recorded order. */
  unused: boolean[];
  keys: string[];
  /** How many of `defs` the file held when this session opened it: only those are replayed (a poll recorded now is forwarded again). */
  loaded: number;
  /** The path of the base URL its requests went to ('' at the root): matching is on paths after it. */
  basePath: string;
  /** Recorded failures (no answer) asked for again, by match key: the new exchange takes the failure's place. */
  retry: Map<string, number>;
  /** Whether an entry the file held was replaced this session (the file must be written again at close). */
  rewritten: boolean;
  /** Whether anything changed since the last write started; and the write under way. */
  dirty: boolean;
  writing: Promise<void> | null;
}

export class CassetteStore {
  readonly #dir: string | undefined;
  readonly #mode: ProxyMode;
  readonly #cassettes = new Map<string, Cassette>();
  readonly #failed: string[] = [];
  #closing = false;
  /** Cassettes whose writing is under way: they share the time a write may take. */
  #writers = 0;

  readonly #file: CassetteFile;
  /** Request headers recordings are matched on (an allow-list; none by default). */
  readonly #matchHeaders: readonly string[];

  /** The path of the upstream's base URL this session ('' at the root). */
  readonly #basePath: string;

  constructor(opts: { dir: string | undefined; mode: ProxyMode; file: CassetteFile; matchHeaders?: readonly string[]; basePath?: string }) {
    this.#dir = opts.dir;
    this.#basePath = apiBase(opts.basePath ?? '');
    this.#mode = opts.dir === undefined ? 'wild' : opts.mode;
    this.#file = opts.file;
    this.#matchHeaders = opts.matchHeaders ?? [];
  }

  /**
   * What a recording is matched on, its path taken after the base path it was recorded under: recorded through
   * http://host/api, it answers /v1/models served at the root (serve --cassettes, useCassettes) and the other way.
   */
  #target(def: CassetteDefinition, basePath: string): MatchTarget {
    const target = targetOfDefinition(def, this.#matchHeaders);
    return { ...target, path: afterBase(target.path, basePath) };
  }

  get mode(): ProxyMode {
    return this.#mode;
  }

  /** Cassettes whose writing failed, with why. */
  get failures(): readonly string[] {
    return this.#failed;
  }

  /**
   * What to do with a request: serve a recorded answer, forward it, or refuse it (lockdown). `name` ANY_CASSETTE
   * looks in every cassette of the folder, in name order.
   */
  lookup(name: string, targetOf: () => MatchTarget): Lookup {
    if (this.#mode === 'wild' || this.#mode === 'update') return { kind: 'forward' };
    const asked = targetOf();
    const target = { ...asked, path: afterBase(asked.path, this.#basePath) };
    const key = keyOf(target);
    const names = name === ANY_CASSETTE ? this.#names() : [name];
    for (const n of names) {
      const c = this.#cassette(n);
      const held = c.keys.slice(0, c.loaded);
      let found = held.findIndex((k, i) => k === key && c.unused[i]);
      // Asked again after every recording of it was served (a poll): the last recorded answer again.
      if (found < 0) found = held.lastIndexOf(key);
      if (found >= 0) {
        c.unused[found] = false;
        const def = c.defs[found]!;
        // A recorded failure (the upstream unreachable, no headers in time) records no answer: outside lockdown the
        // upstream is asked again, as nock.back's record mode would, and what it says replaces the failure.
        if (def.status === 0 && this.#mode !== 'lockdown' && n === name) {
          c.retry.set(key, found);
          return { kind: 'forward' };
        }
        return { kind: 'replay', def };
      }
    }
    if (this.#mode !== 'lockdown') return { kind: 'forward' };
    const all = names.flatMap((n) => { const c = this.#cassette(n); return c.defs.map((d) => this.#target(d, c.basePath)); });
    const near = nearest(target, all);
    const where = name === ANY_CASSETTE ? `the cassettes of ${this.#dir}` : `cassette "${name}"`;
    const nearestHeld = all.length === 0 ? `${where} hold no recording` : `nearest recorded: ${describeTarget(all[near!.index]!)} (${near!.why || 'same request, already served'})`;
    return { kind: 'miss', message: `no recording of ${describeTarget(target)} in ${where}; ${nearestHeld}` };
  }

  /** The cassettes the folder holds, by name. */
  #names(): string[] {
    if (this.#dir === undefined) return [];
    return cassetteFileNames(this.#dir).filter((f) => !NOT_CASSETTES.has(f)).map((f) => f.slice(0, -5));
  }

  /** Keep an exchange the proxy forwarded (nothing in dryrun and wild). */
  add(name: string, def: CassetteDefinition): void {
    if (this.#mode === 'dryrun' || this.#mode === 'wild' || this.#mode === 'lockdown' || this.#dir === undefined) return;
    const c = this.#cassette(name);
    const key = keyOf(this.#target(def, c.basePath));
    // A failure asked again was found by the session's own base path (lookup), whatever the cassette's.
    const asked = keyOf(this.#target(def, this.#basePath));
    const replaced = c.retry.get(asked);
    if (replaced !== undefined) {
      c.retry.delete(asked);
      c.defs[replaced] = def;
      if (replaced > 0) c.parts[replaced] = entryPart(def);
      c.guarded.count = Math.min(c.guarded.count, Math.max(replaced, 1));
      c.rewritten = true;
    } else {
      c.defs.push(def);
      c.parts.push(entryPart(def));
      c.keys.push(key);
      c.unused.push(false);
    }
    this.#write(name, c);
  }

  /** Recorded interactions of cassettes this session used that no request asked for, as "name: METHOD path". */
  unused(): string[] {
    return [...this.#cassettes].flatMap(([name, c]) => c.defs.filter((_, i) => c.unused[i]).map((d) => `${name}: ${d.method} ${d.path}`));
  }

  /** Waits for every write under way, and the ones they left to do; from now on writes are durable and at once. */
  async flush(): Promise<void> {
    this.#closing = true;
    // What was written before without an fsync is written once more, durably.
    for (const [name, c] of this.#cassettes) if (c.defs.length > c.loaded || c.rewritten) this.#write(name, c);
    for (;;) {
      const pending = [...this.#cassettes.values()].map((c) => c.writing).filter((w): w is Promise<void> => w !== null);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  #cassette(name: string): Cassette {
    let c = this.#cassettes.get(name);
    if (c === undefined) {
      const path = this.#dir === undefined ? undefined : cassettePath(this.#dir, name);
      // update writes the cassette again from scratch; the other modes start from what it holds.
      const defs = path !== undefined && this.#mode !== 'update' && existsSync(path) ? cassetteOrNothing(path) : [];
      const basePath = defs.length > 0 ? recordedBasePath(defs[0]!) : this.#basePath;
      c = { defs, parts: defs.map((d, i) => (i === 0 ? Buffer.alloc(0) : entryPart(d))), guarded: { version: -1, count: 0 }, unused: defs.map(() => true), keys: defs.map((d) => keyOf(this.#target(d, basePath))), loaded: defs.length, basePath, retry: new Map(), rewritten: false, dirty: false, writing: null };
      this.#cassettes.set(name, c);
    }
    return c;
  }

  #write(name: string, c: Cassette): void {
    c.dirty = true;
    if (c.writing !== null) return;
    const path = cassettePath(this.#dir!, name);
    const run = async (): Promise<void> => {
      // Not a step before c.writing is set: a write that failed at once (a key found in the text) ended before it,
      // and cleared it before it was set; flush() then waited on that ended write forever, and the proxy never stopped.
      await null;
      // Exchanges that end together go to the disk together. Each write is the whole file, so a busy cassette
      // waits longer the longer its last write took, times how many cassettes are writing: writing stays a small
      // share of the time for the whole store, not the square of the exchanges (64 clients recording into 64
      // cassettes rewrote each of them ten times a second). The last write (at close) is durable; those before
      // it only atomic.
      this.#writers++;
      let waitMs = WRITE_EVERY_MS;
      while (c.dirty) {
        if (!this.#closing) await new Promise((r) => setTimeout(r, waitMs));
        c.dirty = false;
        const t0 = performance.now();
        try {
          await writeFileAtomic(path, this.#bytes(name, c), { durable: this.#closing });
        } catch (e) {
          this.#failed.push(`${path}: ${(e as Error).message}`);
        }
        waitMs = Math.min(LONGEST_WRITE_GAP_MS, Math.max(WRITE_EVERY_MS, 4 * this.#writers * (performance.now() - t0)));
      }
      this.#writers--;
      c.writing = null;
    };
    c.writing = run();
  }

  /** The cassette's bytes: its header on the first entry, then every entry as made when it was added; each part key-scanned. */
  #bytes(name: string, c: Cassette): Buffer {
    if (c.defs.length === 0) return Buffer.from('[]\n');
    const first = `[\n${entryText({ conformance: this.#file.header(name, c.defs.length), ...withoutHeader(c.defs[0]!) })}`;
    this.#file.guard(first);
    const version = this.#file.guardVersion();
    // Part by part is the whole text: a key comes from a header value, which holds no line break, and every part
    // starts with one.
    for (let i = version === c.guarded.version ? c.guarded.count : 1; i < c.parts.length; i++) this.#file.guard(c.parts[i]!);
    c.guarded = { version, count: c.parts.length };
    return Buffer.concat([Buffer.from(first), ...c.parts.slice(1), Buffer.from('\n]\n')]);
  }
}

/** The path of the base URL a cassette's header names ('' at the root, or for a cassette without one: nock's own). */
function recordedBasePath(first: CassetteDefinition): string {
  const base = first.conformance?.base_url;
  if (base === undefined) return '';
  try {
    return apiBase(new URL(base).pathname);
  } catch {
    return '';
  }
}

/**
 * The base path the API's paths follow: the spec's paths are `{base_url}/v1/…`, so a base URL given with its /v1
 * (as SDKs take it) keeps /v1 in the paths matched: recorded under https://host/v1, /v1/models still answers.
 */
function apiBase(pathname: string): string {
  return pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** `path` after `basePath`, when it lies under it. */
function afterBase(path: string, basePath: string): string {
  if (basePath === '' || !path.startsWith(basePath)) return path;
  const rest = path.slice(basePath.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? rest || '/' : path;
}

/** How long a cassette waits before its next write, gathering the exchanges that end meanwhile: at least, and at most (what a kill -9 may lose). */
const WRITE_EVERY_MS = 100;
const LONGEST_WRITE_GAP_MS = 2000;

/** Stands for the response in an entry serialised without it: a NUL and a nonce no recorded text holds. */
const RESPONSE_SLOT = `\u0000response ${randomUUID()}`;
const RESPONSE_SLOT_JSON = JSON.stringify(RESPONSE_SLOT);

/**
 * One line per entry: a cassette of thousands of exchanges stays quick to write and to diff entry by entry. A
 * response whose JSON text is already known goes in as that text, the same bytes JSON.stringify would give.
 */
function entryText(def: CassetteDefinition): string {
  const response = serialisedResponse(def.response);
  if (response === undefined) return `  ${JSON.stringify(def)}`;
  const shell = JSON.stringify({ ...def, response: RESPONSE_SLOT });
  const at = shell.indexOf(RESPONSE_SLOT_JSON);
  return `  ${shell.slice(0, at)}${response}${shell.slice(at + RESPONSE_SLOT_JSON.length)}`;
}

/** An entry after the first, with the separator before it, as the file's bytes. */
function entryPart(def: CassetteDefinition): Buffer {
  return Buffer.from(`,\n${entryText(def)}`);
}

function withoutHeader(def: CassetteDefinition): CassetteDefinition {
  const { conformance: _, ...rest } = def;
  return rest;
}

/** A cassette's entries; other JSON of the folder (a report, a manifest) holds none. A broken cassette throws. */
function cassetteOrNothing(path: string): CassetteDefinition[] {
  try {
    return readCassette(path);
  } catch (e) {
    if (e instanceof CassetteError && e.kind === 'not-a-cassette') return [];
    throw e;
  }
}
