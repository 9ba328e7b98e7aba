// Record: the suites run live and each suite's interactions are written, redacted, to
// `DIR/<suite>.json` when the suite ends (atomically: temp file + rename). An interrupted suite
// is not written, so the previous cassette stays intact.
//
// Modes (as nock.back's): `rerecord` records every suite again; `record` replays the suites that
// already have a cassette (whole suites: a half-replayed suite would leave the live server without
// the resources the replayed requests created) and records the missing ones.

import { existsSync } from 'node:fs';
import type { TargetProfile } from '../profile/types.ts';
import type { Redactor } from '../util/redact.ts';
import { CASSETTE_FORMAT, cassettePath, toDefinition, writeCassette, type CassetteDefinition, type CassetteMeta } from './cassette.ts';
import { LiveTransport } from './live.ts';
import type { CassettePlayer } from './replay.ts';
import type { Exchange, OutgoingRequest, SendOptions, Transport } from './types.ts';

export type RecordMode = 'record' | 'rerecord';

export interface RecordOptions {
  dir: string;
  mode: RecordMode;
  redactor: Redactor;
  profile: TargetProfile;
  seed: number;
  onNotice?: (message: string) => void;
}

export class RecordTransport implements Transport {
  readonly name = 'record' as const;
  readonly #opts: RecordOptions;
  readonly #live: LiveTransport;
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

  constructor(opts: RecordOptions) {
    this.#opts = opts;
    this.#onNotice = opts.onNotice ?? (() => {});
    this.#live = new LiveTransport({ maxResponseBytes: opts.profile.maxResponseBytes, redactor: opts.redactor, keepRawBody: true });
  }

  async beginSuite(suite: string): Promise<void> {
    this.#suite = suite;
    this.#defs = [];
    this.#interrupted = false;
    this.#signals.clear();
    this.#replayingSuite = false;
    if (this.#opts.mode === 'record' && existsSync(cassettePath(this.#opts.dir, suite))) {
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
    const exchange = await this.#live.send(req, options);
    const raw = this.#live.takeRawBody(exchange);
    if (exchange.error?.kind === 'aborted') this.#interrupted = true;
    if (this.#suite !== null) this.#defs.push(toDefinition(req, exchange, raw, this.#opts.redactor));
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
      return;
    }
    const path = cassettePath(this.#opts.dir, suite);
    if (this.#interrupted || [...this.#signals].some((s) => s.aborted)) {
      this.#notice(`suite "${suite}" was interrupted: ${path} not written${existsSync(path) ? ' (the previous cassette is kept)' : ''}`);
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
      recorded_at: new Date().toISOString(),
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
    await writeCassette(path, defs);
    this.written.push(path);
  }

  async close(): Promise<void> {
    await this.#live.close();
    await this.#player?.close();
  }

  #notice(message: string): void {
    this.notices.push(message);
    this.#onNotice(message);
  }
}
