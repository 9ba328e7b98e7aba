import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json, suites/ and schemas/ live), wherever the process runs from. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared folder beside the checkout (spec, real responses). Read at test time, never copied. */
export const sharedDir = resolve(repoRoot, '..', 'shared');
