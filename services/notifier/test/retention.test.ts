import { randomUUID } from 'node:crypto';
import { deleteDueBatch, drainRetention, retentionPlan, retentionRound } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notifierEnv } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database, DeliveryStatus } from '../src/db/schema.js';
import { rescheduleNow } from '../src/deliveries/delivery.service.js';
import { notifierRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('notifier_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate delivery_attempts, deliveries`.execute(db);
});

const rules = notifierRetentionRules({ attemptDays: 30, deliveryDays: 0 });

/** A delivery in `status` with one attempt started `daysAgo` days ago for each entry; answers its id. */
async function delivery(status: DeliveryStatus, attemptDaysAgo: number[]): Promise<string> {
  const row = await db
    .insertInto('deliveries')
    .values({
      event_id: randomUUID(),
      kind: 'pay',
      mch_no: 'M1',
      app_id: '',
      order_no: `P-${randomUUID()}`,
      version: 2,
      from_status: 'wait',
      to_status: 'success',
      occurred_at: new Date(),
      notify_url: 'http://merchant.example/cb',
      endpoint: 'merchant.example:80',
      trace_id: '0'.repeat(32),
      body: '{}',
      status,
      attempt_count: attemptDaysAgo.length,
      next_attempt_at: status === 'pending' ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [i, days] of attemptDaysAgo.entries()) {
    await sql`insert into delivery_attempts (delivery_id, number, worker, started_at, finished_at, outcome)
      values (${row.id}, ${i + 1}, 'w', now() - make_interval(days => ${days}),
        now() - make_interval(days => ${days}), ${i === attemptDaysAgo.length - 1 && status === 'succeeded' ? 'succeeded' : 'failed'})`.execute(
      db,
    );
  }
  return row.id;
}

/** Days ago each attempt of `id` started, oldest first. */
const attemptsOf = async (id: string) =>
  (
    await sql<{ days: number }>`select round(extract(epoch from now() - started_at) / 86400)::int as days
      from delivery_attempts where delivery_id = ${id} order by started_at`.execute(db)
  ).rows.map((r) => r.days);

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

describe('notifier retention: attempts', () => {
  it('deletes attempts older than the retention of finished deliveries only, across batches; deliveries stay', async () => {
    const delivered = await delivery('succeeded', [60, 45, 31, 2]);
    const givenUp = await delivery('failed', [90, 40]);
    const superseded = await delivery('superseded', [35]);
    const skipped = await delivery('skipped', [33]);
    // Pending for months (a dead endpoint, say): its attempts are its live history and stay, however old.
    const pending = await delivery('pending', [120, 100, 61]);
    const recent = await delivery('succeeded', [29, 1]);
    // Seven due attempts in batches of two: three full batches, then one and idle.
    expect(await drain()).toBe(4);
    expect(await attemptsOf(delivered)).toEqual([2]);
    expect(await attemptsOf(givenUp)).toEqual([]);
    expect(await attemptsOf(superseded)).toEqual([]);
    expect(await attemptsOf(skipped)).toEqual([]);
    expect(await attemptsOf(pending)).toEqual([120, 100, 61]);
    expect(await attemptsOf(recent)).toEqual([29, 1]);
    expect(
      await db.selectFrom('deliveries').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
    ).toEqual({
      n: 6,
    });
  });

  it('never deletes the attempts of a delivery a resend is making pending, nor waits for it', async () => {
    const resent = await delivery('failed', [50, 45]);
    const other = await delivery('failed', [50]);
    // An admin resend in progress: the delivery row is being made pending and is not committed yet.
    await db.transaction().execute(async (trx) => {
      await sql`update deliveries set status = 'pending', next_attempt_at = now() where id = ${resent}`.execute(
        trx,
      );
      expect(await retentionRound(db, rules, { batchSize: 10 })).toEqual({
        deleted: { delivery_attempts: 1 },
        more: false,
      });
    });
    expect(await attemptsOf(resent)).toEqual([50, 45]);
    expect(await attemptsOf(other)).toEqual([]);
    await drain();
    expect(await attemptsOf(resent)).toEqual([50, 45]);
  });

  it('keeps the history of a delivery resent through the admin API while it is pending, and deletes it once it is over', async () => {
    const id = await delivery('failed', [50, 40]);
    expect(await rescheduleNow(db, id)).toBeDefined();
    await drain();
    expect(await attemptsOf(id)).toEqual([50, 40]);
    await sql`update deliveries set status = 'succeeded', next_attempt_at = null where id = ${id}`.execute(
      db,
    );
    await drain();
    expect(await attemptsOf(id)).toEqual([]);
  });

  it('is idle when nothing is due', async () => {
    await delivery('succeeded', [3]);
    await delivery('pending', [300]);
    expect(await retentionRound(db, rules, { batchSize: 2 })).toEqual({
      deleted: { delivery_attempts: 0 },
      more: false,
    });
  });

  it('keeps every attempt at 0 days', () => {
    expect(notifierRetentionRules({ attemptDays: 0, deliveryDays: 0 })).toEqual([]);
  });

  it('finds due attempts through the started_at index, never a scan of the table', async () => {
    const plan = await retentionPlan(db, rules[0]!, { forbidSeqScan: true });
    expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
    expect(plan).toContainEqual(expect.objectContaining({ index: 'delivery_attempts_started_idx' }));
  });
});

describe('notifier retention: deliveries', () => {
  const deliveryRules = notifierRetentionRules({ attemptDays: 30, deliveryDays: 90 });
  const deliveriesRule = deliveryRules.find((r) => r.name === 'deliveries')!;
  const drainDeliveries = () => drainRetention(db, deliveryRules, { batchSize: 2 });

  /**
   * A delivery of `order` (version `version`) in `status`, last changed `daysAgo` days ago, pointing at
   * `supersededBy` if given, with one attempt started then; answers its id.
   */
  async function aged(
    status: DeliveryStatus,
    daysAgo: number,
    opts: { order?: string; version?: number; supersededBy?: string } = {},
  ): Promise<string> {
    const id = await delivery(status, [daysAgo]);
    await sql`update deliveries set updated_at = now() - make_interval(days => ${daysAgo}),
        created_at = now() - make_interval(days => ${daysAgo}),
        order_no = coalesce(${opts.order ?? null}, order_no), version = ${opts.version ?? 2},
        superseded_by = ${opts.supersededBy ?? null}::uuid
      where id = ${id}`.execute(db);
    return id;
  }

  /** The ids among `ids` still in the table. */
  const kept = async (ids: string[]) =>
    (await db.selectFrom('deliveries').select('id').where('id', 'in', ids).execute()).map((r) => r.id).sort();

  const attemptCount = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from delivery_attempts`.execute(db)).rows[0]!.n;

  it('deletes finished deliveries past the retention with their attempts, across batches; newer and pending ones stay', async () => {
    const pointedAt = await aged('succeeded', 20);
    const due = [
      await aged('succeeded', 91),
      await aged('failed', 120),
      await aged('skipped', 100),
      await aged('superseded', 95, { supersededBy: pointedAt }),
    ];
    const recent = [pointedAt, await aged('succeeded', 89), await aged('failed', 2)];
    // Pending for over a year (a dead endpoint, or resent and waiting): never deleted, however old.
    const pending = await aged('pending', 400);
    await drainDeliveries();
    expect(await kept(due)).toEqual([]);
    expect(await kept(recent)).toEqual([...recent].sort());
    expect(await kept([pending])).toEqual([pending]);
    expect((await db.selectFrom('deliveries').select('id').execute()).length).toBe(4);
    // The due deliveries' attempts went with them. The 20-day, 2-day and 400-day (pending) ones' stay; the
    // 89-day one's went by the attempts rule, and its delivery stays.
    expect(await attemptCount()).toBe(3);
  });

  it('drains a superseded chain from its oldest version, and keeps a delivery a kept one still points at', async () => {
    // Versions 1 → 2 → 3 of one order: 1 was superseded by 2, and 2 by 3; all past the retention. Version 2
    // finished before version 1 was superseded (its attempt was in flight), so the target is the older row.
    const v3 = await aged('succeeded', 93, { order: 'P-chain', version: 3 });
    const v2 = await aged('superseded', 100, { order: 'P-chain', version: 2, supersededBy: v3 });
    const v1 = await aged('superseded', 95, { order: 'P-chain', version: 1, supersededBy: v2 });
    // An old delivery that a recent one points at: version 1, resent last week and superseded again.
    const target = await aged('succeeded', 200, { order: 'P-kept', version: 2 });
    const pointer = await aged('superseded', 7, { order: 'P-kept', version: 1, supersededBy: target });
    // Each round deletes what nothing points at: v1, then v2, then v3; never a batch that fails.
    expect(await retentionRound(db, [deliveriesRule], { batchSize: 10 })).toEqual({
      deleted: { deliveries: 1 },
      more: false,
    });
    expect(await kept([v1, v2, v3])).toEqual([v2, v3].sort());
    await drainDeliveries();
    expect(await kept([v1, v2, v3, target, pointer])).toEqual([target, pointer].sort());
    // Once the pointing row has gone too, so does its target.
    await sql`update deliveries set updated_at = now() - interval '91 days' where id = ${pointer}`.execute(
      db,
    );
    await drainDeliveries();
    expect(await kept([target, pointer])).toEqual([target]);
    // The target is due from the next round on.
    await drainDeliveries();
    expect(await kept([target])).toEqual([]);
  });

  it('skips a delivery a resend is making pending and keeps it, without waiting for it', async () => {
    const resent = await aged('failed', 120);
    const other = await aged('failed', 120);
    await db.transaction().execute(async (trx) => {
      // The admin resend's update, not committed yet: the row is locked and about to be pending.
      await sql`update deliveries set status = 'pending', next_attempt_at = now(), updated_at = now()
        where id = ${resent}`.execute(trx);
      expect(await retentionRound(db, [deliveriesRule], { batchSize: 10 })).toEqual({
        deleted: { deliveries: 1 },
        more: false,
      });
    });
    expect(await kept([resent, other])).toEqual([resent]);
    await drainDeliveries();
    expect(await kept([resent])).toEqual([resent]);
  });

  it('keeps a delivery resent through the admin API, and deletes it once it is over and past the retention again', async () => {
    const id = await aged('failed', 120);
    expect(await rescheduleNow(db, id)).toBeDefined();
    await drainDeliveries();
    expect(await kept([id])).toEqual([id]);
    // Delivered at once: updated_at is now, so it waits another retention.
    await sql`update deliveries set status = 'succeeded', next_attempt_at = null, updated_at = now()
      where id = ${id}`.execute(db);
    await drainDeliveries();
    expect(await kept([id])).toEqual([id]);
    await sql`update deliveries set updated_at = now() - interval '91 days' where id = ${id}`.execute(db);
    await drainDeliveries();
    expect(await kept([id])).toEqual([]);
  });

  it('makes a resend that comes while a batch deletes the row wait, then find nothing (no error, nothing half done)', async () => {
    const id = await aged('failed', 120);
    let resend: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      expect(await deleteDueBatch(trx, deliveriesRule, 10)).toMatchObject({ deleted: 1 });
      resend = rescheduleNow(db, id);
      // The resend's update waits on the batch's row lock (polled from another connection: a transaction
      // sees pg_stat_activity as it was when it first read it).
      for (let i = 0; ; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'
            and query like '%update "deliveries"%'`.execute(db);
        if (rows[0]!.n > 0) break;
        if (i > 500) throw new Error('the resend never waited on the batch');
        await new Promise((r) => setImmediate(r));
      }
    });
    expect(await resend).toBeUndefined();
    expect(await kept([id])).toEqual([]);
    expect(await attemptCount()).toBe(0);
  });

  it('finds due deliveries through the partial finished index, and what points at them through superseded_by, never a scan', async () => {
    const plan = await retentionPlan(db, deliveriesRule, { forbidSeqScan: true });
    expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
    expect(plan).toContainEqual(
      expect.objectContaining({
        index: 'deliveries_finished_idx',
        indexCond: expect.stringContaining('updated_at'),
      }),
    );
    expect(plan).toContainEqual(expect.objectContaining({ index: 'deliveries_superseded_by_idx' }));
  });

  it('is off at 0 days, and may not keep deliveries for less than their attempts', () => {
    expect(notifierRetentionRules({ attemptDays: 30, deliveryDays: 0 }).map((r) => r.name)).toEqual([
      'delivery_attempts',
    ]);
    expect(notifierEnv.parse({}).CALLBACK_DELIVERY_RETENTION_DAYS).toBe(90);
    const refused = notifierEnv.safeParse({ CALLBACK_DELIVERY_RETENTION_DAYS: '20' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['CALLBACK_DELIVERY_RETENTION_DAYS']);
    // Attempts kept forever: deliveries must be too.
    expect(
      notifierEnv.safeParse({ CALLBACK_ATTEMPT_RETENTION_DAYS: '0', CALLBACK_DELIVERY_RETENTION_DAYS: '90' })
        .success,
    ).toBe(false);
    expect(
      notifierEnv.safeParse({ CALLBACK_ATTEMPT_RETENTION_DAYS: '0', CALLBACK_DELIVERY_RETENTION_DAYS: '0' })
        .success,
    ).toBe(true);
    expect(notifierEnv.safeParse({ CALLBACK_DELIVERY_RETENTION_DAYS: '30' }).success).toBe(true);
  });
});
