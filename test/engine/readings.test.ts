// Trust under every reading: where the spec allows several reasonable behaviours, the reference server serves each
// on demand (src/reference/readings.ts), and the default run, fuzzing included, gives no must-failure under any of
// them, alone or all at once. A must check that fails here encodes one implementation's choice, not the spec.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { READINGS } from '../../src/reference/index.ts';
import type { Report } from '../../src/report/types.ts';
import { repoRoot } from '../../src/util/paths.ts';
import { parse } from 'yaml';

async function runWith(readingArgs: string[]): Promise<{ code: number; report: Report; output: string }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'readings-'));
  let output = '';
  const sink = { write: (s: string) => { output += s; return true; } };
  const code = await main(['run', '--report-dir', reportDir, '--seed', '7', ...readingArgs], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  return { code, report: JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report, output };
}

function mustFailures(report: Report): string[] {
  return report.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.suite} › ${r.case} › ${r.check}: ${r.message}`);
}

describe('every reading of the register is served, and no must check depends on one', () => {
  const catalogue = parse(readFileSync(join(repoRoot, 'suites', 'requirements.yaml'), 'utf8')) as { requirements: Array<{ id: string; readings?: string[] }> };
  const byId = new Map(catalogue.requirements.map((r) => [r.id, r]));

  it('each reading names catalogue entries, and each of them records its readings in the register', () => {
    for (const reading of READINGS) {
      expect(reading.requirements.length, reading.name).toBeGreaterThan(0);
      for (const id of reading.requirements) {
        expect(byId.has(id), `${reading.name} cites ${id}`).toBe(true);
        expect(byId.get(id)!.readings?.length ?? 0, `${id} (served by ${reading.name}) lists its readings`).toBeGreaterThan(1);
      }
    }
  });

  /** Register entries with more than one reading that no switch serves, and why none is needed. */
  const NOT_SERVED: Record<string, string> = {
    'CHAT-MODEL-SUPPORTS-CHAT': 'which models support chat is the profile\'s declaration (models.non_chat), not a behaviour of the server',
    'FTDATA-EXAMPLE-MAX-2048': 'a should under every reading: no must depends on where the limit is enforced',
    'STREAM-COMP-SSE': 'the second reading (payloads of any kind) was judged unreasonable: the spec calls them chunk objects (tested)',
    'STREAM-CHAT-SSE': 'the same as STREAM-COMP-SSE',
    'PLUGIN-SCHEMA-VERSION': 'the second reading (any version) was judged unreasonable: the spec defines v1 (tested)',
    'FILE-BY-ID-ORG-SCOPED': 'the second reading was judged unreasonable: the spec says files are retrieved, downloaded and deleted as belonging to the organization (tested)',
    'FILE-LIST-ORG-SCOPED': 'its by-id reading is FILE-BY-ID-ORG-SCOPED, kept a must for files; jobs are served by jobs-by-id-open',
    'RES-FT-JOB-MODEL-BASE': 'the check accepts the requested name or its base before the first colon: both readings hold by construction (rows of test/checks/fine-tunes.test.ts)',
    'RESULTS-CSV-ELAPSED-EXAMPLES': 'the readings differ only on a partial batch, which the suites never make (their example counts are multiples of the batch)',
    'RESULTS-CSV-CLASS-MULTICLASS': 'the check asks only for columns naming accuracy and f1, which both readings share',
    'FTDATA-VALIDATION-FORMAT': 'an invalid file may be refused at upload or at the create that names it: file_invalid_jsonl_refused accepts either (rows of test/checks/files.test.ts)',
    'MOD-MODEL-OTHER-REJECTED': 'the cases send only names no reading would serve (another family, an undated non-name)',
    'LIMIT-CONTEXT-LENGTH': 'the cases stay clear of the token the readings disagree on (at the limit is accepted, two over is refused)',
    'FT-N-CLASSES': 'the cases send the count the uploaded data has, which both readings accept',
    'FT-POSITIVE-CLASS': 'the cases send a class the uploaded data has, which both readings accept',
    'FT-NAME-PATTERN': 'the other reading is a row of test/checks/fine-tunes.test.ts (an ISO 8601 timestamp); the reference server names models as the service does',
    'FT-NAME-NO-SUFFIX': 'as FT-NAME-PATTERN: a row of test/checks/fine-tunes.test.ts',
    'FT-STATE-SUCCEEDED-MODEL': 'as FT-NAME-PATTERN: a row of test/checks/fine-tunes.test.ts',
    'AUTH-BEARER-REQUIRED': 'an error body labelled object: "error" is a row of test/checks/auth.test.ts',
    'AUTH-INVALID-KEY-REJECTED': 'the fault auth-scheme-ignored serves the lenient reading: its only result is the should AUTH-SCHEME-BEARER-ONLY (test/mutation)',
    'FT-CANCEL-FINAL': 'a late cancel answered with the finished job is a row of test/checks/fine-tunes.test.ts; the reference server cancels running jobs',
    'IMG-EDIT-IMAGE-SIZE-4MB': 'the cases send sizes over or under both readings of 4 MB (5.76 MB and 3.92 MB): none between them',
    'IMG-EDIT-MASK-SIZE-4MB': 'as IMG-EDIT-IMAGE-SIZE-4MB: only sizes over both readings are sent',
    'IMG-VAR-IMAGE-SIZE-4MB': 'as IMG-EDIT-IMAGE-SIZE-4MB',
    'AUDIO-FILE-TYPE-REJECT': 'the cases send text under extensions no reading lists',
    'PLUGIN-AUTH-INSTRUCTIONS': 'the check asks only that present instructions are a string, which both readings share',
    'PLUGIN-OPENAPI-RESPONSES': 'the check asks only what both readings share (a responses object; a schema where content is given)',
    'IMG-GEN-PROMPT-MAX1000': 'the fuzzer never sends a blank prompt on the accept side (test/fuzz/consistent-values.test.ts): nothing differs to serve',
    'IMG-EDIT-PROMPT-MAX1000': 'as IMG-GEN-PROMPT-MAX1000',
    'FT-STATE-SUCCEEDED': 'the suite files hold 10 or more examples, which both readings train: nothing differs to serve',
    'FTDATA-FORMAT': 'as FT-STATE-SUCCEEDED',
    'PLUGIN-REMOTE-HTTPS': 'rows of test/checks/plugins.test.ts (an http logo on a CDN, a dev host without a dot); the reference plugin is served from one local origin',
    'PLUGIN-LOCAL-AUTH-NONE': 'a row of test/checks/plugins.test.ts (an HTTPS intranet plugin with service_http)',
    'PLUGIN-OPENAPI-VERSION': 'the stricter reading is its own should (PLUGIN-OPENAPI-SCHEMA-VALID): the must asks only what both share',
    'COMP-TOP-P': 'the fuzzer and the cases never send top_p 0 (test/fuzz/consistent-values.test.ts): nothing differs to serve',
    'CHAT-TOP-P': 'as COMP-TOP-P',
    'EDIT-TOP-P': 'as COMP-TOP-P',
    'COMP-LOGIT-BIAS-RANGE-ACCEPT': 'the fuzzer biases ids 0 to 1000 only (test/fuzz/consistent-values.test.ts): nothing differs to serve',
    'CHAT-LOGIT-BIAS-RANGE-ACCEPT': 'as COMP-LOGIT-BIAS-RANGE-ACCEPT',
    'STREAM-COMP-BEST-OF': 'served through COMP-BEST-OF-NO-STREAM by --reading best-of-stream-json: a JSON answer and a refusal both pass answer_not_a_stream',
    'FT-VALIDATION-FILE': 'the must asks only for the header (both readings); a period is RESULTS-CSV-VALIDATION-FILLED, a should',
    'RESULTS-CSV-VALIDATION-COLUMNS': 'as FT-VALIDATION-FILE',
    'FT-LIST': 'the reference server lists every job (no page); a page with has_more is a row of test/checks/files.test.ts (the same list rule)',
    'FILE-LIST': 'the reference server lists every file (no page); a page with has_more is a row of test/checks/files.test.ts',
    'FILE-CONTENT': 'the other reading (a JSON string of the text) changes what the check reads, not what the run asks: a row of test/checks/files.test.ts',
    'AUDIO-FILE-TYPES': 'both readings hold for the shipped recordings (right content, right extension): nothing differs to serve',
    'RES-COMPLETION-LOGPROBS-ALIGNED': 'the readings differ only on non-ASCII tokens and special tokens, which the reference tokenizer never makes; each is a row of test/checks/completions.test.ts',
    'PLUGIN-OPERATIONS-DESCRIBED': 'the readings differ on a plugin whose example values name nothing, or that hides behind 404: served by the test plugin hosts of test/plugin/suite.test.ts and rows of test/checks/plugins.test.ts',
  };

  it('every register entry with more than one reading is served by a switch, or says why none is needed', () => {
    const served = new Set<string>(READINGS.flatMap((r) => [...r.requirements]));
    const ambiguous = catalogue.requirements.filter((r) => (r.readings?.length ?? 0) > 1).map((r) => r.id);
    expect(ambiguous.filter((id) => !served.has(id) && !(id in NOT_SERVED))).toEqual([]);
    expect(Object.keys(NOT_SERVED).filter((id) => !ambiguous.includes(id) || served.has(id))).toEqual([]);
  });

  it.each([...READINGS.map((r) => r.name), 'alt'])('--reading %s: the default run, fuzzing included, has no must-failure', async (name) => {
    const { code, report, output } = await runWith(name === 'alt' ? ['--readings', 'alt'] : ['--reading', name]);
    // Each failure in full in the message: a rare one must be diagnosable from CI's log alone.
    expect(mustFailures(report), mustFailures(report).join('\n')).toEqual([]);
    expect(code, output.slice(-2000)).toBe(0);
  });
});

describe('pace is the target\'s business', () => {
  it('--pace slow (a one-minute job, 12 s of silence in its event stream, a model that loads for 4 s): the fine-tune suites give no must-failure', async () => {
    const { code, report, output } = await runWith(['--pace', 'slow', '--suite', 'fine-tunes', '--suite', 'fine-tunes-classification', '--suite', 'fine-tunes-create', '--fuzz-runs', '0']);
    expect(mustFailures(report)).toEqual([]);
    expect(report.problems).toEqual([]);
    expect(code, output.slice(-2000)).toBe(0);
  }, 300_000);

  it('a poll deadline that runs out while the job is still running is a problem of the run (exit 3), never a failure', async () => {
    const { code, report, output } = await runWith(['--training-ms', '20000', '--poll-deadline', '1500', '--suite', 'fine-tunes', '--fuzz-runs', '0']);
    expect(mustFailures(report)).toEqual([]);
    expect(report.problems.map((p) => p.kind)).toContain('deadline');
    expect(report.problems.find((p) => p.kind === 'deadline')?.hint).toMatch(/--poll-deadline/);
    // The target is alive: what the suite created is still cleaned up.
    expect(output).not.toMatch(/not sent/);
    expect(code, output.slice(-2000)).toBe(3);
  }, 120_000);
});
