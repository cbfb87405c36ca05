import { createDb, migrateToLatest } from '@agentpay/db';
import { createTestDatabase, type TestDatabase } from '@agentpay/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { type AuditEntry, createAuditLog, listAudit, verifyAudit } from '../src/identity/audit-log.js';

let database: TestDatabase;
let db: Kysely<Database>;
let url: string;

beforeAll(async () => {
  database = await createTestDatabase('gateway_audit');
  url = database.url;
  db = createDb<Database>(url);
  await migrateToLatest(db, migrations);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const entry = (n: number, replica: string): AuditEntry => ({
  actor: {
    id: `user:${replica}`,
    label: `${replica}@example.com`,
    via: 'token',
    roles: ['owner'],
    ip: '10.0.0.1',
    userAgent: 'test',
  },
  action: 'merchant.update',
  target: `merchant:M${n}`,
  outcome: 'success',
  status: 200,
  after: { n, replica },
});

describe('the audit log under several replicas', () => {
  it('keeps one unbroken chain when two replicas append at once', async () => {
    // Two pools, as two gateway processes have: the advisory lock, not the process, orders the appends.
    const other = createDb<Database>(url, { applicationName: 'audit-replica-b' });
    try {
      const a = createAuditLog(db);
      const b = createAuditLog(other);
      await Promise.all(
        Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? a : b).append(entry(n, n % 2 === 0 ? 'a' : 'b'))),
      );
    } finally {
      await other.destroy();
    }
    expect(await verifyAudit(db)).toEqual({ ok: true, entries: 40 });
    const { entries } = await listAudit(db, { limit: 100 });
    expect(new Set(entries.map((e) => e.prevHash)).size).toBe(40);
    expect(entries.map((e) => e.actor.id)).toEqual(expect.arrayContaining(['user:a', 'user:b']));
  });
});
