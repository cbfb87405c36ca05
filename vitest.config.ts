import { defineConfig } from 'vitest/config';

// One run for the whole tree. Unit tests sit beside the code (`src/**/*.test.ts`); integration tests that
// start real processes live in `test/` folders. Postgres and NATS must be reachable (see README).
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['packages/testing/src/global-setup.ts'],
  },
});
