import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, migrateToLatest } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { createRegistry } from '@agentpay/telemetry';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName, waitFor } from '@agentpay/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectNats,
  createOutboxTable,
  ensureStream,
  type OutboxEvent,
  type OutboxRelay,
  type OutboxRelayOptions,
  type OutboxTable,
  startOutboxRelay,
} from './index.js';
import { enqueueOutbox } from './outbox.js';

interface Database {
  outbox: OutboxTable;
}

const logger = createLogger({ service: 'outbox-test', level: process.env.LOG_LEVEL ?? 'silent' });
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let database: TestDatabase;
let db: Kysely<Database>;
let nc: NatsConnection;
const relays: OutboxRelay[] = [];
const streams: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase('outbox');
  db = createDb<Database>(database.url);
  await migrateToLatest(db, { '20260101T0000_outbox': { up: createOutboxTable } });
  nc = await connectNats(await natsUrl(), { name: 'outbox-test' });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  await db.deleteFrom('outbox').execute();
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  for (const name of streams) await jsm.streams.delete(name).catch(() => {});
  await nc.close();
  await db.destroy();
  await database.drop();
});

function startRelay(overrides: Partial<OutboxRelayOptions> = {}): OutboxRelay {
  const relay = startOutboxRelay({
    db,
    databaseUrl: database.url,
    nc,
    logger,
    pollIntervalMs: 100,
    ...overrides,
  });
  relays.push(relay);
  return relay;
}

/** A stream of its own per test, so tests never see each other's events. */
async function newStream(create = true): Promise<{ name: string; subject: (event: string) => string }> {
  const name = uniqueName('OUTBOX');
  streams.push(name);
  if (create) await ensureStream(nc, { name, subjects: [`${name}.>`] });
  return { name, subject: (event) => `${name}.${event}` };
}

async function stored(stream: string) {
  const jsm = await jetstreamManager(nc);
  const { state } = await jsm.streams.info(stream);
  const messages = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(stream, { seq });
    if (!m) continue;
    messages.push({
      subject: m.subject,
      id: m.header.get('Nats-Msg-Id'),
      traceparent: m.header.get('traceparent') || undefined,
      payload: m.json<unknown>(),
    });
  }
  return messages;
}

/** Every message published on the stream's subjects, duplicates included (JetStream dedupe is storage only). */
async function watch(stream: string): Promise<string[]> {
  const ids: string[] = [];
  const sub = nc.subscribe(`${stream}.>`);
  void (async () => {
    for await (const m of sub) ids.push(m.headers?.get('Nats-Msg-Id') ?? '?');
  })();
  await nc.flush();
  return ids;
}

function commit(...events: OutboxEvent[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (const event of events) ids.push(await enqueueOutbox(trx, event));
    return ids;
  });
}

