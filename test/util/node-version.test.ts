// The library says which Node it needs, at import, instead of failing later with "Connection error".
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/util/node-version.ts';
import { repoRoot } from '../../src/util/paths.ts';

const run = promisify(execFile);
const SYSTEM_NODE = '/usr/bin/node';

describe('the Node the library needs', () => {
  it('accepts 22.20 and later, and names the version it found otherwise', () => {
    expect(nodeVersionProblem('22.20.0')).toBeUndefined();
    expect(nodeVersionProblem('24.21.0')).toBeUndefined();
    expect(nodeVersionProblem('23.0.0')).toBeUndefined();
    expect(nodeVersionProblem('22.19.1')).toMatch(/needs Node >= 22\.20 \(this is 22\.19\.1\)/);
    expect(nodeVersionProblem('20.20.2')).toMatch(/needs Node >= 22\.20 \(this is 20\.20\.2\).*npx conformance/);
  });

  it.runIf(existsSync(SYSTEM_NODE) && existsSync(join(repoRoot, 'dist', 'index.js')))('importing the built package on an older Node fails at once, with that line', async () => {
    const { stdout: version } = await run(SYSTEM_NODE, ['--version']);
    if (!nodeVersionProblem(version.trim().replace(/^v/, ''))) return; // the system Node is new enough: nothing to show
    const err = await run(SYSTEM_NODE, ['--input-type=module', '-e', `await import(${JSON.stringify(join(repoRoot, 'dist', 'index.js'))})`]).then(() => '', (e: { stderr: string }) => e.stderr);
    expect(err).toMatch(/model-api-conformance needs Node >= 22\.20 \(this is 20\./);
  });
});
