// Live progress while suites run (several at once with --jobs). On a terminal: one status line per running
// suite, redrawn in place (cases done/total, elapsed, what it waits for) and replaced by the suite's final line.
// Plain (CI=true, or not a terminal): append-only, a heartbeat line at most every heartbeatMs while suites run
// and nothing else was printed, so a long fine-tune poll does not look like a hang.

import type { RunEvent } from '../engine/types.ts';
import { formatDuration, sanitize } from './text.ts';

export interface ProgressOptions {
  mode: 'tty' | 'plain';
  /** Plain mode: the longest silence before a heartbeat line (default 30 s). */
  heartbeatMs?: number;
  now?: () => number;
  /** The terminal's width now (it may be resized): a status line longer than it wraps, and the redraw goes wrong. */
  columns?: () => number | undefined;
}

/** What a suite waits for: the case's poll, and since when (its first answer that did not meet the condition). */
interface Waiting { case: string; detail: string; since: number }
interface Running { started: number; done: number; total: number; waiting?: Waiting }

export class Progress {
  readonly #running = new Map<string, Running>();
  readonly #now: () => number;
  readonly #heartbeatMs: number;
  #drawn = 0;
  #lastOutput: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: { write(s: string): unknown }, private readonly opts: ProgressOptions) {
    this.#now = opts.now ?? Date.now;
    this.#heartbeatMs = opts.heartbeatMs ?? 30_000;
    this.#lastOutput = this.#now();
  }

  onEvent(event: RunEvent): void {
    switch (event.type) {
      case 'suite-start': this.#running.set(event.suite, { started: this.#now(), done: 0, total: event.cases }); break;
      case 'case-end': { const r = this.#running.get(event.suite); if (r) { r.done++; delete r.waiting; } break; }
      case 'waiting': {
        const r = this.#running.get(event.suite);
        if (r) r.waiting = { case: event.case, detail: event.detail, since: r.waiting?.case === event.case ? r.waiting.since : this.#now() };
        break;
      }
      case 'suite-end': this.#running.delete(event.outcome.suite); break;
      default: return;
    }
    if (this.opts.mode === 'tty') this.#redraw();
  }

  /** Around every permanent line: the status block is taken away and drawn again below it. */
  beforeLine(): void {
    if (this.opts.mode === 'tty') this.#clear();
  }

  afterLine(): void {
    this.#lastOutput = this.#now();
    if (this.opts.mode === 'tty') this.#draw();
  }

  start(): void {
    this.#timer = setInterval(() => this.tick(), this.opts.mode === 'tty' ? 1000 : Math.min(this.#heartbeatMs, 5000));
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.opts.mode === 'tty') this.#clear();
  }

  /** The timer's work: redraw the elapsed times, or, in plain mode, a heartbeat after a long silence. */
  tick(): void {
    if (this.opts.mode === 'tty') { this.#redraw(); return; }
    if (this.#running.size === 0 || this.#now() - this.#lastOutput < this.#heartbeatMs) return;
    this.out.write(`… still running: ${[...this.#running].map(([name, r]) => this.#status(name, r)).join('; ')}\n`);
    this.#lastOutput = this.#now();
  }

  #status(name: string, r: Running): string {
    // A suite written in code (fuzzing) does not know its case count in advance: no "11/0".
    return `${sanitize(name)} ${r.total > 0 ? `${r.done}/${r.total} cases` : `${r.done} case${r.done === 1 ? '' : 's'}`}, ${formatDuration(this.#now() - r.started)}${r.waiting ? `, waiting ${formatDuration(this.#now() - r.waiting.since)}: ${sanitize(r.waiting.detail)}` : ''}`;
  }

  #redraw(): void {
    this.#clear();
    this.#draw();
  }

  #clear(): void {
    if (this.#drawn > 0) this.out.write(`\x1b[${this.#drawn}A\x1b[J`);
    this.#drawn = 0;
  }

  #draw(): void {
    const lines = [...this.#running].map(([name, r]) => `  … ${this.#status(name, r)}`);
    // One screen row each, or the cursor-up count would miss the wrapped rows and stale lines would stay behind.
    const width = Math.max(20, (this.opts.columns?.() ?? 161) - 1);
    for (const l of lines) this.out.write(`${fit(l, width)}\n`);
    this.#drawn = lines.length;
  }
}

/** At most `width` characters (code points), the last one an ellipsis when cut. */
function fit(line: string, width: number): string {
  const chars = [...line];
  return chars.length <= width ? line : `${chars.slice(0, width - 1).join('')}…`;
}
