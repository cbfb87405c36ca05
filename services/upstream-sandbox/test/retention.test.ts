import { randomUUID } from 'node:crypto';
import { drainRetention, retentionPlan } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { sandboxRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('sandbox_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate notices, deposits, payouts, virtual_accounts`.execute(db);
});

const rules = sandboxRetentionRules({ days: 90 });
const ago = (days: number) => sql`now() - make_interval(days => ${days})`;

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

async function account(status: string, daysAgo: number): Promise<string> {
  const id = `va_${randomUUID()}`;
  const clabe = String(Math.floor(Math.random() * 1e17)).padStart(18, '6');
  await sql`insert into virtual_accounts (id, order_ref, clabe, reference, amount, expires_at, notice_url, status, created_at)
    values (${id}, ${`P${id}`}, ${clabe}, 'ref', 1000, ${ago(daysAgo - 1)}, 'http://x', ${status}, ${ago(daysAgo)})`.execute(
    db,
  );
  return id;
}

async function deposit(accountId: string | null, daysAgo: number): Promise<string> {
  const id = `dep_${randomUUID()}`;
  await sql`insert into deposits (id, clabe, amount, account_id, matched, notify, clave_rastreo, created_at)
    values (${id}, '646180000000000000', 1000, ${accountId}, ${accountId !== null}, true,
      ${`SBXD${randomUUID().replaceAll('-', '').slice(0, 24)}`}, ${ago(daysAgo)})`.execute(db);
  return id;
}

async function payout(status: string, planned: string, daysAgo: number, returned = false): Promise<string> {
  const id = `po_${randomUUID()}`;
  const moved = status === 'succeeded' || status === 'returned';
  await sql`insert into payouts (id, payout_ref, amount, payee_type, account, name, bank_code, notice_url, status,
      planned_outcome, clave_rastreo, return_clave_rastreo, returned_at, created_at)
    values (${id}, ${`T${id}`}, 1000, 'spei_transfer', '002010077777777771', 'Ana', '002', 'http://x', ${status},
      ${planned}, ${moved ? `SBXP${randomUUID().replaceAll('-', '').slice(0, 24)}` : null},
      ${returned ? `SBXR${randomUUID().replaceAll('-', '').slice(0, 24)}` : null},
      ${returned ? ago(daysAgo - 1) : null}, ${ago(daysAgo)})`.execute(db);
  return id;
}

async function notice(daysAgo: number, done: boolean): Promise<string> {
  const id = `ntc_${randomUUID()}`;
  await sql`insert into notices (id, type, ref, url, body, delivered_at, created_at)
    values (${id}, 'payment', 'r', 'http://x', '{}', ${done ? ago(daysAgo) : null}, ${ago(daysAgo)})`.execute(
    db,
  );
  return id;
}

const ids = async (table: 'notices' | 'deposits' | 'payouts' | 'virtual_accounts') =>
  (await sql<{ id: string }>`select id from ${sql.table(table)} order by id`.execute(db)).rows
    .map((r) => r.id)
    .sort();

describe('sandbox retention', () => {
  it('forgets finished movements older than the retention, across batches, and keeps the rest', async () => {
    const oldPaid = await account('paid', 120);
    const oldOpen = await account('open', 120);
    const recent = await account('paid', 10);
    const [oldDeposit, recentDeposit] = [await deposit(oldPaid, 100), await deposit(recent, 10)];
    const orphan = await deposit(null, 100);
    const keepPayouts = [
      await payout('processing', 'succeed', 200),
      await payout('succeeded', 'return', 200),
      await payout('succeeded', 'succeed', 10),
    ];
    const gonePayouts = [
      await payout('succeeded', 'succeed', 200),
      await payout('failed', 'fail', 200),
      await payout('returned', 'return', 200, true),
    ];
    const keepNotices = [await notice(200, false), await notice(10, true)];
    await notice(200, true);
    await notice(150, true);

    await drain();

    expect(await ids('deposits')).toEqual([recentDeposit].sort());
    expect(await ids('virtual_accounts')).toEqual([oldOpen, recent].sort());
    expect(await ids('payouts')).toEqual(keepPayouts.sort());
    expect(await ids('notices')).toEqual(keepNotices.sort());
    for (const gone of [...gonePayouts, oldDeposit, orphan, oldPaid]) {
      expect([
        ...(await ids('payouts')),
        ...(await ids('deposits')),
        ...(await ids('virtual_accounts')),
      ]).not.toContain(gone);
    }
  });

  it('keeps an old account a recent deposit still points at', async () => {
    const old = await account('paid', 200);
    const late = await deposit(old, 5);
    await drain();
    expect(await ids('virtual_accounts')).toEqual([old]);
    expect(await ids('deposits')).toEqual([late]);
  });

  it('is off at 0 days, and each rule finds its rows through an index', async () => {
    expect(sandboxRetentionRules({ days: 0 })).toEqual([]);
    const indexes: Record<string, string> = {
      notices: 'notices_finished_created_idx',
      deposits: 'deposits_statement',
      payouts: 'payouts_finished_created_idx',
      virtual_accounts: 'virtual_accounts_closed_created_idx',
      stp_webhook_attempts: 'stp_webhook_attempts_at',
      stp_webhooks: 'stp_webhooks_created',
      stp_orders: 'stp_orders_created',
    };
    for (const rule of rules) {
      const plan = await retentionPlan(db, rule, { forbidSeqScan: true });
      expect(
        plan.filter((n) => n.nodeType === 'Seq Scan'),
        rule.name,
      ).toEqual([]);
      expect(plan).toContainEqual(expect.objectContaining({ index: indexes[rule.name] }));
    }
  });
});
