// The library's own Node check (the CLI's is in bin/conformance.js): on an older Node it failed far from the cause,
// as "Connection error" caused by "Promise.withResolvers is not a function".

export const MIN_NODE = [22, 20] as const;

/** Why this Node cannot run the library, or undefined when it can. */
export function nodeVersionProblem(version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return `model-api-conformance needs Node >= ${MIN_NODE.join('.')} (this is ${version}): upgrade Node, or run the CLI (npx conformance), which brings its own`;
}
