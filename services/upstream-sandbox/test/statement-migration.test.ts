import { createHash } from 'node:crypto';
import { createDb, migrateToLatest } from '@agentpay/db';
import { createTestDatabase, type TestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';

// The statements migration on a sandbox that already moved money: every movement made before it gets
// a tracking key (derived from its id, so the same on every replica and run), and the rules that hold
// for new movements hold for the old ones too.

let database: TestDatabase;
// biome-ignore lint/suspicious/noExplicitAny: the schema as it was before the migration
let db: Kysely<any>;

beforeAll(async () => {
  database = await createTestDatabase('sandbox_statement_migration');
  db = createDb(database.url);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('the statements migration', () => {
  it('gives deposits and payouts made before it stable, unique keys of at most 30 characters', async () => {
    const before = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name < '20261124T0200_statements'),
    );
    await migrateToLatest(db, before);
    await sql`insert into deposits (id, clabe, amount, matched, notify, created_at) values
      ('dep_a', '646180000000000012', 100, false, true, '2025-03-10T05:59:59Z'),
      ('dep_b', '646180000000000012', 100, false, true, '2025-03-10T06:00:00Z')`.execute(db);
    await sql`insert into payouts (id, payout_ref, amount, payee_type, account, name, bank_code, notice_url, status,
        planned_outcome, finished_at, returned_at) values
      ('po_ok', 'T1', 2500, 'user_id', 'w', 'Ana', '', 'http://x', 'succeeded', 'succeed', '2025-03-10T12:00:00Z', null),
      ('po_back', 'T2', 2500, 'user_id', 'w', 'Ana', '', 'http://x', 'returned', 'return', '2025-03-10T12:00:00Z', '2025-03-10T12:05:00Z'),
      ('po_no', 'T3', 2500, 'user_id', 'w', 'Ana', '', 'http://x', 'failed', 'fail', '2025-03-10T12:00:00Z', null)`.execute(
      db,
    );

    await migrateToLatest(db, migrations);

    const deposits = await db.selectFrom('deposits').selectAll().orderBy('id').execute();
    expect(
      deposits.map((d) => [d.id, d.clave_rastreo.slice(0, 12), d.sender_account, d.statement_amount]),
    ).toEqual([
      ['dep_a', 'SBXD20250309', '', null],
      ['dep_b', 'SBXD20250310', '', null],
    ]);
    // Derived from the id: the same key whichever replica ran the migration.
    const fromId = (id: string) => createHash('md5').update(id).digest('hex').slice(0, 16).toUpperCase();
    expect(deposits[0]?.clave_rastreo).toBe(`SBXD20250309${fromId('dep_a')}`);
    const payouts = await db.selectFrom('payouts').selectAll().orderBy('id').execute();
    const keys = Object.fromEntries(payouts.map((p) => [p.id, [p.clave_rastreo, p.return_clave_rastreo]]));
    expect(keys['po_no']).toEqual([null, null]);
    expect(keys['po_ok']?.[0]).toMatch(/^SBXP20250310[0-9A-F]{16}$/);
    expect(keys['po_ok']?.[1]).toBeNull();
    expect(keys['po_back']?.[1]).toMatch(/^SBXR20250310[0-9A-F]{16}$/);
    const all = [
      ...deposits.map((d) => d.clave_rastreo),
      ...payouts.flatMap((p) => [p.clave_rastreo, p.return_clave_rastreo]),
    ].filter((k) => k !== null);
    expect(new Set(all).size).toBe(all.length);
    expect(payouts.every((p) => p.statement_omit === false && p.statement_amount === null)).toBe(true);

    // From now on a payout that moved money cannot be stored without its key.
    await expect(sql`update payouts set clave_rastreo = null where id = 'po_ok'`.execute(db)).rejects.toThrow(
      /payouts_moved_has_key/,
    );
  });
});
