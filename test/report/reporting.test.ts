import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/engine/types.ts';
import { Reporting, type OutputReporter } from '../../src/report/index.ts';
import type { Report, ReportPaths } from '../../src/report/types.ts';
import { NO_SECRETS, Redactor } from '../../src/util/redact.ts';
import { catalogue, failResult, makeReport, makeRun } from './fixtures.ts';

const KEY = 'sk-echoed-secret-1234567890';

/** An output reporter that keeps what it was given. */
function keeper(readsCaseResults: boolean): OutputReporter & { events: RunEvent[]; ended: Array<[Report, ReportPaths]> } {
  const events: RunEvent[] = [];
  const ended: Array<[Report, ReportPaths]> = [];
  return { kind: 'output', name: 'keeper', readsCaseResults, events, ended, onEvent: (e) => events.push(e), end: (r, f) => ended.push([r, f]) };
}

async function inDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'reporting-'));
  try { return await f(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

describe('Reporting: every reporter sees results redacted once, in front of all of them', () => {
  const echoed = { ...failResult, message: `Incorrect API key provided: ${KEY}` };
  const redactor = new Redactor({ secretHeaders: [], secretValues: [KEY] });

  it('a key the target echoed reaches no file, no console line and no output reporter', async () => {
    await inDir(async (dir) => {
      let console = '';
      const kept = keeper(true);
      const reporting = new Reporting({ dir, catalogue, out: { write: (s: string) => (console += s) }, env: {}, console: { color: false, verbose: true } }, ['console', kept], redactor);
      reporting.listener({ type: 'case-end', suite: echoed.suite, case: echoed.case, results: [echoed] });
      const { report, files } = await reporting.end(makeReport(makeRun({ results: [echoed] })));
      expect(console).toContain('Incorrect API key provided: REDACTED');
      expect(console).not.toContain(KEY);
      expect(JSON.stringify(kept.events)).not.toContain(KEY);
      expect(kept.ended[0]![0]).toBe(report);
      expect(kept.ended[0]![1]).toEqual(files);
      expect(JSON.stringify(report)).not.toContain(KEY);
      expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
      for (const name of Object.values(files)) expect(await readFile(name, 'utf8'), name).not.toContain(KEY);
    });
  });

  it('a case\'s results reach the outputs only when one of them reads them (the console with --verbose)', async () => {
    await inDir(async (dir) => {
      const counting = keeper(false);
      const quiet = new Reporting({ dir, catalogue, out: { write: () => true }, env: {} }, [counting], redactor);
      quiet.listener({ type: 'case-end', suite: 's', case: 'c', results: [echoed] });
      expect(counting.events).toEqual([{ type: 'case-end', suite: 's', case: 'c', results: [] }]);
      const reading = keeper(true);
      new Reporting({ dir, catalogue, out: { write: () => true }, env: {} }, [counting, reading], redactor).listener({ type: 'case-end', suite: 's', case: 'c', results: [echoed] });
      expect((reading.events[0] as Extract<RunEvent, { type: 'case-end' }>).results).toHaveLength(1);
    });
  });

  it('outputs end in the order given, after every file is written', async () => {
    await inDir(async (dir) => {
      const order: string[] = [];
      const at = (name: string): OutputReporter => ({ kind: 'output', name, end: (_r, files) => { order.push(`${name}:${Object.keys(files).sort().join(',')}`); } });
      await new Reporting({ dir, catalogue, out: { write: () => true }, env: {} }, [at('b'), at('a')], NO_SECRETS).end(makeReport());
      expect(order).toEqual(['b:html,json,junit,markdown', 'a:html,json,junit,markdown']);
    });
  });
});
