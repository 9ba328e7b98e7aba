// runConformance(options) is `conformance run` driven by options: every option of the command, the same
// messages and exit codes, and nothing a caller passes is silently dropped or misread.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance, type RunConformanceOptions } from '../../src/api/run-conformance.ts';
import { runRequest } from '../../src/api/options.ts';
import { RUN_FLAGS } from '../../src/run/args.ts';

/** One small suite, no fuzzing: each run takes well under a second against the embedded reference server. */
const quick = { suites: ['models'], fuzzRuns: 0 } satisfies RunConformanceOptions;

/** Options a JavaScript caller might pass that TypeScript rejects (typos, wrong types). */
const untyped = (o: Record<string, unknown>) => runConformance(o as RunConformanceOptions);

describe('runConformance: a run of one suite', () => {
  it('passes against the embedded reference server and returns the report', async () => {
    const { exitCode, report, errors } = await runConformance(quick);
    expect(errors).toBe('');
    expect(exitCode).toBe(0);
    expect(report?.verdict).toBe('pass');
    expect(new Set(report?.results.map((r) => r.suite))).toEqual(new Set(['models']));
  });
});

describe('runConformance: an option it does not know is a usage error, never ignored', () => {
  it('names the unknown key and the option it is nearest to (exit 2, nothing run)', async () => {
    let output = '';
    // @ts-expect-error -- `suite` is not an option (TypeScript says so too): JavaScript callers get the same answer.
    const r = await runConformance({ suite: ['models'], fuzzRuns: 0, output: { write: (s: string) => { output += s; } } });
    expect(r.exitCode).toBe(2);
    expect(r.report).toBeUndefined();
    expect(r.errors).toBe('conformance run: unknown option "suite" — did you mean "suites"?\n');
    expect(output).toBe(r.errors);
  });

  it('suggests the camelCase name for a flag written as on the command line', async () => {
    const r = await untyped({ ...quick, 'fuzz-budget-ms': 100 });
    expect(r.exitCode).toBe(2);
    expect(r.errors).toBe('conformance run: unknown option "fuzz-budget-ms" — did you mean "fuzzBudgetMs"?\n');
  });

  it('lists the options when no known one is near', async () => {
    const r = await untyped({ ...quick, colourfulness: true });
    expect(r.exitCode).toBe(2);
    expect(r.errors.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.errors).toMatch(/^conformance run: unknown option "colourfulness" \(options: .*\bsuites\b.*\)\n$/);
  });

  it.each([
    ['suites', 'models', 'an array of strings'],
    ['only', 'false', 'true or false'],
    ['seed', '5', 'a number'],
    ['grep', 7, 'a string'],
    ['models', ['chat=x'], 'an object of strings, e.g. { chat: "my-model" } (got an array)'],
    ['seed', 5n, 'a number (got bigint)'],
    ['output', process.stdout.write, 'an object with a write(text) method (got function)'],
  ])('an option of the wrong type (%s: %s) is a usage error too', async (key, value, expected) => {
    const r = await untyped({ ...quick, [key]: value });
    expect(r.exitCode).toBe(2);
    expect(r.report).toBeUndefined();
    expect(r.errors).toContain(`conformance run: option "${key}" expects ${expected}`);
  });

  it('says what the wrong value was', async () => {
    const r = await untyped({ ...quick, only: 'false' });
    expect(r.errors).toBe('conformance run: option "only" expects true or false (got "false")\n');
  });
});

