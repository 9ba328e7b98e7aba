// A cassette folder: which suites it holds, checked against its manifest, and its recorded settings. Every
// reader of a folder lists its files with cassetteFileNames, the one listing.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CassetteError, cassettePath, MANIFEST_FILE, readCassette, readManifest, type CassetteManifest, type CassetteMeta } from './cassette.ts';

/** JSON files a recording folder holds beside its cassettes: never read as one. */
export const NOT_CASSETTES: ReadonlySet<string> = new Set([MANIFEST_FILE, 'verdicts.json', 'unused.json']);

/** The `<name>.json` files of DIR that may be cassettes (not hidden, not the manifest), sorted; none when DIR is no folder. */
export function cassetteFileNames(dir: string): string[] {
  if (!isFolder(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith('.json') && !name.startsWith('.') && name !== MANIFEST_FILE).sort();
}

/** A path that is not a folder holds no cassette (a run that writes there says it cannot). */
function isFolder(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory();
}

/** The suites a cassette folder holds: one `<suite>.json` array of definitions each (an empty array counts). */
export function recordedSuites(dir: string): Set<string> {
  const suites = new Set<string>();
  for (const name of cassetteFileNames(dir)) {
    try {
      readCassette(join(dir, name));
      suites.add(name.slice(0, -'.json'.length));
    } catch {
      // not a cassette (e.g. verdicts.json)
    }
  }
  return suites;
}

/** Why a suite of a folder cannot be replayed as recorded. */
export interface CassetteDefect {
  suite: string;
  file: string;
  kind: 'missing' | 'unreadable' | 'unlisted';
  /** What is wrong, naming the file. */
  message: string;
}

export interface CassetteFolder {
  /** What the folder holds: the suites its manifest lists, and every suite it has a cassette file of. */
  suites: Set<string>;
  /** Per suite that cannot be replayed as recorded, why; also per JSON file that is no cassette (verdicts.json). */
  defects: Map<string, CassetteDefect>;
  manifest?: CassetteManifest;
}

/**
 * A folder's suites, checked against its manifest: a suite the manifest lists whose cassette is missing or
 * unreadable, or a cassette the manifest does not list (another run's: a replay would send it requests made
 * from this folder's seed), is a defect. A folder without a manifest (an older recording, an imported HAR)
 * holds the cassettes it has.
 */
export function readCassetteFolder(dir: string): CassetteFolder {
  const manifest = readManifest(dir);
  const files = cassetteFiles(dir);
  const cassettes = [...files].filter(([, why]) => why === undefined).map(([suite]) => suite);
  const listed = new Set(manifest?.suites ?? cassettes);
  const defects = new Map<string, CassetteDefect>();
  const defect = (suite: string, kind: CassetteDefect['kind'], message: string) => defects.set(suite, { suite, file: cassettePath(dir, suite), kind, message });
  for (const suite of listed) {
    if (!files.has(suite)) defect(suite, 'missing', `${cassettePath(dir, suite)} is missing (${MANIFEST_FILE} lists suite ${suite})`);
  }
  for (const [suite, why] of files) {
    if (why !== undefined) defect(suite, 'unreadable', why);
    else if (!listed.has(suite)) defect(suite, 'unlisted', `${cassettePath(dir, suite)} is not listed in ${MANIFEST_FILE}: this folder's recording (seed ${manifest?.seed}) did not record it`);
  }
  return { suites: new Set([...listed, ...cassettes]), defects, ...(manifest ? { manifest } : {}) };
}

/** Every `<suite>.json` of DIR but the manifest, with why it is not a cassette (undefined when it is one). */
function cassetteFiles(dir: string): Map<string, string | undefined> {
  const files = new Map<string, string | undefined>();
  for (const name of cassetteFileNames(dir)) {
    files.set(name.slice(0, -'.json'.length), unreadable(join(dir, name)));
  }
  return files;
}

function unreadable(path: string): string | undefined {
  try {
    readCassette(path);
    return undefined;
  } catch (e) {
    return e instanceof CassetteError ? e.message : `${path} cannot be read (${(e as Error).message})`;
  }
}

/** The metadata of the first cassette in DIR that has some (suites share the run's metadata), if any. */
export function readCassetteMeta(dir: string): CassetteMeta | undefined {
  for (const name of cassetteFileNames(dir)) {
    try {
      const defs = readCassette(join(dir, name));
      const meta = defs[0]?.conformance;
      if (meta !== undefined && typeof meta.seed === 'number') return meta;
    } catch {
      // not a cassette (e.g. verdicts.json)
    }
  }
  return undefined;
}
