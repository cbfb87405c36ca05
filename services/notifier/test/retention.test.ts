import { randomUUID } from 'node:crypto';
import { drainRetention, retentionPlan, retentionRound } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database, DeliveryStatus } from '../src/db/schema.js';
import { rescheduleNow } from '../src/deliveries/delivery-admin.repository.js';
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

const rules = notifierRetentionRules({ attemptDays: 30 });

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

describe('notifier retention', () => {
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
    expect(notifierRetentionRules({ attemptDays: 0 })).toEqual([]);
  });

  it('finds due attempts through the started_at index, never a scan of the table', async () => {
    const plan = await retentionPlan(db, rules[0]!, { forbidSeqScan: true });
    expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
    expect(plan).toContainEqual(expect.objectContaining({ index: 'delivery_attempts_started_idx' }));
  });
});
