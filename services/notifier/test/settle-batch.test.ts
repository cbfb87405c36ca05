import { randomUUID } from 'node:crypto';
import { migrateToLatest } from '@agentpay/db';
import { natsUrl, waitFor } from '@agentpay/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackOutcome } from '../src/callbacks/callback.client.js';
import { migrations } from '../src/db/migrations/index.js';
import { claimDueDeliveries } from '../src/deliveries/delivery.service.js';
import type { ClaimedDelivery } from '../src/deliveries/delivery-lease.repository.js';
import { settleSucceeded } from '../src/deliveries/delivery-settle.repository.js';
import { createSuccessSettler } from '../src/deliveries/settle-batch.js';
import { main, type Notifier } from '../src/main.js';
import {
  type Bus,
  createStore,
  notifierTestEnv,
  payEvent,
  platformKeys,
  type Sink,
  type Store,
  startBus,
  startSink,
} from './helpers.js';

// Benchmarks issue: successful attempts are settled in batches (group commit, one statement per batch)
// instead of one locked transaction each. Real Postgres, NATS and HTTP sinks.

const keys = platformKeys();

describe('a notifier delivering many callbacks to a fast sink', () => {
  let store: Store;
  let bus: Bus;
  let sink: Sink;
  let notifier: Notifier;

  beforeAll(async () => {
    store = await createStore('notifier_settle_e2e');
    bus = await startBus('settle');
    sink = await startSink();
    notifier = await main(
      notifierTestEnv({
        databaseUrl: store.database.url,
        natsUrl: await natsUrl(),
        bus,
        privateKeyPem: keys.privateKeyPem,
        overrides: { NOTIFY_CONCURRENCY: '64', NOTIFY_ENDPOINT_CONCURRENCY: '64' },
      }),
    );
  });

  afterAll(async () => {
    await notifier?.stop();
    await sink?.close();
    await bus?.close();
    await store?.close();
  });

  it('settles every one succeeded after one attempt, recording its reply, several per statement', async () => {
    const events = Array.from({ length: 300 }, () => payEvent({ notifyUrl: sink.url }));
    await Promise.all(events.map((e) => bus.publish(e)));
    const ids = events.map((e) => e.event_id);
    const rows = await waitFor(
      async () => {
        const found = await store.db
          .selectFrom('deliveries')
          .selectAll()
          .where('event_id', 'in', ids)
          .execute();
        return found.length === ids.length && found.every((r) => r.status === 'succeeded') && found;
      },
      { timeoutMs: 30_000, intervalMs: 100, message: 'every callback delivered' },
    );

    expect(sink.requests).toHaveLength(300);
    for (const row of rows) {
      expect(row).toMatchObject({
        attempt_count: 1,
        last_http_status: 200,
        last_error: null,
        lease_until: null,
        lease_owner: null,
        claim_token: null,
        next_attempt_at: null,
      });
      expect(row.delivered_at).toBeInstanceOf(Date);
    }
    const attempts = await store.db
      .selectFrom('delivery_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(attempts).toHaveLength(300);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({
        number: 1,
        outcome: 'succeeded',
        http_status: 200,
        response_excerpt: 'SUCCESS',
        error: null,
      });
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
      expect(attempt.finished_at).toBeInstanceOf(Date);
    }
    // now() is the statement's transaction time, so deliveries settled together share delivered_at.
    const statements = new Set(rows.map((r) => r.delivered_at!.getTime()));
    expect(statements.size).toBeLessThan(rows.length);
  });
});

