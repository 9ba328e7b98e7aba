// The peer workload of ../shared/bench/peers (ROUNDS × 3 POSTs, each checked for status 200 and a JSON Schema)
// as a whole `conformance run` process of the package installed from `npm pack` — start-up, loading the generated
// 3000-case suite, the run, four reports — against the fixed server there, beside the bare undici + ajv loop and Step CI 2.8.2 when a scratch
// folder with their packages is given (PEERS_NODE_MODULES=/path/to/node_modules; see the peers README).
//   npm run bench:peers [-- ROUNDS]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, sharedDir } from '../src/util/paths.ts';
import { ensureBuilt } from './ensure-built.ts';

const rounds = process.argv[2] ?? '1000';
const PAIRS = Number(process.env.PEERS_PAIRS ?? 7);
const peers = join(sharedDir, 'bench', 'peers');
if (!existsSync(peers)) { console.log(`skipped: ${peers} is not there`); process.exit(0); }
ensureBuilt();
const work = mkdtempSync(join(tmpdir(), 'bench-peers-'));
const node = process.execPath;

/** Median wall time and peak RSS of `runs` runs of a whole process. */
function timed(label: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, runs = 3): { wall: number; rssMiB: number } {
  const samples = Array.from({ length: runs }, () => {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %M', node, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
    const [wall, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    if (r.status !== 0) throw new Error(`${label} exited ${r.status}: ${r.stdout.slice(-300)} ${r.stderr.slice(-300)}`);
    return { wall: wall!, rssMiB: kb! / 1024 };
  });
  samples.sort((a, b) => a.wall - b.wall);
  return { wall: samples[Math.floor(runs / 2)]!.wall, rssMiB: Math.max(...samples.map((s) => s.rssMiB)) };
}

/**
 * The CLI as a user gets it, which is what the target is about ("run as a user's own suite from a built install"):
 * `npm pack`, installed into a project of the benchmark's own. A clone's bin does more on every start: it checks
 * its ~300 sources against the build (~5 ms), which an install has none of. Without npm or its cache (offline),
 * the clone's bin is measured, and the output says so.
 */
function installedBin(work: string): { bin: string; how: string } {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Offline, npm gives up at once instead of retrying the registry.
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_fetch_retries: '0' };
  const project = join(work, 'app');
  try {
    execFileSync(npm, ['pack', '--pack-destination', work], { cwd: repoRoot, env, stdio: 'pipe' });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bench-app', version: '1.0.0', private: true }));
    execFileSync(npm, ['install', '--prefer-offline', join(work, tarball)], { cwd: project, env, stdio: 'pipe' });
    return { bin: join(project, 'node_modules', 'model-api-conformance', 'bin', 'conformance.js'), how: 'installed from npm pack' };
  } catch (e) {
    // npm's first error line says why; its last only where its log is.
    const lines = String((e as { stderr?: Buffer }).stderr ?? e).trim().split('\n');
    const why = lines.find((l) => /^npm (error|ERR!)/.test(l) && !/complete log/i.test(l)) ?? lines[0];
    return { bin: join(repoRoot, 'bin', 'conformance.js'), how: `run from the clone (npm pack and install failed: ${why})` };
  }
}

