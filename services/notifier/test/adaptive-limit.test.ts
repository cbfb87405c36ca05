import { natsUrl, waitFor } from '@agentpay/testing';
import { sql } from 'kysely';
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

// The adaptive per-endpoint limit against real Postgres, NATS and HTTP: an endpoint that hangs until the
// timeout backs off to one callback in flight, its other callbacks wait due and untried (no attempt, no
// retry spent), and a healthy merchant beside it is served meanwhile.

const keys = platformKeys();
const INITIAL_LIMIT = 4;
const TIMEOUT_MS = 1_500;

describe('the adaptive limit of a hanging endpoint', () => {
  let store: Store;
  let bus: Bus;
  let notifier: Notifier;
  let dead: Sink;
  let live: Sink;
  let peakHanging = 0;

  beforeAll(async () => {
    store = await createStore('notifier_adaptive');
    bus = await startBus('adaptive');
    dead = await startSink(() => {
      peakHanging = Math.max(peakHanging, dead.hanging() + 1);
      return 'hang';
    });
    live = await startSink();
    notifier = await main(
      notifierTestEnv({
        databaseUrl: store.database.url,
        natsUrl: await natsUrl(),
        bus,
        privateKeyPem: keys.privateKeyPem,
        overrides: {
          NOTIFY_TIMEOUT_MS: String(TIMEOUT_MS),
          // A failed attempt waits an hour: what the endpoint receives after the first wave is new callbacks.
          NOTIFY_RETRY_SCHEDULE: '1h',
          NOTIFY_ENDPOINT_CONCURRENCY: '16',
          NOTIFY_ENDPOINT_INITIAL_LIMIT: String(INITIAL_LIMIT),
        },
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

  it('backs off to one in flight, leaves the rest due and untried, and serves a healthy merchant meanwhile', async () => {
    const deadEvents = Array.from({ length: 12 }, () => payEvent({ notifyUrl: dead.url }));
    for (const event of deadEvents) await bus.publish(event);
    await waitFor(() => dead.hanging() === INITIAL_LIMIT, {
      message: 'the dead endpoint holds its initial limit of callbacks',
    });

    // The healthy merchant's callbacks arrive behind the dead endpoint's and are delivered while it hangs.
    const liveEvents = Array.from({ length: 20 }, () => payEvent({ notifyUrl: live.url }));
    for (const event of liveEvents) await bus.publish(event);
    await waitFor(
      async () => {
        const rows = await Promise.all(liveEvents.map((e) => store.delivery(e.event_id)));
        return rows.every((r) => r?.status === 'succeeded');
      },
      { timeoutMs: 10_000, message: 'every live callback delivered' },
    );
    expect(live.requests).toHaveLength(20);
    const untriedWhenLiveDone = (await Promise.all(deadEvents.map((e) => store.delivery(e.event_id)))).filter(
      (r) => r?.attempt_count === 0,
    ).length;
    expect(untriedWhenLiveDone).toBeGreaterThan(0);

    // The first wave times out together (4 → 2 → 1 → 1 → 1); after it, one probe at a time.
    const finished = await waitFor(
      async () => {
        const { rows } = await sql<{ started: Date; finished: Date }>`
          select a.started_at as started, a.finished_at as finished
          from delivery_attempts a join deliveries d on d.id = a.delivery_id
          where d.endpoint = ${`127.0.0.1:${dead.port}`} and a.outcome = 'failed'
          order by a.started_at`.execute(store.db);
        return rows.length >= INITIAL_LIMIT + 2 ? rows : undefined;
      },
      { timeoutMs: 4 * TIMEOUT_MS + 5_000, message: 'the first wave and two probes timed out' },
    );
    expect(peakHanging).toBe(INITIAL_LIMIT);
    const probes = finished.slice(INITIAL_LIMIT);
    for (let i = 1; i < probes.length; i++) {
      // Each probe starts only once the one before it was recorded: never two at once.
      expect(probes[i]!.started.getTime()).toBeGreaterThanOrEqual(probes[i - 1]!.finished.getTime());
    }
    expect(probes[0]!.started.getTime()).toBeGreaterThanOrEqual(
      Math.max(...finished.slice(0, INITIAL_LIMIT).map((a) => a.finished.getTime())),
    );
    expect(dead.hanging()).toBeLessThanOrEqual(1);

    // Waiting behind the limit spends nothing: every attempt counted is one the endpoint received, and a
    // callback never tried is pending, due, with no attempt and its whole schedule ahead.
    // Read between two probes: one is claimed (counted) a moment before it reaches the endpoint, so the two
    // agree only when no probe is on its way; if attempts were spent without a request they never would.
    const { rows, attempts, received } = await waitFor(
      async () => {
        const received = dead.requests.length;
        const rows = (await Promise.all(deadEvents.map((e) => store.delivery(e.event_id)))).map((r) => r!);
        const attempts = (await Promise.all(rows.map((r) => store.attempts(r.id)))).flat();
        const counted = rows.reduce((sum, r) => sum + r.attempt_count, 0);
        return dead.requests.length === received && counted === received && attempts.length === received
          ? { rows, attempts, received }
          : undefined;
      },
      { message: 'a moment with no probe in flight' },
    );
    expect(rows.reduce((sum, r) => sum + r.attempt_count, 0)).toBe(received);
    expect(attempts).toHaveLength(received);
    const untried = rows.filter((r) => r.attempt_count === 0);
    expect(untried.length).toBeGreaterThan(0);
    for (const r of untried) {
      expect(r.status).toBe('pending');
      expect(r.round_attempts).toBe(0);
      expect(r.next_attempt_at!.getTime()).toBeLessThanOrEqual(Date.now());
    }

    const metrics = await (await fetch(`http://127.0.0.1:${notifier.httpPort}/metrics`)).text();
    expect(metrics).toMatch(/^callback_endpoints_backed_off(\{[^}]*\})? 1$/m);
    expect(metrics).toMatch(/^callback_endpoints_at_limit(\{[^}]*\})? 1$/m);
    const skips = Number(/^callback_limited_skips_total(\{[^}]*\})? (\d+)$/m.exec(metrics)?.[2]);
    expect(skips).toBeGreaterThan(0);
  });
});
