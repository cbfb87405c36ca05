import { gate, natsUrl, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

// Isolation and scale-out: a hanging endpoint holds only its own slots, and two replicas on one
// database and one durable consumer split the work without sending anything twice.

const keys = platformKeys();

describe('a dead endpoint beside a live one', () => {
  let store: Store;
  let bus: Bus;
  let notifier: Notifier;
  let dead: Sink;
  let live: Sink;

  beforeAll(async () => {
    store = await createStore('notifier_isolation');
    bus = await startBus('isolation');
    dead = await startSink(() => 'hang');
    live = await startSink();
    notifier = await main(
      notifierTestEnv({
        databaseUrl: store.database.url,
        natsUrl: await natsUrl(),
        bus,
        privateKeyPem: keys.privateKeyPem,
        // A long timeout, so the dead endpoint is still hanging while the live one is served.
        overrides: { NOTIFY_TIMEOUT_MS: '20000', NOTIFY_CONCURRENCY: '8', NOTIFY_ENDPOINT_CONCURRENCY: '2' },
      }),
    );
  });

  afterAll(async () => {
    // Closing the dead sink resets its connections, which ends the attempts still hanging.
    await dead?.close();
    await notifier?.stop();
    await live?.close();
    await bus?.close();
    await store?.close();
  });

  it("serves the live merchant's callbacks while the dead endpoint holds only its own slots", async () => {
    const deadEvents = Array.from({ length: 6 }, () => payEvent({ notifyUrl: dead.url }));
    const liveEvents = Array.from({ length: 6 }, () => payEvent({ notifyUrl: live.url }));
    // The dead endpoint's callbacks are first in line, in JetStream and in the schedule.
    for (const event of deadEvents) await bus.publish(event);
    await waitFor(() => dead.hanging() === 2, { message: 'the dead endpoint holds two callbacks' });
    for (const event of liveEvents) await bus.publish(event);

    await waitFor(
      async () => {
        const rows = await Promise.all(liveEvents.map((e) => store.delivery(e.event_id)));
        return rows.every((r) => r?.status === 'succeeded');
      },
      { timeoutMs: 10_000, message: 'every live callback delivered' },
    );

    expect(live.requests).toHaveLength(6);
    // Meanwhile the dead endpoint got exactly its two slots, both still hanging, nothing settled.
    expect(dead.requests).toHaveLength(2);
    expect(dead.hanging()).toBe(2);
    const deadRows = await Promise.all(deadEvents.map((e) => store.delivery(e.event_id)));
    expect(deadRows.map((r) => r?.status)).toEqual(Array(6).fill('pending'));
    expect(deadRows.filter((r) => r!.attempt_count === 1)).toHaveLength(2);
    const attempts = (await Promise.all(deadRows.map((r) => store.attempts(r!.id)))).flat();
    expect(attempts.map((a) => a.outcome)).toEqual(['in_flight', 'in_flight']);
  });
});

describe('two notifier replicas', () => {
  let store: Store;
  let bus: Bus;
  const replicas: Notifier[] = [];
  const sinks: Sink[] = [];

  beforeAll(async () => {
    store = await createStore('notifier_replicas');
    bus = await startBus('replicas');
    // The merchants answer nothing until three callbacks are in flight at once, more than one replica's two
    // slots: both replicas are then surely at work before the first callback completes.
    let arrived = 0;
    const bothAtWork = gate();
    for (let i = 0; i < 3; i++) {
      sinks.push(
        await startSink(async () => {
          arrived += 1;
          if (arrived >= 3) bothAtWork.open();
          await bothAtWork.opened;
          return { status: 200, body: 'SUCCESS' };
        }),
      );
    }
    const env = notifierTestEnv({
      databaseUrl: store.database.url,
      natsUrl: await natsUrl(),
      bus,
      privateKeyPem: keys.privateKeyPem,
      // Two in flight per replica, so neither can take all the work alone.
      overrides: { NOTIFY_CONCURRENCY: '2', NOTIFIER_CONSUME_CONCURRENCY: '4' },
    });
    replicas.push(...(await Promise.all([main(env), main(env)])));
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await Promise.all(sinks.map((s) => s.close()));
    await bus?.close();
    await store?.close();
  });

  it('share the deliveries without sending any callback twice', async () => {
    const events = Array.from({ length: 24 }, (_, i) =>
      payEvent({ notifyUrl: sinks[i % sinks.length]!.url }),
    );
    for (const event of events) await bus.publish(event);

    const rows = await waitFor(
      async () => {
        const all = await Promise.all(events.map((e) => store.delivery(e.event_id)));
        return all.every((r) => r?.status === 'succeeded') ? all.map((r) => r!) : undefined;
      },
      { timeoutMs: 20_000, message: 'every callback delivered' },
    );

    const received = sinks.flatMap((s) => s.requests.map((r) => r.headers['x-agentpay-delivery-id']));
    expect(received).toHaveLength(events.length);
    expect(new Set(received).size).toBe(events.length);
    expect(rows.every((r) => r.attempt_count === 1)).toBe(true);
    const workers = new Set(
      (await Promise.all(rows.map((r) => store.attempts(r.id)))).flat().map((a) => a.worker),
    );
    expect([...workers].sort()).toEqual(replicas.map((r) => r.instanceId).sort());
  });
});