const server = spawn(node, [join(peers, 'fixed-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const base = await new Promise<string>((resolve, reject) => {
    server.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString()) as { base_url: string }).base_url));
    server.once('exit', () => reject(new Error('fixed-server.mjs exited')));
  });
  // The generator writes suites/bench-peers.yaml and schemas/bench/*: the schemas go next to the suite.
  mkdirSync(join(work, 'suites'), { recursive: true });
  spawnSync(node, [join(peers, 'make-harness-suite.mjs'), work, rounds], { stdio: 'inherit' });
  renameSync(join(work, 'schemas', 'bench'), join(work, 'suites', 'bench'));
  const installed = installedBin(work);
  const oursArgs = [installed.bin, 'run', 'suites', '--only', '--base-url', base, '--api-key', 'sk-bench', '--fuzz-runs', '0', '--report-dir', join(work, 'reports')];
  // Parsed suite files are kept between runs (src/suite/parse-cache.ts): a user's second run onwards finds the
  // 800 KB suite parsed; a fresh CI machine does not. Both are measured: `ours` with the cache (filled by one run
  // first, in this benchmark's own folder), `cold` with it off.
  // `cold` still finds Node's compile cache of the CLI's own modules (bin/conformance.js turns it on; it lives in
  // the system's temporary folder): a user's every run after the first finds it. In a clone, `npm install` builds
  // the package and the build's last step fills it (bin/warm-compile-cache.js), so even the first run finds it. An
  // install from a tarball has no build step: its very first run is `fresh`, with both caches off (as with
  // NODE_DISABLE_COMPILE_CACHE=1; ~30-40 ms more start-up, measured on this machine).
  const oursEnv = { ...process.env, CI: 'true', CONFORMANCE_CACHE_DIR: join(work, 'cache') };
  const coldEnv = { ...process.env, CI: 'true', CONFORMANCE_CACHE: 'off' };
  const freshEnv = { ...coldEnv, NODE_DISABLE_COMPILE_CACHE: '1' };
  const modules = process.env.PEERS_NODE_MODULES;
  const rows: string[] = [];
  if (modules && existsSync(modules)) {
    symlinkSync(modules, join(work, 'node_modules'));
    // Copied (into the temporary folder only), so their imports resolve against PEERS_NODE_MODULES.
    for (const f of ['bare-undici.mjs', 'schemas.mjs', 'make-stepci.mjs']) copyFileSync(join(peers, f), join(work, f));
    timed('conformance (fills the parse cache)', oursArgs, work, oursEnv, 1);
    // Paired: the bare loop and the harness with and without its caches, PAIRS rounds. A shared machine
    // drifts by tens of percent within a minute; the ratio within each round (same conditions) is what the target
    // is about, its median what is shown. The order rotates from round to round: a process runs measurably
    // slower right after one that wrote megabytes of reports, and no contender should always come first.
    type Sample = { wall: number; rssMiB: number };
    const contenders: Array<[keyof Round, () => Sample]> = [
      ['bare', () => timed('bare', ['bare-undici.mjs', base, rounds], work, process.env, 1)],
      ['ours', () => timed('conformance', oursArgs, work, oursEnv, 1)],
      ['cold', () => timed('conformance (no parse cache)', oursArgs, work, coldEnv, 1)],
      ['fresh', () => timed('conformance (no parse cache, no compile cache)', oursArgs, work, freshEnv, 1)],
    ];
    type Round = { bare: Sample; ours: Sample; cold: Sample; fresh: Sample };
    const pairs: Round[] = Array.from({ length: PAIRS }, (_, round) => {
      const samples: Partial<Round> = {};
      for (let k = 0; k < contenders.length; k++) {
        const [name, run] = contenders[(round + k) % contenders.length]!;
        samples[name] = run();
      }
      return samples as Round;
    });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const summary = (pick: (p: (typeof pairs)[number]) => { wall: number; rssMiB: number }) => ({ wall: median(pairs.map((p) => pick(p).wall)), rssMiB: Math.max(...pairs.map((p) => pick(p).rssMiB)) });
    const bare = summary((p) => p.bare);
    const ours = summary((p) => p.ours);
    const cold = summary((p) => p.cold);
    const fresh = summary((p) => p.fresh);
    const ratio = (pick: (p: (typeof pairs)[number]) => { wall: number }) => {
      const rs = pairs.map((p) => pick(p).wall / p.bare.wall);
      return `${median(rs).toFixed(2)}× wall, median of ${PAIRS} rounds (range ${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`;
    };
    rows.push(`bare undici + ajv                      ${bare.wall.toFixed(2)} s  ${bare.rssMiB.toFixed(0)} MiB`);
    rows.push(`model-api-conformance (whole process)  ${ours.wall.toFixed(2)} s  ${ours.rssMiB.toFixed(0)} MiB  (suite file parsed by an earlier run)`);
    rows.push(`  the same, parse cache off            ${cold.wall.toFixed(2)} s  ${cold.rssMiB.toFixed(0)} MiB  (a new suite file: a first run)`);
    rows.push(`  parse and compile caches off         ${fresh.wall.toFixed(2)} s  ${fresh.rssMiB.toFixed(0)} MiB  (an install's very first run)`);
    rows.push(`harness / bare: ${ratio((p) => p.ours)} (target ≤ 1.2×); peak RSS ${Math.max(ours.rssMiB, cold.rssMiB, fresh.rssMiB).toFixed(0)} MiB (target ≤ 150)`);
    rows.push(`  parse cache off: ${ratio((p) => p.cold)}`);
    rows.push(`  parse and compile caches off: ${ratio((p) => p.fresh)}`);
    const stepci = join(modules, '.bin', 'stepci');
    if (existsSync(stepci)) {
      const wf = spawnSync(node, ['make-stepci.mjs', base, rounds], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 });
      writeFileSync(join(work, 'wf.json'), wf.stdout);
      const step = timed('stepci', [stepci, 'run', 'wf.json'], work, { ...process.env, STEPCI_DISABLE_ANALYTICS: 'true' });
      rows.push(`Step CI 2.8.2                          ${step.wall.toFixed(2)} s  ${step.rssMiB.toFixed(0)} MiB; harness is ${(step.wall / ours.wall).toFixed(1)}× faster (target ≥ 5×)`);
    }
  } else {
    const ours = timed('conformance', oursArgs, work, oursEnv);
    const cold = timed('conformance (no parse cache)', oursArgs, work, coldEnv);
    const fresh = timed('conformance (no parse cache, no compile cache)', oursArgs, work, freshEnv);
    rows.push(`model-api-conformance (whole process)  ${ours.wall.toFixed(2)} s  ${ours.rssMiB.toFixed(0)} MiB  (suite file parsed by an earlier run)`);
    rows.push(`  the same, parse cache off            ${cold.wall.toFixed(2)} s  ${cold.rssMiB.toFixed(0)} MiB`);
    rows.push(`  parse and compile caches off         ${fresh.wall.toFixed(2)} s  ${fresh.rssMiB.toFixed(0)} MiB`);
    rows.push('(set PEERS_NODE_MODULES to a node_modules with undici@7, ajv@8 and stepci@2.8.2 to compare)');
  }
  console.log(`peer workload, ${rounds} rounds = ${Number(rounds) * 3} requests (whole processes; medians, peak RSS); the harness ${installed.how}:\n  ${rows.join('\n  ')}`);
} finally {
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
