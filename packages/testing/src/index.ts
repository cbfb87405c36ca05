export {
  createTestDatabase,
  type MigratedTestDatabase,
  migratedTestDatabase,
  type TestDatabase,
  testDatabaseName,
} from './database.js';
export { type AdminAnswer, adminRequest, approverFor, settleApproval } from './four-eyes.js';
export {
  createTestMerchant,
  merchantClient,
  nonce,
  now,
  type Reply,
  type TestMerchant,
  TIME_ZONE,
} from './merchant-client.js';
export { createTestPerson, type TestPerson, totpCode } from './people.js';
export { natsUrl, postgresUrl, requireNats, requirePostgres, stopTestContainers } from './services.js';
export { type Gate, gate, uniqueName, type WaitForOptions, waitFor } from './wait.js';
