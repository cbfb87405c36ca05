import { defineConfig } from 'vitest/config';

// Tests beside the code that still reach Postgres, NATS or a child process: they run with the integration
// project (and its global setup), not with `npm run test:unit`.
const integrationBesideCode = [
  'packages/db/src/db.test.ts',
  'packages/messaging/src/nats.test.ts',
  'packages/messaging/src/outbox.test.ts',
  'packages/proto/src/generated.test.ts',
  'packages/testing/src/database.test.ts',
  'packages/testing/src/services.test.ts',
  'services/gateway/src/merchant-api/admission.repository.test.ts',
  'services/notifier/src/events/order-status-changed.handler.test.ts',
];

// `@agentpay/source` makes workspace packages that export built files (the merchant SDK) resolve to their
// TypeScript source here, as tsconfig.base.json's customConditions does for tsc.
const sourceCondition = ['@agentpay/source'];

// `npm test` runs both projects; `npm run test:unit` runs `unit` alone, which needs no server. Integration
// tests run real Postgres and NATS (see README): its global setup finds them once and fails the run if
// either is missing.
export default defineConfig({
  resolve: { conditions: sourceCondition },
  ssr: { resolve: { conditions: sourceCondition } },
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            // Reads the tree's sources only (docs/architecture.md "Rules the tree keeps").
            'test/architecture.test.ts',
          ],
          exclude: ['**/node_modules/**', ...integrationBesideCode],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'packages/*/test/**/*.test.ts',
            'services/*/test/**/*.test.ts',
            'test/**/*.test.ts',
            ...integrationBesideCode,
          ],
          exclude: ['**/node_modules/**', 'test/architecture.test.ts'],
          globalSetup: ['packages/testing/src/global-setup.ts', 'test/support/bundle-services.ts'],
        },
      },
    ],
  },
});
