#!/usr/bin/env node
// Entry point of `npx conformance`. The harness needs Node >= 22.20 (nock 15 intercepts undici at the
// socket level only from there); when an older system Node runs this file, re-run it on the project's
// own Node 24 (the `node` devDependency) instead of failing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 20)) {
  const local = join(here, '..', 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(local) || process.env.CONFORMANCE_REEXEC) {
    console.error(`conformance needs Node >= 22.20 (this is ${process.version}); run \`npm install\` to get the project's Node 24.`);
    process.exit(2);
  }
  const child = spawn(local, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, CONFORMANCE_REEXEC: '1' } });
  // The run is the child: a Ctrl-C or a CI cancel sent to this wrapper must reach it (it finishes the request
  // in flight, cleans up and writes reports), and the wrapper exits with the child's own code.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 143 : signal === 'SIGINT' ? 130 : 1)));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
