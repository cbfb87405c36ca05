import { createDb, migrateToLatest } from '@agentpay/db';
import { createTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrations/index.js';
import type { Database } from '../db/schema.js';
import { claimNonce, purgeExpiredNonces } from './nonce.repository.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase('gateway_nonce');
  drop = database.drop;
  db = createDb<Database>(database.url);
  await migrateToLatest(db, migrations);
});

afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

describe('nonce store', () => {
  it('lets exactly one of many concurrent claims of the same nonce win', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => claimNonce(db, 'M1', 'same-nonce', 60)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('keeps nonces per merchant: another merchant may use the same value', async () => {
    expect(await claimNonce(db, 'M1', 'shared', 60)).toBe(true);
    expect(await claimNonce(db, 'M2', 'shared', 60)).toBe(true);
    expect(await claimNonce(db, 'M1', 'shared', 60)).toBe(false);
  });

  it('accepts a nonce again once its TTL has passed, and purges expired ones', async () => {
    expect(await claimNonce(db, 'M3', 'old', 60)).toBe(true);
    await sql`update nonces set expires_at = now() - interval '1 second' where nonce = 'old'`.execute(db);
    expect(await claimNonce(db, 'M3', 'old', 60)).toBe(true);
    expect(await claimNonce(db, 'M3', 'old', 60)).toBe(false);
    await sql`update nonces set expires_at = now() - interval '1 second' where nonce = 'old'`.execute(db);
    expect(await purgeExpiredNonces(db)).toBeGreaterThanOrEqual(1);
  });
});