describe('settling successes in a batch', () => {
  let store: Store;

  const ok: CallbackOutcome = {
    ok: true,
    httpStatus: 200,
    latencyMs: 7,
    excerpt: 'SUCCESS',
    error: null,
    permanent: false,
  };

  beforeAll(async () => {
    store = await createStore('notifier_settle_batch');
    await migrateToLatest(store.db, migrations);
  });

  afterAll(async () => {
    await store?.close();
  });

  /** Records `n` due deliveries, each to an endpoint of its own, and claims them (nothing else is due). */
  async function claimNew(n: number): Promise<ClaimedDelivery[]> {
    await store.db
      .insertInto('deliveries')
      .values(
        Array.from({ length: n }, () => {
          const host = `m${randomUUID()}.test`;
          return {
            event_id: randomUUID(),
            kind: 'pay' as const,
            mch_no: 'M1001',
            app_id: '',
            order_no: `P-${randomUUID()}`,
            version: 2,
            from_status: 'wait',
            to_status: 'success',
            notify_url: `http://${host}/notify`,
            endpoint: `${host}:80`,
            trace_id: randomUUID().replaceAll('-', ''),
            body: '{}',
            status: 'pending' as const,
            next_attempt_at: sql<Date>`now()`,
          };
        }),
      )
      .execute();
    return claim(n);
  }

  const claim = (slots: number) =>
    claimDueDeliveries(store.db, { owner: 'test', slots, perEndpoint: 1, leaseMs: 60_000 });

  /** Lets the lease of `d` run out and has another claim take the delivery over (new token). */
  async function takeOver(d: ClaimedDelivery): Promise<ClaimedDelivery> {
    await store.db
      .updateTable('deliveries')
      .set({ lease_until: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', d.id)
      .execute();
    const [newer] = await claim(1);
    expect(newer?.id).toBe(d.id);
    return newer!;
  }

  it('leaves a delivery whose lease was taken over to the newer claim', async () => {
    const [old] = await claimNew(1);
    const newer = await takeOver(old!);

    await expect(createSuccessSettler(store.db).settle(old!, ok)).resolves.toBe('lease_lost');

    const row = await store.db
      .selectFrom('deliveries')
      .selectAll()
      .where('id', '=', old!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'pending',
      claim_token: newer.claimToken,
      lease_owner: 'test',
      delivered_at: null,
    });
    expect(row.lease_until).toBeInstanceOf(Date);
    const attempts = await store.attempts(old!.id);
    // The old attempt stays abandoned (only an attempt still in flight takes a result).
    expect(attempts.map((a) => [a.number, a.outcome, a.http_status])).toEqual([
      [1, 'abandoned', null],
      [2, 'in_flight', null],
    ]);
  });

  it('settles the rest of a batch that holds one stale claim, in one statement', async () => {
    const claimed = await claimNew(5);
    const stale = claimed[2]!;
    const newer = await takeOver(stale);

    const settler = createSuccessSettler(store.db);
    const results = await Promise.all(claimed.map((d, i) => settler.settle(d, { ...ok, latencyMs: 10 + i })));
    expect(results).toEqual(['succeeded', 'succeeded', 'lease_lost', 'succeeded', 'succeeded']);

    const rows = await store.db
      .selectFrom('deliveries')
      .selectAll()
      .where(
        'id',
        'in',
        claimed.map((d) => d.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const settled = claimed.filter((d) => d !== stale).map((d) => byId.get(d.id)!);
    for (const row of settled) {
      expect(row).toMatchObject({
        status: 'succeeded',
        claim_token: null,
        lease_until: null,
        last_http_status: 200,
      });
    }
    expect(new Set(settled.map((r) => r.delivered_at!.getTime())).size).toBe(1);
    expect(byId.get(stale.id)).toMatchObject({ status: 'pending', claim_token: newer.claimToken });

    for (const [i, d] of claimed.entries()) {
      const attempts = await store.attempts(d.id);
      if (d === stale) {
        expect(attempts.map((a) => a.outcome)).toEqual(['abandoned', 'in_flight']);
      } else {
        expect(attempts).toHaveLength(1);
        expect(attempts[0]).toMatchObject({
          outcome: 'succeeded',
          http_status: 200,
          latency_ms: 10 + i,
          response_excerpt: 'SUCCESS',
        });
      }
    }
  });

  it('changes nothing when the same success is settled twice', async () => {
    const [d] = await claimNew(1);
    const attempt = { claim: d!, httpStatus: 200, latencyMs: 5, excerpt: 'SUCCESS', error: null };
    expect(await settleSucceeded(store.db, [attempt])).toEqual(new Set([d!.claimToken]));
    const before = await store.attempts(d!.id);
    expect(await settleSucceeded(store.db, [{ ...attempt, latencyMs: 99 }])).toEqual(new Set());
    expect(await store.attempts(d!.id)).toEqual(before);
  });
});
