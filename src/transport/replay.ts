// Replay: requests are matched against the suite's cassette (method, path, body; volatile parts
// normalised) and the recorded answer is read by LiveTransport's own code (answerWith), so the Exchange is
// built as it was while recording (SSE folded event by event, gzip decoded, bounded, ...). nock keeps the
// network disabled while replaying; a request with no recorded match fails with `error.kind = 'unmatched'`,
// naming the nearest recorded request. Never a network fallback.

import { existsSync } from 'node:fs';
import nock from 'nock';
import { headersOfPairs } from './headers.ts';
import type { Redactor } from '../util/redact.ts';
import { cassettePath, readCassette, recordedBodyBytes, type CassetteDefinition } from './cassette.ts';
import { describeTarget, keyOf, nearest, targetOfDefinition, targetOfRequest, type MatchTarget } from './cassette-match.ts';
import { LiveTransport, headersAsSent, type Answered } from './live.ts';
import { bodyOfBytes } from './raw-body.ts';
import type { Exchange, OutgoingRequest, SendOptions, Transport } from './types.ts';

const HOP_BY_HOP = new Set(['connection', 'keep-alive']);

function withoutHopByHop(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/** The recorded headers as LiveTransport reports them (lower-case names, repeated ones joined). */
export interface PlayerOptions {
  dir: string;
  redactor: Redactor;
  maxResponseBytes: number;
  /** Lockdown (replay only): the network is disabled until close(). */
  disableNet: boolean;
}

interface Entry {
  def: CassetteDefinition;
  target: MatchTarget;
  key: string;
  used: boolean;
}

/** One suite's cassette as it is replayed: its recordings by match key, each served once. */
interface Tape {
  suite: string;
  file: string;
  /** null: the folder holds no cassette for the suite (every request is unmatched). */
  entries: Entry[] | null;
  byKey: Map<string, Entry[]>;
}

/** Replays the cassettes of a folder, one per suite; suites may be replayed at once, each by its name. */
export class CassettePlayer {
  readonly #opts: PlayerOptions;
  /** Set while the player is engaged (see release()): it reads the recorded answers. */
  #live: LiveTransport | null = null;
  #tapes = new Map<string, Tape>();
  /** The suite loaded last: where a request that names no suite goes. */
  #current: Tape | null = null;
  #closed = false;

  constructor(opts: PlayerOptions) {
    this.#opts = opts;
    this.#engage();
  }

  #engage(): LiveTransport {
    if (this.#live !== null) return this.#live;
    if (!nock.isActive()) nock.activate();
    if (this.#opts.disableNet) nock.disableNetConnect();
    this.#live = new LiveTransport({ maxResponseBytes: this.#opts.maxResponseBytes, redactor: this.#opts.redactor });
    return this.#live;
  }

  /**
   * Gives the network back until the next load(): nock, engaged only to keep the network off while replaying, is
   * restored, so that a live suite after a replayed one reaches its target as if nothing had been replayed.
   */
  async release(): Promise<void> {
    const live = this.#live;
    if (live === null) return;
    this.#live = null;
    await live.close();
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  }

  /** Load `DIR/<suite>.json`; false when there is none (every request of the suite is then unmatched). */
  load(suite: string): boolean {
    this.#engage();
    const file = cassettePath(this.#opts.dir, suite);
    const tape: Tape = { suite, file, entries: null, byKey: new Map() };
    this.#tapes.set(suite, tape);
    this.#current = tape;
    if (!existsSync(file)) return false;
    tape.entries = readCassette(file).map((def) => {
      const target = targetOfDefinition(def);
      return { def, target, key: keyOf(target), used: false };
    });
    for (const e of tape.entries) {
      const list = tape.byKey.get(e.key);
      if (list === undefined) tape.byKey.set(e.key, [e]);
      else list.push(e);
    }
    return true;
  }

  /** Recorded interactions of a suite (default: the one loaded last) that no request used (a notice, not a failure). */
  unused(suite?: string): string | undefined {
    const tape = this.#tapeOf(suite);
    const left = (tape?.entries ?? []).filter((e) => !e.used);
    if (left.length === 0) return undefined;
    const shown = left.slice(0, 5).map((e) => describeTarget(e.target, 80));
    return `cassette ${tape!.file}: ${left.length} recorded interaction${left.length === 1 ? '' : 's'} never used: ${shown.join('; ')}${left.length > 5 ? '; …' : ''}`;
  }

  #tapeOf(suite: string | undefined): Tape | null {
    return (suite !== undefined ? this.#tapes.get(suite) : undefined) ?? this.#current;
  }

  /** Serve a request from its suite's cassette (default: the one loaded last). */
  async send(req: OutgoingRequest, options: SendOptions, suite?: string): Promise<Exchange> {
    const redactor = this.#opts.redactor;
    const target = targetOfRequest(req.method, req.url, req.bodySummary, redactor);
    const tape = this.#tapeOf(suite);
    const entries = tape?.entries ?? null;
    if (tape === null || entries === null) {
      return this.#unmatched(req, `no cassette for suite "${tape?.suite ?? '(none)'}" (${tape?.file || this.#opts.dir}): ${describeTarget(target)} was not recorded`);
    }
    const file = tape.file;
    const candidates = tape.byKey.get(keyOf(target));
    const entry = candidates?.find((e) => !e.used);
    if (entry === undefined) {
      if (candidates !== undefined) {
        return this.#unmatched(req, `${describeTarget(target)} was recorded ${candidates.length} time${candidates.length === 1 ? '' : 's'} in ${file} and every recording was already used`);
      }
      const near = nearest(target, entries.map((e) => e.target));
      const hint = near === undefined ? 'the cassette is empty' : `nearest recorded: ${describeTarget(entries[near.index]!.target)} (${near.why})`;
      return this.#unmatched(req, `no recorded interaction in ${file} matches ${describeTarget(target)}; ${hint}`);
    }
    entry.used = true;
    const def = entry.def;
    if (def.status === 0 || def.rawHeaders === undefined) {
      // Recorded without a response (network error, timeout): the same error again.
      return { ...this.#bare(req), ...(def.error !== undefined ? { error: { ...def.error } } : { error: { kind: 'network', message: 'recorded without a response' } }) };
    }

    // The recorded answer is read by LiveTransport's own code (decoded, its events folded, bounded), as it was read
    // when it was recorded: no socket, no HTTP parser in between. Hop-by-hop headers are put back in the Exchange
    // below, as recorded.
    const live = this.#engage();
    const bytes = recordedBodyBytes(def);
    const answered: Answered = { statusCode: def.status, headers: headersOfPairs(withoutHopByHop(def.rawHeaders)), body: bodyOfBytes(bytes) };
    const exchange = await live.answerWith(req, options, answered);
    if (exchange.response !== undefined) exchange.response.headers = headersOfPairs(def.rawHeaders);
    // What the live run saw beyond the bytes (a stall, a timeout) comes back too, over what reading the kept bytes
    // gave (a body cut by a timeout was kept short).
    if (def.error !== undefined) exchange.error = { ...def.error };
    if (def.streamEnd !== undefined && exchange.stream !== undefined) {
      exchange.stream.end = def.streamEnd.end;
      if (def.streamEnd.detail !== undefined) exchange.stream.detail = def.streamEnd.detail;
      if (def.streamEnd.openAfterDone) exchange.stream.openAfterDone = true;
    }
    return exchange;
  }

  /** The request as LiveTransport reports it (its headers plus accept-encoding and content-length), redacted. */
  #redactedRequest(req: OutgoingRequest): Exchange['request'] {
    const r = this.#opts.redactor;
    return { method: req.method, url: r.text(req.url), headers: r.headers(headersAsSent(req)), body: r.value(req.bodySummary) };
  }

  #bare(req: OutgoingRequest): Exchange {
    return {
      request: this.#redactedRequest(req),
      attachments: {},
      timing: { startedAt: Date.now(), durationMs: 0 },
    };
  }

  #unmatched(req: OutgoingRequest, message: string): Exchange {
    return { ...this.#bare(req), error: { kind: 'unmatched', message: this.#opts.redactor.text(message) } };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.release();
  }
}

export interface ReplayOptions {
  dir: string;
  redactor: Redactor;
  maxResponseBytes: number;
  /** Notices (e.g. recorded interactions never used); default: none. */
  onNotice?: (message: string) => void;
}

/** `lockdown`: replay only, network disabled. */
export class ReplayTransport implements Transport {
  readonly name = 'replay' as const;
  readonly #player: CassettePlayer;
  readonly #onNotice: (message: string) => void;
  readonly notices: string[] = [];

  constructor(opts: ReplayOptions) {
    this.#player = new CassettePlayer({ dir: opts.dir, redactor: opts.redactor, maxResponseBytes: opts.maxResponseBytes, disableNet: true });
    this.#onNotice = opts.onNotice ?? (() => {});
  }

  async beginSuite(suite: string): Promise<void> {
    if (!this.#player.load(suite)) this.#notice(`no cassette for suite "${suite}": its requests will fail as unmatched`);
  }

  async endSuite(): Promise<void> {
    const unused = this.#player.unused();
    if (unused !== undefined) this.#notice(unused);
  }

  send(req: OutgoingRequest, options: SendOptions): Promise<Exchange> {
    return this.#player.send(req, options);
  }

  /** One suite's replay: its cassette, whatever other suites are replayed at the same time (--jobs). */
  forSuite(suite: string): Transport {
    return {
      name: this.name,
      send: (req, options) => this.#player.send(req, options, suite),
      beginSuite: async () => { if (!this.#player.load(suite)) this.#notice(`no cassette for suite "${suite}": its requests will fail as unmatched`); },
      endSuite: async () => { const unused = this.#player.unused(suite); if (unused !== undefined) this.#notice(unused); },
      close: () => Promise.resolve(),
    };
  }

  async close(): Promise<void> {
    await this.#player.close();
  }

  #notice(message: string): void {
    this.notices.push(message);
    this.#onNotice(message);
  }
}
