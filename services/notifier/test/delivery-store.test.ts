import { randomUUID } from 'node:crypto';
import { migratedTestDatabase } from '@agentpay/testing';
import fc from 'fast-check';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import type { NewDelivery } from '../src/deliveries/delivery.repository.js';
import { claimDueDeliveries, recordDeliveries } from '../src/deliveries/delivery.service.js';
import { claimStatement, msUntilNextDue } from '../src/deliveries/delivery-lease.repository.js';

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

describe('the indexes of due deliveries', () => {
  it('all lead with the endpoint, so no read of one endpoint can walk the others’ due callbacks', async () => {
    // With an index on the due time alone, the planner read one endpoint's due callbacks by walking every
    // endpoint's, filtering row by row, and a third of endpoints hanging stalled the healthy ones' claims for
    // seconds (migration 20261124T0500_drop_deliveries_due_idx, docs/benchmarks.md "Callback backlog").
    const { rows } = await sql<{ name: string; def: string }>`
      select indexname as name, indexdef as def from pg_indexes
      where tablename = 'deliveries' and indexdef like '%next_attempt_at%'`.execute(db);
    expect(rows.map((r) => r.name)).toEqual(['deliveries_endpoint_due_idx']);
    expect(rows[0]?.def).toMatch(/\(endpoint, next_attempt_at, id\)/);
  });
});

describe('the claim statement', () => {
  it('reads what it claims, not every pending delivery, on statistics taken before the pile-up', async () => {
    await db.deleteFrom('delivery_attempts').execute();
    await db.deleteFrom('deliveries').execute();
    await sql`vacuum deliveries`.execute(db);
    // Statistics taken when every delivery was finished (after a drain, say): they say nothing is pending.
    // Autoanalyze runs only once a tenth of a table has changed, so a pile-up of due callbacks is planned on
    // such statistics for minutes in production too.
    await sql`insert into deliveries (event_id, kind, mch_no, order_no, version, to_status, notify_url, endpoint,
                                      trace_id, body, status, delivered_at)
              select gen_random_uuid()::text, 'pay', 'M1', 'DONE-' || g, 1, 'success', 'http://done.example/cb',
                     'done.example:80', md5(g::text), '{}', 'succeeded', now()
              from generate_series(1, 20000) g`.execute(db);
    await sql`analyze deliveries`.execute(db);
    const endpoints = Array.from({ length: 20 }, (_, i) => `ep${String(i).padStart(2, '0')}.example:80`);
    await sql`insert into deliveries (event_id, kind, mch_no, order_no, version, to_status, notify_url, endpoint,
                                      trace_id, body, status, next_attempt_at)
              select gen_random_uuid()::text, 'pay', 'M1', 'STALE-' || g, 1, 'success',
                     'http://' || e || '/cb', e, md5(g::text), '{}', 'pending', now() - interval '1 minute'
              from generate_series(0, 3999) g, lateral (select ${sql.val(endpoints)}::text[] as eps) a,
                   lateral (select a.eps[g % 20 + 1] as e) b`.execute(db);
    // A third of the endpoints hanging: their first few in flight, the rest due behind their limit.
    await sql`update deliveries set lease_until = now() + interval '1 minute', claim_token = gen_random_uuid()
              where order_no like 'STALE-%' and endpoint < 'ep07' and substr(order_no, 7)::int < 140`.execute(
      db,
    );
    const room = {
      endpoints: endpoints.slice(0, 7),
      free: endpoints.slice(0, 7).map(() => 0),
      defaultFree: 8,
      limited: endpoints.slice(0, 7),
    };
    const compiled = claimStatement({
      owner: 't',
      slots: 64,
      perEndpoint: 64,
      leaseMs: 60_000,
      room,
    }).compile(db);
    const plan = await db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      try {
        // As claimDueDeliveries runs it.
        await sql`select set_config('enable_seqscan', 'off', true)`.execute(conn);
        const { rows } = await conn.executeQuery<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>(
          CompiledQuery.raw(`explain (analyze, buffers, format json) ${compiled.sql}`, [
            ...compiled.parameters,
          ]),
        );
        return rows[0]!['QUERY PLAN'][0].Plan;
      } finally {
        await sql`rollback`.execute(conn);
      }
    });
    // 64 claimed from the 13 healthy endpoints' ranges, with the update: about 1,800 buffers. Each plan that
    // walked the pending deliveries instead (the whole candidate search per pending row; a partial index
    // scanned per candidate; the whole table per update) read 4,000 to 16,000 here.
    expect(plan['Actual Rows']).toBe(64);
    expect((plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0)).toBeLessThan(3_000);
  });
});
