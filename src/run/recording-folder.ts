// A run's cassette folder, checked before anything is sent: what a replay can replay, and whether a recording
// would leave the folder holding two recordings. A folder that cannot serve is a problem of the run, never a verdict.

import { existsSync } from 'node:fs';
import type { RunProblem } from '../engine/types.ts';
import { FUZZ_SUITE_NAMES } from '../fuzz/names.ts';
import { cassettePath } from '../transport/cassette.ts';
import { readCassetteFolder, type CassetteDefect, type CassetteFolder } from '../transport/cassette-folder.ts';
import type { ManifestSettings } from '../transport/record.ts';
import { shellWord } from '../util/shell-word.ts';
import type { Selection } from './suite-selection.ts';
import { UsageError } from './usage-error.ts';

/**
 * A replay replays what was recorded: the suites the folder holds, unless --suite names others. A suite it lacks,
 * or holds but cannot replay as recorded, is a problem of the run (the recording's), never a verdict on the target.
 */
export function replaySelection(chosen: Selection, dir: string, asked: readonly string[]): Selection | RunProblem {
  const folder = readCassetteFolder(dir);
  const held = folder.suites;
  const names = namesOf(chosen);
  // Also names the selection dropped before this point (a fuzz suite, when the recording has no fuzz runs).
  const dropped = asked.filter((n) => !held.has(n) && ![...held].some((h) => h.startsWith(`${n}-`)));
  const missing = [...new Set([...names.filter((n) => !held.has(n)), ...dropped])];
  if (asked.length && missing.length) {
    const unreadable = missing.map((n) => folder.defects.get(n)).filter((d) => d !== undefined);
    if (unreadable.length > 0) return defectsProblem(dir, unreadable, folder.manifest);
    return { kind: 'cassette-missing', message: `${dir} holds no recording of ${missing.join(', ')} (it holds: ${[...held].sort().join(', ') || 'nothing'})`, hint: 'record them (--record --cassettes DIR), or select recorded suites' };
  }
  const selection = { plans: chosen.plans.filter((p) => held.has(p.spec.name)), programmatic: chosen.programmatic.filter((s) => held.has(s.name)) };
  const selected = namesOf(selection);
  if (selected.length === 0) return { kind: 'cassette-missing', message: `${dir} holds no cassette`, hint: 'record one with --record --cassettes DIR' };
  const defects = selected.map((n) => folder.defects.get(n)).filter((d) => d !== undefined);
  return defects.length > 0 ? defectsProblem(dir, defects, folder.manifest) : selection;
}

export function namesOf(selection: Selection): string[] {
  return [...selection.plans.map((p) => p.spec.name), ...selection.programmatic.map((s) => s.name)];
}

/**
 * Before anything is sent to the target. `record` and `dryrun` replay the cassettes the folder has: those of the
 * selection must be readable, and this folder's recording's. A recording (`record`, `update`) must not leave the
 * folder holding two recordings: a replay takes one seed and target, from the manifest, for every suite. That one
 * is the user's to mend by flags: a usage error (thrown), not a problem of the run.
 */
export function checkRecordingFolder(mode: 'record' | 'dryrun' | 'update', dir: string, names: readonly string[], run: ManifestSettings): RunProblem | undefined {
  const folder = readCassetteFolder(dir);
  if (mode !== 'update') {
    const defects = names.map((n) => folder.defects.get(n)).filter((d): d is CassetteDefect => d !== undefined && d.kind !== 'missing');
    if (defects.length > 0) return defectsProblem(dir, defects, folder.manifest);
  }
  if (mode === 'dryrun') return undefined;
  // `record` replays the suites that have a cassette, and records only the others.
  const recording = mode === 'update' ? names : names.filter((n) => !existsSync(cassettePath(dir, n)));
  const mixed = mixedRecording(dir, folder, recording, run);
  if (mixed !== undefined) throw new UsageError(mixed);
  return undefined;
}

/** Why recording these suites into the folder would mix two recordings in it, if it would. */
function mixedRecording(dir: string, folder: CassetteFolder, recording: readonly string[], run: ManifestSettings): string | undefined {
  const held = folder.manifest;
  const kept = [...folder.suites].filter((s) => !recording.includes(s)).sort();
  if (held === undefined || recording.length === 0 || kept.length === 0) return undefined;
  const differences = [
    ...(held.seed !== run.seed ? [{ what: `seed ${held.seed} (this run: ${run.seed})`, fix: `pass --seed ${held.seed}` }] : []),
    ...(targetName(held) !== targetName(run) ? [{ what: `target ${targetName(held)} (this run: ${targetName(run)})`, fix: `record against ${targetAdvice(held)}` }] : []),
    // A replay runs every fuzz suite with the manifest's fuzz runs.
    ...(held.fuzz_runs !== run.fuzz_runs && kept.some((s) => FUZZ_SUITE_NAMES.includes(s)) ? [{ what: `--fuzz-runs ${held.fuzz_runs} (this run: ${run.fuzz_runs})`, fix: `pass --fuzz-runs ${held.fuzz_runs}` }] : []),
  ];
  if (differences.length === 0) return undefined;
  return `--cassettes ${dir} holds a recording made with ${differences.map((d) => d.what).join(' and ')}: recording only ${recording.join(', ')} into it would leave ${kept.join(', ')} of the other recording, and the folder would not replay; ${differences.map((d) => d.fix).join(' and ')}, re-record all its suites (add ${kept.map((s) => `--suite ${s}`).join(' ')}), or record into an empty folder`;
}

function targetAdvice(m: { target: string; faults?: string[] }): string {
  if (m.target !== 'reference') return m.target;
  return `the embedded reference server (no --base-url${m.faults?.length ? `, ${m.faults.map((f) => `--fault ${f}`).join(' ')}` : ''})`;
}

/** The target as a manifest names it, with the embedded server's faults (they change its answers). */
function targetName(m: { target: string; faults?: string[] }): string {
  return m.faults?.length ? `${m.target} (faults: ${[...m.faults].sort().join(', ')})` : m.target;
}

/** Cassettes a replay cannot use, as one problem: each file and what is wrong with it, and how to mend the folder. */
function defectsProblem(dir: string, defects: readonly CassetteDefect[], manifest: { seed?: number; faults?: string[] } | undefined): RunProblem {
  const broken = defects.filter((d) => d.kind !== 'unlisted').map((d) => d.suite);
  const strays = defects.filter((d) => d.kind === 'unlisted').map((d) => d.file);
  // The command is refused unless it names the recording's target as the recording did: its seed and its faults.
  const same = `${manifest?.seed !== undefined ? ` --seed ${manifest.seed}` : ''}${(manifest?.faults ?? []).map((f) => ` --fault ${shellWord(f)}`).join('')}`;
  const hints = [
    ...(broken.length ? [`re-record ${broken.join(', ')} into it against the same target (--record --cassettes ${shellWord(dir)} ${broken.map((n) => `--suite ${n}`).join(' ')}${same}), or leave ${broken.length === 1 ? 'it' : 'them'} out with --suite`] : []),
    ...(strays.length ? [`move ${strays.join(', ')} out of the folder (another recording's), or record ${strays.length === 1 ? 'its suite' : 'their suites'} into this folder`] : []),
  ];
  return { kind: 'cassette-missing', message: `${dir} cannot be replayed as recorded: ${defects.map((d) => d.message).join('; ')}`, hint: hints.join('; ') };
}
