// Live progress: heartbeats in plain mode only after a silence, status lines redrawn in place on a terminal.
import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/report/progress.ts';
import { emptyCounts } from '../../src/engine/types.ts';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
}

describe('progress', () => {
  it('plain: a heartbeat only when suites run and nothing was printed for heartbeatMs, naming what they wait for', () => {
    let out = '';
    const c = clock();
    const p = new Progress({ write: (s: string) => (out += s) }, { mode: 'plain', heartbeatMs: 30_000, now: c.now });
    p.tick();
    expect(out).toBe('');
    p.onEvent({ type: 'suite-start', suite: 'fine-tunes', area: 'fine-tunes', cases: 40 });
    p.onEvent({ type: 'case-end', suite: 'fine-tunes', case: 'a', results: [] });
    c.advance(5_000);
    p.onEvent({ type: 'waiting', suite: 'fine-tunes', case: 'wait-succeeded', detail: 'wait-succeeded, GET /v1/fine-tunes/ft-1: /status was "pending"' });
    c.advance(20_000);
    // The same case's next answer: what it waits for changes, not since when.
    p.onEvent({ type: 'waiting', suite: 'fine-tunes', case: 'wait-succeeded', detail: 'wait-succeeded, GET /v1/fine-tunes/ft-1: /status was "running"' });
    c.advance(4_000);
    p.tick();
    expect(out).toBe('');
    c.advance(1_000);
    p.tick();
    expect(out).toBe('… still running: fine-tunes 1/40 cases, 30.0 s, waiting 25.0 s: wait-succeeded, GET /v1/fine-tunes/ft-1: /status was "running"\n');
    p.tick();
    expect(out.split('\n').length).toBe(2); // not again until another silence
    // Another case's wait starts its own clock.
    p.onEvent({ type: 'case-end', suite: 'fine-tunes', case: 'wait-succeeded', results: [] });
    p.onEvent({ type: 'waiting', suite: 'fine-tunes', case: 'wait-cancelled', detail: 'wait-cancelled, GET /v1/fine-tunes/ft-2: /status was "pending"' });
    c.advance(30_000);
    p.tick();
    expect(out.split('\n')[1]).toBe('… still running: fine-tunes 2/40 cases, 1 min 0 s, waiting 30.0 s: wait-cancelled, GET /v1/fine-tunes/ft-2: /status was "pending"');
    p.onEvent({ type: 'suite-end', outcome: { suite: 'fine-tunes', area: 'fine-tunes', file: 'x', durationMs: 1, counts: emptyCounts() } });
    c.advance(60_000);
    p.tick();
    expect(out.split('\n').length).toBe(3); // nothing runs: silence is fine
  });

  it('tty: one status line per running suite, cleared before a permanent line and drawn again after it', () => {
    let out = '';
    const p = new Progress({ write: (s: string) => (out += s) }, { mode: 'tty', now: () => 0 });
    p.onEvent({ type: 'suite-start', suite: 'files', area: 'files', cases: 3 });
    p.onEvent({ type: 'suite-start', suite: 'chat', area: 'chat', cases: 5 });
    expect(out.match(/… files 0\/3 cases/g)?.length).toBeGreaterThan(0);
    out = '';
    p.beforeLine();
    expect(out).toBe('\x1b[2A\x1b[J');
    out = '';
    p.afterLine();
    expect(out).toBe('  … files 0/3 cases, 0 ms\n  … chat 0/5 cases, 0 ms\n');
    p.onEvent({ type: 'suite-end', outcome: { suite: 'files', area: 'files', file: 'x', durationMs: 1, counts: emptyCounts() } });
    p.stop();
    expect(out.endsWith('\x1b[1A\x1b[J')).toBe(true);
  });

  it('tty: a status line never wraps on an 80-column terminal, and a suite of unknown size shows a count, not "n/0"', () => {
    let out = '';
    const p = new Progress({ write: (s: string) => (out += s) }, { mode: 'tty', now: () => 0, columns: () => 80 });
    p.onEvent({ type: 'suite-start', suite: 'engines', area: 'engines', cases: 9 });
    p.onEvent({ type: 'waiting', suite: 'engines', case: 'x', detail: 'fine-tune-succeeded: /status was "pending", still pending after a very long while' });
    p.onEvent({ type: 'suite-start', suite: 'fuzz-chat', area: 'chat', cases: 0 });
    p.onEvent({ type: 'case-end', suite: 'fuzz-chat', case: 'a', results: [] });
    out = '';
    p.afterLine();
    const lines = out.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(79);
    expect(lines[0]!.endsWith('…')).toBe(true);
    expect(lines[1]).toBe('  … fuzz-chat 1 case, 0 ms');
  });
});
