import { randomUUID } from 'node:crypto';
import { migratedTestDatabase } from '@agentpay/testing';
import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { type NewDelivery, recordDeliveries } from '../src/deliveries/delivery.repository.js';
import { claimDueDeliveries, msUntilNextDue } from '../src/deliveries/delivery-lease.repository.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('notifier_record_batch', migrations));
});

afterAll(() => drop?.());

function change(orderNo: string, version: number, over: Partial<NewDelivery> = {}): NewDelivery {
  return {
    eventId: randomUUID(),
    kind: 'pay',
    mchNo: 'M1',
    appId: '',
    orderNo,
    version,
    fromStatus: 'wait',
    toStatus: 'success',
    occurredAt: new Date(),
    notifyUrl: 'http://merchant.example/cb',
    endpoint: 'merchant.example:80',
    traceId: '0'.repeat(32),
    body: `{"v":${version}}`,
    status: 'pending',
    ...over,
  };
}

async function statuses(orderNo: string) {
  const rows = await db
    .selectFrom('deliveries')
    .select(['version', 'status', 'superseded_by', 'id'])
    .where('order_no', '=', orderNo)
    .orderBy('version')
    .execute();
  return rows;
}

describe('recordDeliveries', () => {
  it('supersedes the older changes of an order that arrive in one batch, in any order, by the newest', async () => {
    const orderNo = `O-${randomUUID()}`;
    const outcomes = await recordDeliveries(db, [change(orderNo, 3), change(orderNo, 1), change(orderNo, 2)]);
    expect(outcomes.map((o) => o.kind === 'recorded' && o.status)).toEqual([
      'pending',
      'superseded',
      'superseded',
    ]);
    const rows = await statuses(orderNo);
    const newest = rows.find((r) => r.version === 3)!;
    expect(rows.map((r) => [r.version, r.status, r.superseded_by])).toEqual([
      [1, 'superseded', newest.id],
      [2, 'superseded', newest.id],
      [3, 'pending', null],
    ]);
  });

  it('supersedes an older change waiting from an earlier batch, but not one in flight, and reports which', async () => {
    const waiting = `O-${randomUUID()}`;
    const inFlight = `O-${randomUUID()}`;
    await recordDeliveries(db, [change(waiting, 1), change(inFlight, 1)]);
    await sql`update deliveries set lease_until = now() + interval '1 minute' where order_no = ${inFlight}`.execute(
      db,
    );
    const [first, second] = await recordDeliveries(db, [change(waiting, 2), change(inFlight, 2)]);
    const [olderWaiting] = await statuses(waiting);
    expect(first).toEqual({
      kind: 'recorded',
      id: expect.any(String),
      status: 'pending',
      superseded: [olderWaiting!.id],
    });
    expect(second).toMatchObject({ kind: 'recorded', status: 'pending', superseded: [] });
    expect((await statuses(inFlight)).map((r) => r.status)).toEqual(['pending', 'pending']);
  });

  it('records an event once: a copy in the same batch and one in a later batch are duplicates', async () => {
    const orderNo = `O-${randomUUID()}`;
    const event = change(orderNo, 1);
    const outcomes = await recordDeliveries(db, [event, { ...event }, change(orderNo, 2)]);
    expect(outcomes.map((o) => o.kind)).toEqual(['recorded', 'duplicate', 'recorded']);
    expect((await recordDeliveries(db, [{ ...event }]))[0]).toEqual({ kind: 'duplicate' });
    expect(await statuses(orderNo)).toHaveLength(2);
  });

  it('does not let a skipped change (no notify URL) supersede anything', async () => {
    const orderNo = `O-${randomUUID()}`;
    const outcomes = await recordDeliveries(db, [
      change(orderNo, 1),
      change(orderNo, 2, { status: 'skipped', notifyUrl: '', endpoint: '', body: '' }),
    ]);
    expect(outcomes.map((o) => o.kind === 'recorded' && o.status)).toEqual(['pending', 'skipped']);
    expect((await statuses(orderNo)).map((r) => r.status)).toEqual(['pending', 'skipped']);
  });

  it('ends in the same statuses as recording the same events one at a time, however they are batched', async () => {
    // A few orders, each with a few versions (some skipped, some repeated), arriving in a random order
    // and cut into random batches: the batch path and the one-at-a-time path must agree on every row's
    // status.
    const arrival = fc
      .array(
        fc.record({
          order: fc.integer({ min: 0, max: 2 }),
          version: fc.integer({ min: 1, max: 4 }),
          skipped: fc.boolean(),
        }),
        { minLength: 1, maxLength: 12 },
      )
      .chain((events) =>
        fc.record({
          events: fc.constant(events),
          cuts: fc.array(fc.integer({ min: 1, max: 4 }), {
            minLength: events.length,
            maxLength: events.length,
          }),
        }),
      );
    await fc.assert(
      fc.asyncProperty(arrival, async ({ events, cuts }) => {
        const run = randomUUID().slice(0, 8);
        // One event id per (order, version): a repeat of the pair is a redelivery of the same event.
        const ids = new Map<string, string>();
        const build = (path: string) =>
          events.map((e) => {
            const key = `${e.order}:${e.version}`;
            if (!ids.has(key)) ids.set(key, randomUUID());
            const skippedVersion = events.find(
              (x) => x.order === e.order && x.version === e.version,
            )!.skipped;
            return change(`${path}-${run}-${e.order}`, e.version, {
              eventId: `${path}-${ids.get(key)}`,
              ...(skippedVersion
                ? { status: 'skipped' as const, notifyUrl: '', endpoint: '', body: '' }
                : {}),
            });
          });
        for (const d of build('one')) await recordDeliveries(db, [d]);
        const batched = build('batch');
        for (let i = 0, c = 0; i < batched.length; i += cuts[c++]!)
          await recordDeliveries(db, batched.slice(i, i + cuts[c]!));

        const view = async (path: string) => {
          const rows = await db
            .selectFrom('deliveries')
            .select(['order_no', 'version', 'status', 'superseded_by'])
            .where('order_no', 'like', `${path}-${run}-%`)
            .execute();
          const versionOf = new Map<string, number>();
          const all = await db
            .selectFrom('deliveries')
            .select(['id', 'version'])
            .where('order_no', 'like', `${path}-${run}-%`)
            .execute();
          for (const r of all) versionOf.set(r.id, r.version);
          return rows
            .map((r) => ({
              order: r.order_no.slice(path.length + run.length + 2),
              version: r.version,
              status: r.status,
              // Which newer version superseded it may differ (a batch names its newest), never that one did.
              byNewer: r.superseded_by ? versionOf.get(r.superseded_by)! > r.version : undefined,
            }))
            .sort((a, b) => a.order.localeCompare(b.order) || a.version - b.version);
        };
        expect(await view('batch')).toEqual(await view('one'));
      }),
      { numRuns: 40 },
    );
  });
});

