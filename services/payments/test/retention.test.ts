import { randomUUID } from 'node:crypto';
import { drainRetention, retentionPlan, retentionRound } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { paymentsRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('payments_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate outbox, pay_order_status_history, pay_orders`.execute(db);
});

const rules = paymentsRetentionRules({ outboxDays: 7, statusHistoryDays: 30 });

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

/** An outbox row created `createdDaysAgo` days ago, published `publishedDaysAgo` days ago or never (null). */
async function outboxRow(createdDaysAgo: number, publishedDaysAgo: number | null): Promise<string> {
  const id = randomUUID();
  await sql`insert into outbox (id, subject, payload, created_at, published_at)
    values (${id}, 'agentpay.events.pay.status_changed', '{}',
      now() - make_interval(days => ${createdDaysAgo}),
      ${publishedDaysAgo === null ? null : sql`now() - make_interval(days => ${publishedDaysAgo})`})`.execute(
    db,
  );
  return id;
}

async function order(orderNo: string): Promise<void> {
  await sql`insert into pay_orders (order_no, mch_no, biz_order_no, title, method, amount, fee, real_amount, status,
      settle_type, expired_time, fingerprint)
    values (${orderNo}, 'M1', ${orderNo}, 't', 'mex_virtual_account', 10000, 100, 9900, 'success', 'D+1',
      now() - interval '400 days', 'f')`.execute(db);
}

async function history(orderNo: string, version: number, daysAgo: number): Promise<void> {
  await sql`insert into pay_order_status_history (order_no, from_status, to_status, version, cause, event_id, created_at)
    values (${orderNo}, 'wait', 'success', ${version}, 'upstream', ${randomUUID()},
      now() - make_interval(days => ${daysAgo}))`.execute(db);
}

describe('payments retention', () => {
  it('deletes outbox rows published longer ago than the retention, across batches, and never an unpublished one', async () => {
    await Promise.all([8, 9, 10, 30, 365].map((d) => outboxRow(d + 1, d)));
    const recent = await Promise.all([0, 1, 6].map((d) => outboxRow(d + 1, d)));
    // Written a year ago and still unpublished (NATS was away): it must survive, however old.
    const stuck = await Promise.all([365, 30].map((d) => outboxRow(d, null)));
    expect(await drain()).toBe(3);
    const left = (await db.selectFrom('outbox').select('id').execute()).map((r) => r.id).sort();
    expect(left).toEqual([...recent, ...stuck].sort());
  });

  it('deletes status history older than its retention and keeps every order', async () => {
    await order('P1');
    await order('P2');
    await history('P1', 2, 90);
    await history('P1', 3, 40);
    await history('P1', 4, 31);
    await history('P2', 2, 29);
    await history('P2', 3, 1);
    expect(await drain()).toBe(2);
    const left = await db
      .selectFrom('pay_order_status_history')
      .select(['order_no', 'version'])
      .orderBy('order_no')
      .orderBy('version')
      .execute();
    expect(left).toEqual([
      { order_no: 'P2', version: 2 },
      { order_no: 'P2', version: 3 },
    ]);
    expect(await db.selectFrom('pay_orders').select('order_no').orderBy('order_no').execute()).toEqual([
      { order_no: 'P1' },
      { order_no: 'P2' },
    ]);
  });

  it('is idle when nothing is due', async () => {
    await outboxRow(1, 0);
    await outboxRow(100, null);
    expect(await retentionRound(db, rules, { batchSize: 2 })).toEqual({
      deleted: { outbox: 0, pay_order_status_history: 0 },
      more: false,
    });
  });

  it('turns a rule off at 0 days', () => {
    expect(paymentsRetentionRules({ outboxDays: 0, statusHistoryDays: 0 })).toEqual([]);
    expect(paymentsRetentionRules({ outboxDays: 1, statusHistoryDays: 0 }).map((r) => r.name)).toEqual([
      'outbox',
    ]);
  });

  it('finds due rows of every rule through an index, never a scan of the table', async () => {
    const indexes: Record<string, string> = {
      outbox: 'outbox_published_idx',
      pay_order_status_history: 'pay_order_status_history_created_idx',
    };
    for (const rule of rules) {
      const plan = await retentionPlan(db, rule, { forbidSeqScan: true });
      expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
      expect(plan).toContainEqual(expect.objectContaining({ index: indexes[rule.name] }));
    }
  });
});
