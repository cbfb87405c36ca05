import { randomUUID } from 'node:crypto';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database, DeliveryStatus } from '../src/db/schema.js';
import { backlog, failingEndpoints } from '../src/deliveries/delivery-backlog.repository.js';

// The callback backlog and failing endpoints the console reads (README "Admin API"), over deliveries in
// every state: what counts as due, in flight, failing and given up, and how failing ones group.

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('notifier_backlog', migrations));
});
afterAll(async () => drop?.());

let seq = 0;
async function delivery(d: {
  mchNo: string;
  endpoint: string;
  status: DeliveryStatus;
  attempts?: number;
  error?: string | null;
  httpStatus?: number | null;
  /** Seconds from now: negative is past. */
  nextIn?: number | null;
  leasedFor?: number;
  updatedAgoH?: number;
  createdAgoS?: number;
}) {
  const id = randomUUID();
  seq += 1;
  await db
    .insertInto('deliveries')
    .values({
      id,
      event_id: randomUUID(),
      kind: 'pay',
      mch_no: d.mchNo,
      app_id: '',
      order_no: `P${seq}`,
      version: 1,
      from_status: 'wait',
      to_status: 'success',
      occurred_at: new Date(),
      notify_url: `http://${d.endpoint}/cb`,
      endpoint: d.endpoint,
      trace_id: 't',
      body: '{}',
      status: d.status,
      attempt_count: d.attempts ?? 0,
      next_attempt_at:
        d.nextIn === null || d.status !== 'pending'
          ? null
          : sql<Date>`now() + make_interval(secs => ${d.nextIn ?? -1})`,
      lease_until: d.leasedFor ? sql<Date>`now() + make_interval(secs => ${d.leasedFor})` : null,
      last_error: d.error ?? null,
      last_http_status: d.httpStatus ?? null,
      created_at: sql<Date>`now() - make_interval(secs => ${d.createdAgoS ?? 0})`,
      updated_at: sql<Date>`now() - make_interval(hours => ${d.updatedAgoH ?? 0})`,
    })
    .execute();
  return id;
}

describe('callback backlog', () => {
  it('counts what waits, what fails and what was given up inside the window; delivered ones never', async () => {
    // M1's endpoint fails: two pending after a failed attempt (one due, one waiting), one given up an hour ago.
    await delivery({
      mchNo: 'M1',
      endpoint: 'a.test:443',
      status: 'pending',
      attempts: 2,
      error: 'HTTP 500',
      httpStatus: 500,
      createdAgoS: 600,
    });
    const newest = await delivery({
      mchNo: 'M1',
      endpoint: 'a.test:443',
      status: 'pending',
      attempts: 1,
      error: 'timeout',
      nextIn: 60,
    });
    await delivery({
      mchNo: 'M1',
      endpoint: 'a.test:443',
      status: 'failed',
      attempts: 17,
      error: 'HTTP 500',
      httpStatus: 500,
      updatedAgoH: 1,
    });
    // Given up two days ago: outside a 24 h window, inside a 72 h one.
    await delivery({
      mchNo: 'M3',
      endpoint: 'c.test:80',
      status: 'failed',
      attempts: 17,
      error: 'refused',
      updatedAgoH: 48,
    });
    // M2 is healthy: a first attempt due, one in flight, and delivered ones.
    await delivery({ mchNo: 'M2', endpoint: 'b.test:443', status: 'pending', createdAgoS: 30 });
    await delivery({ mchNo: 'M2', endpoint: 'b.test:443', status: 'pending', attempts: 1, leasedFor: 30 });
    await delivery({ mchNo: 'M2', endpoint: 'b.test:443', status: 'succeeded', attempts: 1 });
    await delivery({ mchNo: 'M2', endpoint: 'b.test:443', status: 'succeeded', attempts: 3, error: null });

    const b = await backlog(db, 24);
    expect(b).toMatchObject({ pending: 4, due: 2, inFlight: 1, failing: 2, gaveUp: 1, failingEndpoints: 1 });
    expect(b.oldestDueAt).toBeInstanceOf(Date);
    expect(Date.now() - b.oldestPendingAt!.getTime()).toBeGreaterThan(590_000);
    expect((await backlog(db, 72)).gaveUp).toBe(2);
    expect((await backlog(db, 72)).failingEndpoints).toBe(2);

    const failing = await failingEndpoints(db, { windowHours: 24, limit: 50 });
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({
      mchNo: 'M1',
      endpoint: 'a.test:443',
      failing: 2,
      gaveUp: 1,
      lastError: 'timeout',
      latest: { id: newest, orderNo: expect.any(String) },
    });
    const wider = await failingEndpoints(db, { windowHours: 72, limit: 50 });
    expect(wider.map((e) => e.mchNo)).toEqual(['M1', 'M3']);
    expect(wider[1]!.oldestPendingAt).toBeNull();
    expect(await failingEndpoints(db, { windowHours: 72, mchNo: 'M3', limit: 50 })).toHaveLength(1);
    expect(await failingEndpoints(db, { windowHours: 72, limit: 1 })).toHaveLength(1);
  });

  it('reads the given-up deliveries through their partial index', async () => {
    await sql`analyze deliveries`.execute(db);
    // One connection: the setting holds for the transaction that explains the read.
    const plan = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return sql<{ 'QUERY PLAN': string }>`explain select count(*) from deliveries
        where status = 'failed' and updated_at > now() - make_interval(hours => 24)`.execute(trx);
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/deliveries_gave_up_idx/);
  });
});
