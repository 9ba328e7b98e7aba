import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real servers on 127.0.0.1 and run whole suites; a fine-tune lifecycle takes a second.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Under CI a machine-readable copy of the results lets .ci/run print a plain closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'reports/vitest-results.json' }]] : ['default'],
  },
});
