// Tests that read ../shared (the spec's real recordings) beside the checkout. Without it, a fresh clone still
// passes `npm test`: those tests are skipped with one line saying why — except where CONFORMANCE_REQUIRE_SHARED
// is set (.ci/run sets it), where its absence is a failure, so CI never skips them silently.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir } from '../src/util/paths.ts';

/** Whether `../shared/<sub>` is there; says once why not, or fails when the run requires it. */
export function sharedPresent(sub: string): boolean {
  const path = join(sharedDir, sub);
  if (existsSync(path)) return true;
  if (process.env.CONFORMANCE_REQUIRE_SHARED) throw new Error(`${path} is missing, and CONFORMANCE_REQUIRE_SHARED is set: put the shared folder beside the checkout`);
  console.log(`skipped: ${path} is not beside this checkout (the tests against the real recordings need it)`);
  return false;
}
