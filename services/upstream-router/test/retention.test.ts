import { randomUUID } from 'node:crypto';
import { drainRetention, retentionPlan, retentionRound } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { routerRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('router_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate outbox, upstream_notices`.execute(db);
});

const rules = routerRetentionRules({ outboxDays: 7, noticeDays: 90, quarantineDays: 180 });

/**
 * A notice received `daysAgo` days ago with its NoticeReceived event, written as the notice service writes
 * them: one transaction, so the notice's received_at is the event's created_at. The event was published a
 * day later, or is still waiting (`published: false`).
 */
async function notice(noticeId: string, daysAgo: number, published = true): Promise<string> {
  const eventId = randomUUID();
  await db.transaction().execute(async (trx) => {
    const at = sql`now() - make_interval(days => ${daysAgo})`;
    await sql`insert into upstream_notices (route_id, notice_id, kind, ref, status, payload, received_at)
      values ('sandbox-default', ${noticeId}, 'payment', 'P1', 'success', '{}', ${at})`.execute(trx);
    await sql`insert into outbox (id, subject, payload, created_at, published_at)
      values (${eventId}, 'agentpay.events.notice.payment', '{}', ${at},
        ${published ? sql`${at} + interval '1 day'` : null})`.execute(trx);
  });
  return eventId;
}

const noticeIds = async () =>
  (await db.selectFrom('upstream_notices').select('notice_id').orderBy('notice_id').execute()).map(
    (r) => r.notice_id,
  );

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

describe('router retention', () => {
  it('deletes notices older than the retention whose events are published, across batches, and their published events', async () => {
    for (const [i, days] of [200, 150, 120, 100, 91].entries()) await notice(`old-${i}`, days);
    await notice('recent', 3);
    // Five due notices and five due events, in batches of two: full, full, then one each and idle.
    expect(await drain()).toBe(3);
    expect(await noticeIds()).toEqual(['recent']);
    // The old events went too (published more than 7 days ago); the recent one's event stays.
    expect(
      await db.selectFrom('outbox').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
    ).toEqual({
      n: 1,
    });
  });

  it('keeps a notice whose event is not published however old, and every notice received after it, until it is', async () => {
    await notice('a-published', 120);
    const stuck = await notice('b-unpublished', 100, false);
    await notice('c-published-after', 95);
    await notice('d-recent', 1);
    await drain();
    expect(await noticeIds()).toEqual(['b-unpublished', 'c-published-after', 'd-recent']);
    expect(await db.selectFrom('outbox').select('id').where('id', '=', stuck).execute()).toHaveLength(1);

    await sql`update outbox set published_at = now() - interval '8 days' where id = ${stuck}`.execute(db);
    await drain();
    expect(await noticeIds()).toEqual(['d-recent']);
  });

  it('is idle when nothing is due', async () => {
    await notice('recent', 3);
    await notice('waiting', 300, false);
    expect(await retentionRound(db, rules, { batchSize: 2 })).toEqual({
      deleted: {
        outbox: 0,
        upstream_notices: 0,
        channel_deposits: 0,
        channel_payouts: 0,
        virtual_accounts: 0,
      },
      more: false,
    });
    expect(await noticeIds()).toEqual(['recent', 'waiting']);
  });

  it('keeps an ended account through its CLABE quarantine and the notice retention, an open one always', async () => {
    const account = (orderNo: string, endedDaysAgo: number | null) =>
      sql`insert into virtual_accounts (order_no, route_id, clabe, amount, status, assigned, expires_at, ended_at)
        values (${orderNo}, 'r', ${orderNo}, 100, ${endedDaysAgo === null ? 'open' : 'closed'}, true, now(),
          ${endedDaysAgo === null ? null : sql`now() - make_interval(days => ${endedDaysAgo})`})`.execute(db);
    await sql`truncate virtual_accounts, channel_deposits, channel_payouts`.execute(db);
    await account('open-forever', null);
    await account('in-quarantine', 200);
    await account('past-both', 271);
    await sql`insert into channel_deposits (route_id, deposit_id, clabe, amount, decision, received_at)
      values ('r', 'old', 'c', 1, 'returned', now() - interval '91 days'), ('r', 'new', 'c', 1, 'returned', now())`.execute(
      db,
    );
    await drain();
    const left = await db.selectFrom('virtual_accounts').select('order_no').orderBy('order_no').execute();
    expect(left.map((r) => r.order_no)).toEqual(['in-quarantine', 'open-forever']);
    const deposits = await db.selectFrom('channel_deposits').select('deposit_id').execute();
    expect(deposits.map((r) => r.deposit_id)).toEqual(['new']);
  });

  it('turns a rule off at 0 days', () => {
    expect(routerRetentionRules({ outboxDays: 0, noticeDays: 0, quarantineDays: 180 })).toEqual([]);
    expect(
      routerRetentionRules({ outboxDays: 0, noticeDays: 1, quarantineDays: 180 }).map((r) => r.name),
    ).toEqual(['upstream_notices', 'channel_deposits', 'channel_payouts', 'virtual_accounts']);
  });

  it('finds due rows of every rule through an index, never a scan of the table', async () => {
    const indexes: Record<string, string> = {
      outbox: 'outbox_published_idx',
      upstream_notices: 'upstream_notices_received_idx',
      channel_deposits: 'channel_deposits_received_idx',
      channel_payouts: 'channel_payouts_sent_idx',
      virtual_accounts: 'virtual_accounts_ended_idx',
    };
    for (const rule of rules) {
      const plan = await retentionPlan(db, rule, { forbidSeqScan: true });
      expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
      expect(plan).toContainEqual(expect.objectContaining({ index: indexes[rule.name] }));
    }
  });
});
