// For vitest users: the current test's name as a cassette name, so each test records and replays its own.
//   import { cassetteName } from 'model-api-conformance/vitest';
//   const handle = useCassettes('fixtures', { name: cassetteName(), target: 'https://api.openai.com' });
import { expect } from 'vitest';

/** The running test's full name (its describe blocks and title), as a file name: `suite--my-test`. */
export function cassetteName(): string {
  const name = expect.getState().currentTestName;
  if (!name) throw new TypeError('cassetteName() is called inside a running vitest test (it reads the current test name)');
  return name.replace(/\s*>\s*/g, '--').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120);
}