describe('runConformance: any value reaches the CLI as a value, whatever its first character', () => {
  it('grep: "-listed" selects the cases whose id contains "-listed"', async () => {
    const { exitCode, report, errors } = await runConformance({ ...quick, grep: '-listed' });
    expect(errors).not.toContain('ambiguous');
    expect(exitCode).toBe(0);
    const cases = new Set(report?.results.map((r) => r.case));
    expect(cases).toContain('retrieve-listed');
    expect(cases).not.toContain('retrieve-unknown');
  });

  it('apiKey: "-k1" is sent as the key (and refused by the reference server: exit 3)', async () => {
    const { exitCode, errors } = await runConformance({ ...quick, apiKey: '-k1' });
    expect(errors).not.toContain('ambiguous');
    expect(exitCode).toBe(3);
    expect(errors).toMatch(/key/i);
  });

  it('grep: "--debug" is a value, not the --debug switch', async () => {
    const { exitCode, errors } = await runConformance({ ...quick, grep: '--debug' });
    expect(exitCode).toBe(2);
    expect(errors).toBe('conformance run: the selection matches no case (--grep "--debug"): nothing to run\n');
  });

  it('a path starting with "-" is a path', async () => {
    const { exitCode, errors } = await runConformance({ ...quick, paths: ['-no-such-folder'] });
    expect(exitCode).toBe(2);
    expect(errors).toBe('conformance run: no suite file or folder at -no-such-folder\n');
  });

  it.each([
    [{ seed: -5 }, '--seed expects an integer ≥ 0, got "-5"'],
    [{ fuzzRuns: -1 }, '--fuzz-runs expects an integer ≥ 0, got "-1"'],
    [{ seed: 1.5 }, '--seed expects an integer ≥ 0, got "1.5"'],
    [{ timeoutMs: 0 }, '--timeout expects an integer ≥ 1, got "0"'],
  ] satisfies [RunConformanceOptions, string][])('out-of-range numbers get the CLI\'s own message: %j', async (options, message) => {
    const { exitCode, errors } = await runConformance({ ...quick, ...options });
    expect(exitCode).toBe(2);
    expect(errors).toBe(`conformance run: ${message}\n`);
  });
});

