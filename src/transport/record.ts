// Record: the suites run live and each suite's interactions are written, redacted, when the suite ends
// (atomically: temp file + rename) into a staging folder beside DIR (`.DIR.recording-<pid>`). Only when every
// suite of the run completed are the staged cassettes moved into DIR: a re-record is all or nothing, so an
// interrupted, killed or crashed recording never leaves DIR with cassettes of mixed seeds, and a suite that
// threw never replaces a good cassette. A new recording first removes what dead runs left (temp files,
// staging folders).
//
// Modes (nock.back's names): `update` records every suite again; `record` replays the suites that
// already have a cassette (whole suites: a half-replayed suite would leave the live server without
// the resources the replayed requests created) and records the missing ones; `dryrun` replays the
// suites that have a cassette, runs the others live, and writes nothing.
//
// What the run's own timing and ports chose is written as placeholders (recording-placeholders.ts), and a
// complete recording ends with DIR/manifest.json: the same suites, seed and target give the same bytes.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TargetProfile } from '../profile/types.ts';
import type { Redactor } from '../util/redact.ts';
import { CASSETTE_FORMAT, cassettePath, sentAs, writeCassette, writeManifest, type CassetteDefinition, type CassetteManifest, type CassetteMeta } from './cassette.ts';
import { recordedSuites } from './cassette-folder.ts';
import { toDefinition } from './cassette-record.ts';
import { withPlaceholders } from './recording-placeholders.ts';
import { LiveTransport } from './live.ts';
import type { CassettePlayer } from './replay.ts';
import type { Exchange, OutgoingRequest, SendOptions, Transport } from './types.ts';

export type RecordMode = 'record' | 'update' | 'dryrun';

/** The settings a complete recording writes to DIR/manifest.json (suites and time are added at the end). */
export type ManifestSettings = Omit<CassetteManifest, 'format' | 'suites' | 'recorded_at'>;

export interface RecordOptions {
  dir: string;
  mode: RecordMode;
  redactor: Redactor;
  profile: TargetProfile;
  seed: number;
  onNotice?: (message: string) => void;
  /** Written to DIR/manifest.json when the recording completes. */
  manifest?: ManifestSettings;
  /**
   * Recording the embedded reference server: its origins (an ephemeral port) and the times the run's own timing
   * chose are written as placeholders, so the same run records the same bytes. A live target's recording is
   * kept as it was received.
   */
  placeholderOrigins?: readonly string[];
  /**
   * What the live requests go through (the run's rate limit and its retries of 429): the recording holds the answers
   * that came back through it, never a 429 that was retried.
   */
  through?: (live: Transport) => Transport;
}

export class RecordTransport implements Transport {
  readonly name = 'record' as const;
  readonly #opts: RecordOptions;
  readonly #live: LiveTransport;
  /** The live transport, or what the run wraps it in. */
  readonly #sender: Transport;
  readonly #onNotice: (message: string) => void;
  readonly notices: string[] = [];
  /** Cassettes written by this run. */
  readonly written: string[] = [];
  #player: CassettePlayer | null = null;
  #suite: string | null = null;
  #replayingSuite = false;
  #defs: CassetteDefinition[] = [];
  #interrupted = false;
  #signals = new Set<AbortSignal>();
  /** Where this run's cassettes wait until every suite has completed. */
  readonly #staging: string;
  readonly #staged: string[] = [];
  /** A suite of this run did not complete (or could not be written): nothing is moved into DIR. */
  #incomplete = false;

  constructor(opts: RecordOptions) {
    this.#opts = opts;
    this.#onNotice = opts.onNotice ?? (() => {});
    this.#live = new LiveTransport({ maxResponseBytes: opts.profile.maxResponseBytes, redactor: opts.redactor, keepRawBody: true });
    this.#sender = opts.through?.(this.#live) ?? this.#live;
    this.#staging = join(dirname(opts.dir), `.${basename(opts.dir)}.recording-${process.pid}`);
    removeLeftovers(opts.dir);
  }

  async beginSuite(suite: string): Promise<void> {
    this.#suite = suite;
    this.#defs = [];
    this.#interrupted = false;
    this.#signals.clear();
    this.#replayingSuite = false;
    if (this.#opts.mode !== 'update' && existsSync(cassettePath(this.#opts.dir, suite))) {
      if (this.#player === null) {
        // nock is loaded only when something is replayed: importing it intercepts sockets.
        const { CassettePlayer } = await import('./replay.ts');
        this.#player = new CassettePlayer({ dir: this.#opts.dir, redactor: this.#opts.redactor, maxResponseBytes: this.#opts.profile.maxResponseBytes, disableNet: false });
      }
      this.#player.load(suite);
      this.#replayingSuite = true;
    }
  }