const unpublished = async () =>
  Number(
    (
      await db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('published_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('enqueueOutbox', () => {
  it('only accepts a transaction, so the event always commits or rolls back with the state change', () => {
    const misuse = (plain: Kysely<Database>) =>
      // @ts-expect-error a plain Kysely instance is not a Transaction
      enqueueOutbox(plain, { subject: 'x', payload: {} });
    expect(typeof misuse).toBe('function');
  });

  it('publishes nothing for a transaction that rolls back', async () => {
    const { name, subject } = await newStream();
    await db
      .transaction()
      .execute(async (trx) => {
        await enqueueOutbox(trx, { subject: subject('rolled_back'), payload: { n: 1 } });
        throw new Error('the state change failed');
      })
      .catch(() => {});
    const [marker] = await commit({ subject: subject('committed'), payload: { n: 2 } });
    startRelay();

    // The marker was enqueued after the rolled-back event, so once it is out the other would be too.
    await waitFor(async () => (await stored(name)).length > 0, { message: 'marker event never published' });
    expect((await stored(name)).map((m) => m.id)).toEqual([marker]);
    expect(await db.selectFrom('outbox').select('id').execute()).toEqual([{ id: marker }]);
  });
});

describe('startOutboxRelay', () => {
  it('publishes committed rows once, in order, with the row id as msg id and the row headers', async () => {
    const { name, subject } = await newStream();
    const seen = await watch(name);
    const chosenId = '0b0b7a6e-9a55-4c1c-9e65-6d0d1f1b2c3d';
    const ids = await commit(
      {
        subject: subject('order.created'),
        payload: { order: 'A1', amount: 12345 },
        headers: { traceparent: TRACEPARENT },
      },
      { subject: subject('order.paid'), payload: [1, 2, 3] },
      { id: chosenId, subject: subject('order.created'), payload: 'plain string' },
    );
    expect(ids[2]).toBe(chosenId);
    const registry = createRegistry('relay-test');
    startRelay({ registry });

    await waitFor(async () => (await unpublished()) === 0, { message: 'rows never marked published' });
    expect(await stored(name)).toEqual([
      {
        subject: subject('order.created'),
        id: ids[0],
        traceparent: TRACEPARENT,
        payload: { order: 'A1', amount: 12345 },
      },
      { subject: subject('order.paid'), id: ids[1], traceparent: undefined, payload: [1, 2, 3] },
      { subject: subject('order.created'), id: chosenId, traceparent: undefined, payload: 'plain string' },
    ]);
    await nc.flush();
    expect(seen).toEqual(ids);
    const rows = await db.selectFrom('outbox').select(['published_at', 'attempts']).execute();
    expect(rows.every((r) => r.published_at instanceof Date && r.attempts === 0)).toBe(true);
    const metrics = await registry.metrics();
    expect(metrics).toContain('outbox_published_total{service="relay-test"} 3');
    expect(metrics).toContain('outbox_lag_seconds_count{service="relay-test"} 3');
  });

  it('relies on the msg id so a re-publish after a crash is not stored twice', async () => {
    const { name, subject } = await newStream();
    const seen = await watch(name);
    const [id] = await commit({ subject: subject('order.created'), payload: { n: 1 } });
    const relay = startRelay();
    await waitFor(async () => (await unpublished()) === 0);

    // As if a relay published and then died before its commit: the row is unpublished again.
    await db.updateTable('outbox').set({ published_at: null }).where('id', '=', id!).execute();
    relay.kick();
    await waitFor(async () => (await unpublished()) === 0);
    await nc.flush();
    expect(seen).toEqual([id, id]);
    expect((await stored(name)).map((m) => m.id)).toEqual([id]);
  });

  it('lets two relays share one table and still publishes every row exactly once', async () => {
    const { name, subject } = await newStream();
    const seen = await watch(name);
    const ids: string[] = [];
    for (let t = 0; t < 30; t++) {
      const events = Array.from({ length: 10 }, (_, i) => ({
        subject: subject(`e${i % 3}`),
        payload: { t, i },
      }));
      ids.push(...(await commit(...events)));
    }
    startRelay({ batchSize: 7 });
    startRelay({ batchSize: 7 });

    await waitFor(async () => (await unpublished()) === 0, {
      timeoutMs: 20_000,
      message: 'rows left unpublished',
    });
    await nc.flush();
    expect(seen).toHaveLength(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(await stored(name)).toHaveLength(ids.length);
  });

  it('keeps failed rows, in order, and resumes once publishing works (stream missing at first)', async () => {
    const { name, subject } = await newStream(false);
    const ids = await commit(
      { subject: subject('a'), payload: { n: 1 } },
      { subject: subject('b'), payload: { n: 2 } },
      { subject: subject('a'), payload: { n: 3 } },
    );
    startRelay();

    const first = await waitFor(
      async () => {
        const row = await db
          .selectFrom('outbox')
          .selectAll()
          .where('id', '=', ids[0]!)
          .executeTakeFirstOrThrow();
        return row.attempts >= 1 && row;
      },
      { message: 'publish failure never recorded' },
    );
    expect(first.last_error).toBeTruthy();
    expect(first.published_at).toBeNull();
    // The batch stopped at the failure: the later rows were not tried, so they cannot overtake it.
    const later = await db
      .selectFrom('outbox')
      .select('attempts')
      .where('id', 'in', [ids[1]!, ids[2]!])
      .execute();
    expect(later.map((r) => r.attempts)).toEqual([0, 0]);
    expect(await unpublished()).toBe(3);

    await ensureStream(nc, { name, subjects: [`${name}.>`] });
    await waitFor(async () => (await unpublished()) === 0, {
      timeoutMs: 15_000,
      message: 'relay never resumed',
    });
    expect((await stored(name)).map((m) => m.id)).toEqual(ids);
  });

  it('wakes on NOTIFY long before its poll, and again after its LISTEN connection is killed', async () => {
    const { name, subject } = await newStream();
    const listenerPid = async () => {
      const { rows } = await sql<{ pid: number }>`
        select pid from pg_stat_activity
        where datname = current_database() and application_name = 'agentpay-outbox-listener'
          and state = 'idle' and query ilike 'listen%'`.execute(db);
      return rows.length === 1 ? rows[0]!.pid : undefined;
    };
    await waitFor(async () => (await listenerPid()) === undefined, {
      message: 'an earlier listener lingers',
    });
    // With a 10 s poll, only NOTIFY can deliver within the 5 s the waits below allow.
    startRelay({ pollIntervalMs: 10_000 });
    const firstPid = await waitFor(listenerPid, { message: 'relay never started listening' });
    // Every (re)connect of the LISTEN connection runs one catch-up batch, which would publish a row without
    // any NOTIFY. A sentinel row goes out first, by that batch or by its own NOTIFY; once it is in the
    // stream, only a NOTIFY can publish the next row before the 10 s poll.
    const sentinel = async (count: number) => {
      await commit({ subject: subject('sentinel'), payload: {} });
      await waitFor(async () => (await stored(name)).length === count, { message: 'the sentinel' });
    };
    await sentinel(1);

    const [first] = await commit({ subject: subject('first'), payload: {} });
    await waitFor(async () => (await stored(name)).length === 2, {
      timeoutMs: 5_000,
      message: 'NOTIFY ignored',
    });
    expect((await stored(name))[1]?.id).toBe(first);

    await sql`select pg_terminate_backend(${firstPid})`.execute(db);
    await waitFor(
      async () => {
        const pid = await listenerPid();
        return pid !== undefined && pid !== firstPid;
      },
      { message: 'LISTEN connection never re-established' },
    );
    await sentinel(3);
    const [second] = await commit({ subject: subject('second'), payload: {} });
    await waitFor(async () => (await stored(name)).length === 4, {
      timeoutMs: 5_000,
      message: 'NOTIFY ignored after reconnect',
    });
    expect((await stored(name))[3]?.id).toBe(second);
  });

  it('stop() lets the batch in flight finish and then publishes nothing more', async () => {
    const { name, subject } = await newStream();
    await commit(...Array.from({ length: 50 }, (_, i) => ({ subject: subject('e'), payload: { i } })));
    const relay = startRelay({ batchSize: 10 });
    await waitFor(async () => (await stored(name)).length > 0);
    await relay.stop();
    // Whatever was published is marked as such: nothing went out without its commit.
    const published = (await stored(name)).length;
    expect(50 - (await unpublished())).toBe(published);
    await commit({ subject: subject('after'), payload: {} });
    // A stopped relay has nothing left that could publish; the pause gives one that still ran (a timer or
    // a NOTIFY handler left behind) the time to show itself. Absence cannot be waited for.
    await sleep(300);
    expect(await stored(name)).toHaveLength(published);
  });
});