describe('runConformance: every option of `conformance run`', () => {
  it.each([
    [{ jobs: 0 }, '--jobs expects an integer ≥ 1, got "0"'],
    [{ rateLimit: 0 }, '--rate-limit expects N/s with N > 0, e.g. 5/s (got "0")'],
    [{ shard: '3/2' }, '--shard must be I/N with 1 ≤ I ≤ N (got "3/2")'],
    [{ pollDeadlineMs: 0 }, '--poll-deadline expects an integer ≥ 1, got "0"'],
    [{ fuzzBudgetMs: 0 }, '--fuzz-budget-ms expects an integer ≥ 1, got "0"'],
    [{ trainingMs: 0 }, '--training-ms expects an integer ≥ 1, got "0"'],
    [{ latencyMs: -1 }, '--latency-ms expects an integer ≥ 0, got "-1"'],
    [{ recordMode: 'record' }, '--record-mode needs --cassettes DIR'],
    [{ record: true }, '--record needs --cassettes DIR'],
    [{ only: true }, '--only runs only your own suites: give their files or folders (conformance run --only PATH...)'],
  ] satisfies [RunConformanceOptions, string][])('%j reaches the CLI (its own usage message)', async (options, message) => {
    const { exitCode, errors } = await runConformance({ ...quick, ...options });
    expect(errors).toBe(`conformance run: ${message}\n`);
    expect(exitCode).toBe(2);
  });

  it('shard: "1/2" runs the first shard and says so in the report', async () => {
    // A shard needs a seed its sibling shards share (given, or the CI run's id).
    const { exitCode, report } = await runConformance({ ...quick, shard: '1/2', seed: 7 });
    expect(exitCode).toBe(0);
    expect(report?.shard).toMatchObject({ index: 1, count: 2 });
  });

  it('reportPasses: true keeps the request of passing results', async () => {
    const without = await runConformance(quick);
    const withPasses = await runConformance({ ...quick, reportPasses: true, jobs: 1, rateLimit: 1000 });
    expect(withPasses.exitCode).toBe(0);
    const passes = (r: typeof without) => r.report?.results.filter((x) => x.status === 'pass') ?? [];
    expect(passes(without).some((x) => x.request)).toBe(false);
    expect(passes(withPasses).some((x) => x.request)).toBe(true);
  });

  it('verbose: true prints a line for every result that is not a pass', async () => {
    const printed = async (verbose: boolean) => {
      let out = '';
      const r = await runConformance({ ...quick, faults: ['model-list-object-wrong'], verbose, output: { write: (s: string) => { out += s; } } });
      expect(r.exitCode).toBe(1);
      return out.split('\n').length;
    };
    expect(await printed(true)).toBeGreaterThan(await printed(false));
  });

  it('writes reports where reportDir says, and takes the built-in suites from suitesDir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-conformance-test-'));
    try {
      const reportDir = join(dir, 'reports');
      expect((await runConformance({ ...quick, reportDir })).exitCode).toBe(0);
      expect(existsSync(join(reportDir, 'report.json'))).toBe(true);
      // An empty suites folder: the built-in "models" is not there any more.
      mkdirSync(join(dir, 'empty'));
      const r = await runConformance({ ...quick, suitesDir: join(dir, 'empty') });
      expect(r.exitCode).toBe(2);
      expect(r.errors).toMatch(/^conformance run: no suite named "models" \(suites: plugins,/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('maps every flag of `conformance run` but --help, --no-color and --readings (readings: [\'alt\']) to the value the CLI parser gives it', () => {
    // Values that begin with "-" everywhere: each must arrive as the value of its own flag.
    const all: Required<Omit<RunConformanceOptions, 'output' | 'signal'>> = {
      baseUrl: '-base', apiKey: '-key', memberApiKey: '-member', organization: '-org', otherOrganization: '--other',
      pluginUrl: '-plugin', config: '-config.yaml', models: { chat: '-chat', embedding: 'e=1' },
      suites: ['-s1', '--s2'], paths: ['-p1', '--p2'], only: true, tags: ['-t'], grep: '--debug',
      shard: '1/2', jobs: 3, rateLimit: 2.5, reportDir: '-reports', reportPasses: true, seed: -5, fuzzRuns: -1,
      fuzzBudgetMs: 100, fuzzPath: '-0:1', timeoutMs: 10, pollDeadlineMs: 20, modelLoadDeadlineMs: 25, record: true, cassettes: '-cassettes',
      recordMode: 'update', faults: ['-f'], readings: ['-r'], pace: 'slow', trainingMs: 30, latencyMs: 40, suitesDir: '-suites', verbose: true, debug: true,
    };
    const { flags: values, positionals } = runRequest(all);
    expect(positionals).toEqual(['-p1', '--p2']);
    expect(values).toEqual({
      'base-url': '-base', 'api-key': '-key', 'member-api-key': '-member', organization: '-org', 'other-organization': '--other',
      'plugin-url': '-plugin', config: '-config.yaml', model: ['chat=-chat', 'embedding=e=1'],
      suite: ['-s1', '--s2'], only: true, tag: ['-t'], grep: '--debug',
      shard: '1/2', jobs: '3', 'rate-limit': '2.5', 'report-dir': '-reports', 'report-passes': true, seed: '-5', 'fuzz-runs': '-1',
      'fuzz-budget-ms': '100', 'fuzz-path': '-0:1', timeout: '10', 'poll-deadline': '20', 'model-load-deadline': '25', record: true, cassettes: '-cassettes',
      'record-mode': 'update', fault: ['-f'], reading: ['-r'], pace: 'slow', 'training-ms': '30', 'latency-ms': '40', 'suites-dir': '-suites', verbose: true,
    });
    const leftOut = Object.keys(RUN_FLAGS).filter((f) => !(f in values));
    expect(leftOut.sort()).toEqual(['help', 'no-color', 'readings']);
  });

  it('false and undefined leave a flag out', () => {
    expect(runRequest({ only: false, record: false, verbose: false, grep: undefined, suites: [] })).toEqual({ flags: {}, positionals: [] });
  });
});

describe('runConformance under GitHub Actions', () => {
  it('writes no step summary: a library run writes only where it is asked to', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-gha-'));
    const summary = join(dir, 'step-summary.md');
    const saved = { actions: process.env.GITHUB_ACTIONS, summary: process.env.GITHUB_STEP_SUMMARY };
    process.env.GITHUB_ACTIONS = 'true';
    process.env.GITHUB_STEP_SUMMARY = summary;
    try {
      const { exitCode } = await runConformance({ suites: ['models'], fuzzRuns: 0 });
      expect(exitCode).toBe(0);
      expect(existsSync(summary)).toBe(false);
    } finally {
      if (saved.actions === undefined) delete process.env.GITHUB_ACTIONS; else process.env.GITHUB_ACTIONS = saved.actions;
      if (saved.summary === undefined) delete process.env.GITHUB_STEP_SUMMARY; else process.env.GITHUB_STEP_SUMMARY = saved.summary;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('runConformance: problems of the run, as data', () => {
  it('a replay of a folder without cassettes: exit 3, one problem of kind cassette-missing, no report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-problems-'));
    try {
      const { exitCode, problems, report } = await runConformance({ cassettes: dir, suites: ['models'] });
      expect(exitCode).toBe(3);
      expect(problems.map((p) => p.kind)).toEqual(['cassette-missing']);
      expect(report).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a run that judged everything has none', async () => {
    const { exitCode, problems } = await runConformance({ suites: ['models'], fuzzRuns: 0 });
    expect(exitCode).toBe(0);
    expect(problems).toEqual([]);
  });
});