  async send(req: OutgoingRequest, options: SendOptions): Promise<Exchange> {
    if (this.#replayingSuite && this.#player !== null) return this.#player.send(req, options);
    if (options.signal !== undefined) this.#signals.add(options.signal);
    const exchange = await this.#sender.send(req, options);
    const raw = this.#live.takeRawBody(exchange);
    if (exchange.error?.kind === 'aborted') this.#interrupted = true;
    if (this.#suite !== null && this.#opts.mode !== 'dryrun') this.#defs.push(toDefinition(req, exchange, raw, this.#opts.redactor, sentAs(req.headers, this.#opts.profile.credentials)));
    return exchange;
  }

  async endSuite(suite: string, meta: Record<string, unknown>): Promise<void> {
    const defs = this.#defs;
    this.#defs = [];
    this.#suite = null;
    if (this.#replayingSuite) {
      this.#replayingSuite = false;
      const unused = this.#player?.unused();
      if (unused !== undefined) this.#notice(unused);
      await this.#player?.release();
      return;
    }
    if (this.#opts.mode === 'dryrun') return;
    const path = cassettePath(this.#opts.dir, suite);
    if (this.#interrupted || [...this.#signals].some((s) => s.aborted) || meta['complete'] === false) {
      this.#incomplete = true;
      this.#notice(`suite "${suite}" did not complete: no cassette of this recording replaces what ${this.#opts.dir} holds${existsSync(path) ? ' (the previous cassette is kept)' : ''}`);
      return;
    }
    const p = this.#opts.profile;
    const header: CassetteMeta = {
      format: CASSETTE_FORMAT,
      suite,
      ...(typeof meta.tool === 'string' ? { tool: meta.tool } : {}),
      ...(typeof meta.spec === 'string' ? { spec: meta.spec } : {}),
      ...(typeof meta.target === 'string' ? { target: this.#opts.redactor.text(meta.target) } : {}),
      base_url: this.#opts.redactor.text(p.baseUrl),
      ...(p.pluginUrl !== undefined ? { plugin_url: this.#opts.redactor.text(p.pluginUrl) } : {}),
      seed: typeof meta.seed === 'number' ? meta.seed : this.#opts.seed,
      credentials: {
        api_key: p.credentials.apiKey !== undefined,
        member_api_key: p.credentials.memberApiKey !== undefined,
        ...(p.credentials.organization !== undefined ? { organization: this.#opts.redactor.text(p.credentials.organization) } : {}),
        ...(p.credentials.otherOrganization !== undefined ? { other_organization: this.#opts.redactor.text(p.credentials.otherOrganization) } : {}),
      },
      interactions: defs.length,
    };
    if (defs.length > 0) defs[0] = { conformance: header, ...defs[0]! };
    try {
      await mkdir(this.#staging, { recursive: true });
      const origins = this.#opts.placeholderOrigins;
      const placeholders = origins ? { origins, nowSeconds: Math.floor(Date.now() / 1000) } : undefined;
      await writeCassette(cassettePath(this.#staging, suite), defs, placeholders ? (text) => withPlaceholders(text, placeholders) : undefined);
    } catch (e) {
      this.#incomplete = true;
      throw e;
    }
    this.#staged.push(suite);
  }

  async close(outcome: { complete: boolean } = { complete: true }): Promise<void> {
    await this.#sender.close();
    await this.#player?.close();
    if (!outcome.complete) this.#incomplete = true;
    try {
      if (this.#staged.length > 0 && !this.#incomplete) {
        await mkdir(this.#opts.dir, { recursive: true });
        for (const suite of this.#staged) {
          await rename(cassettePath(this.#staging, suite), cassettePath(this.#opts.dir, suite));
          this.written.push(cassettePath(this.#opts.dir, suite));
        }
        if (this.#opts.manifest) {
          const manifest: CassetteManifest = { format: CASSETTE_FORMAT, ...this.#opts.manifest, suites: [...recordedSuites(this.#opts.dir)].sort(), recorded_at: new Date().toISOString() };
          await writeManifest(this.#opts.dir, manifest);
        }
        // A recording says where it went: nothing else of the run names the folder.
        this.#notice(`${this.written.length} cassette${this.written.length === 1 ? '' : 's'} recorded in ${this.#opts.dir}`);
      } else if (this.#staged.length > 0) {
        this.#notice(`the recording did not complete: none of its ${this.#staged.length} cassette(s) replaced what ${this.#opts.dir} holds`);
      }
    } finally {
      await rm(this.#staging, { recursive: true, force: true });
    }
  }

  /** Whether this recording replaced nothing because a suite did not complete. */
  get incomplete(): boolean {
    return this.#incomplete;
  }

  #notice(message: string): void {
    this.notices.push(message);
    this.#onNotice(message);
  }
}

/** A process id that is still running (EPERM: running, but not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temp files of killed writes in DIR, and staging folders of dead recordings beside it. */
function removeLeftovers(dir: string): void {
  const tmp = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;
  const staging = new RegExp(`^\\.${basename(dir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.recording-(\\d+)$`);
  for (const [folder, pattern, recursive] of [[dir, tmp, false], [dirname(dir), staging, true]] as const) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      const m = pattern.exec(name);
      if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(join(folder, name), { recursive, force: true });
    }
  }
}
