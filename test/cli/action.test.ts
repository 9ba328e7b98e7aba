// The composite action (action.yml) as GitHub runs it: its inputs become environment variables, and its last
// step's script runs under `bash -eo pipefail` with the action's folder and the user's workspace. Here the script
// runs as written against the reference server, with every optional input given.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { RUN_FLAGS } from '../../src/run/args.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { repoRoot } from '../../src/util/paths.ts';

interface Action { inputs: Record<string, { default?: string }>; runs: { steps: Array<{ run?: string; env?: Record<string, string> }> } }
const action = YAML.parse(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as Action;
const step = action.runs.steps.at(-1)!;

let server: ReferenceServer;
beforeAll(async () => { server = await startReferenceServer(); });
afterAll(async () => { await server.close(); });

describe('action.yml', () => {
  it('passes only flags the CLI has, and every input reaches the run', () => {
    const flags = [...step.run!.matchAll(/\(--([a-z-]+)/g)].map((m) => m[1]!);
    expect(flags.length).toBeGreaterThan(4);
    for (const f of flags) expect(Object.keys(RUN_FLAGS), f).toContain(f);
    const used = Object.values(step.env!).join(' ');
    for (const input of Object.keys(action.inputs)) expect(used, input).toContain(`inputs.${input} }}`);
  });

  it('its script runs a shard with jobs, a rate limit and a config of the workspace, under bash -eo pipefail', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'action-'));
    mkdirSync(join(workspace, 'ci'));
    writeFileSync(join(workspace, 'ci', 'conformance.yaml'), 'areas: [models]\ntimeouts: { request_ms: 20000 }\n');
    const inputs: Record<string, string> = {
      'base-url': server.url, 'api-key': server.credentials.apiKey, shard: '1/1', seed: '3', suites: 'models',
      'report-dir': 'out', jobs: '2', 'rate-limit': '5/s', config: 'ci/conformance.yaml',
    };
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.env!)) {
      const input = /inputs\.([a-z-]+) }}/.exec(value)![1]!;
      env[name] = inputs[input] ?? action.inputs[input]!.default ?? '';
    }
    const script = step.run!.replaceAll('${{ github.action_path }}', repoRoot);
    // Not spawnSync: the reference server answers from this process's event loop.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: workspace, env: { ...process.env, ...env, GITHUB_WORKSPACE: workspace, CI: 'true' } });
    let said = '';
    child.stdout.on('data', (d) => (said += d));
    child.stderr.on('data', (d) => (said += d));
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(status, said).toBe(0);
    const report = JSON.parse(readFileSync(join(workspace, 'out', 'report.json'), 'utf8')) as Report;
    expect(report.verdict).toBe('pass');
    expect(report.shard).toMatchObject({ index: 1, count: 1, suites: ['models'] });
    expect(report.seed).toBe(3);
    // The config and the rate limit were the run's.
    expect(report.target.areas).toEqual(['models']);
    expect(report.retries?.waitedMs).toBeGreaterThan(0);
  }, 60_000);
});