describe('msUntilNextDue', () => {
  it('answers nothing when no delivery waits, and the wait until the next retry otherwise', async () => {
    await db.deleteFrom('delivery_attempts').execute();
    await db.deleteFrom('deliveries').execute();
    // With nothing pending it must not answer 0: the worker would claim again at once, forever.
    expect(await msUntilNextDue(db)).toBeUndefined();
    const orderNo = `O-${randomUUID()}`;
    await recordDeliveries(db, [change(orderNo, 1)]);
    await sql`update deliveries set next_attempt_at = now() + interval '5 seconds' where order_no = ${orderNo}`.execute(
      db,
    );
    const ms = await msUntilNextDue(db);
    expect(ms).toBeGreaterThan(4_000);
    expect(ms).toBeLessThanOrEqual(5_000);
  });
});

describe('claimDueDeliveries', () => {
  it("takes each endpoint's oldest due deliveries up to its free slots, whatever another endpoint's backlog", async () => {
    await db.deleteFrom('delivery_attempts').execute();
    await db.deleteFrom('deliveries').execute();
    const dead = { notifyUrl: 'http://dead.example/cb', endpoint: 'dead.example:80' };
    const live = { notifyUrl: 'http://live.example/cb', endpoint: 'live.example:80' };
    // A dead endpoint: 2,000 due callbacks, 4 of them in flight (leased until their timeout).
    const backlog = Array.from({ length: 2_000 }, (_, i) => change(`DEAD-${i}`, 1, dead));
    for (let i = 0; i < backlog.length; i += 500) await recordDeliveries(db, backlog.slice(i, i + 500));
    await sql`update deliveries set next_attempt_at = now() - make_interval(secs => ${2_000}) + make_interval(secs => substr(order_no, 6)::int)
              where endpoint = ${dead.endpoint}`.execute(db);
    await sql`update deliveries set lease_until = now() + interval '1 minute', claim_token = gen_random_uuid()
              where order_no in ('DEAD-0', 'DEAD-1', 'DEAD-2', 'DEAD-3')`.execute(db);
    await recordDeliveries(
      db,
      [1, 2, 3].map((n) => change(`LIVE-${n}`, 1, live)),
    );

    const atLimit = await claimDueDeliveries(db, { owner: 't', slots: 10, perEndpoint: 4, leaseMs: 60_000 });
    expect(atLimit.map((d) => d.orderNo).sort()).toEqual(['LIVE-1', 'LIVE-2', 'LIVE-3']);

    // Two more slots per endpoint: the dead one gives its two oldest waiting callbacks, the live one none left.
    const more = await claimDueDeliveries(db, { owner: 't', slots: 10, perEndpoint: 6, leaseMs: 60_000 });
    expect(more.map((d) => d.orderNo)).toEqual(['DEAD-4', 'DEAD-5']);
  });
});
