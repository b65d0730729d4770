import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Builds dist/ once for the CLI tests, which spawn `node bin/parity.js`.
    globalSetup: ['test/setup/build.ts'],
    // Two cores: run files in two forks so native ORT sessions and ffmpeg calls do not oversubscribe.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
