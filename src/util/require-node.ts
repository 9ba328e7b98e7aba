// Imported first by the package's entry: an unsupported Node stops at import with one clear line.
import { nodeVersionProblem } from './node-version.ts';

const problem = nodeVersionProblem();
if (problem) throw new Error(problem);
