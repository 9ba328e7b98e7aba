// Who wrote a report or a cassette: the tool's name and version, and the spec it tests against.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../util/paths.ts';

export const TOOL = { name: 'model-api-conformance', version: String(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version) };
export const SPEC_NAME = 'service-api-and-plugin-spec.md';
