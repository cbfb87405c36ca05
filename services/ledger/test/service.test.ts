import { randomUUID } from 'node:crypto';
import { createDb } from '@agentpay/db';
import { connectNats, statusChangedSubject } from '@agentpay/messaging';
import {
  APP_CODE_METADATA,
  call,
  type LedgerServiceClient,
  loadProtos,
  originMetadata,
} from '@agentpay/proto';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName, waitFor } from '@agentpay/testing';
import * as grpc from '@grpc/grpc-js';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { type Ledger, main } from '../src/main.js';

// The ledger service in-process on a fresh database and a real NATS: events published on JetStream are
// booked once however often they arrive, and the gRPC API answers over the network.

let database: TestDatabase;
let ledger: Ledger;
let client: LedgerServiceClient;
let db: Kysely<Database>;
let nc: NatsConnection;
const prefix = uniqueName('t_ledger');
const stream = prefix.toUpperCase();

beforeAll(async () => {
  database = await createTestDatabase('ledger_service');
  nc = await connectNats(await natsUrl(), { name: 'ledger-test' });
  ledger = await main({
    DATABASE_URL: database.url,
    NATS_URL: await natsUrl(),
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `${prefix}.events`,
    LEDGER_CONSUMER: `${prefix}_ledger`,
    SETTLEMENT_SWEEP_INTERVAL_MS: '0',
    LOG_LEVEL: 'silent',
  });
  client = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${ledger.grpcPort}`,
    grpc.credentials.createInsecure(),
  );
  db = createDb<Database>(database.url, { poolSize: 2 });
});

afterAll(async () => {
  client?.close();
  await ledger?.stop();
  await nc?.close();
  await db?.destroy();
  await database?.drop();
});

/** Publishes an event as a producer's outbox relay would; a fresh msgID, so JetStream keeps repeats. */
async function publish(kind: 'pay' | 'transfer', payload: Record<string, unknown>): Promise<void> {
  await jetstream(nc).publish(statusChangedSubject(`${prefix}.events`, kind), JSON.stringify(payload), {
    msgID: randomUUID(),
  });
}

function payEvent(mchNo: string, orderNo: string, toStatus: string) {
  return {
    event_id: randomUUID(),
    mch_no: mchNo,
    app_id: 'A1',
    kind: 'pay',
    order_no: orderNo,
    from_status: 'wait',
    to_status: toStatus,
    version: '2',
    occurred_at: new Date().toISOString(),
    pay_order: {
      order_no: orderNo,
      biz_order_no: `B-${orderNo}`,
      mch_no: mchNo,
      amount: '10000',
      fee: '300',
      real_amount: '9700',
      status: toStatus,
      settle_type: 'REALTIME',
      pay_time: new Date().toISOString(),
    },
  };
}

function transferEvent(mchNo: string, transferNo: string, from: string, to: string) {
  return {
    event_id: randomUUID(),
    mch_no: mchNo,
    kind: 'transfer',
    order_no: transferNo,
    from_status: from,
    to_status: to,
    version: '2',
    occurred_at: new Date().toISOString(),
    transfer: {
      transfer_no: transferNo,
      biz_transfer_no: `B-${transferNo}`,
      mch_no: mchNo,
      amount: '1000',
      fee: '50',
    },
  };
}

async function entryKeys(mchNo: string): Promise<string[]> {
  const rows = await db
    .selectFrom('entries')
    .select('key')
    .where('mch_no', '=', mchNo)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.key);
}

describe('events from JetStream', () => {
  it('a pay order reaching success is booked once, however often the event is delivered', async () => {
    const event = payEvent('MEV1', 'P-EV-1', 'success');
    await publish('pay', event);
    await publish('pay', event);
    await publish('pay', payEvent('MEV1', 'P-EV-2', 'close'));
    await waitFor(async () => (await entryKeys('MEV1')).length > 0, { message: 'pay-in booked' });
    // The close event comes after both copies: once it is acked, both copies were handled.
    await waitFor(
      async () => {
        const info = await (await jetstream(nc).consumers.get(stream, `${prefix}_ledger`)).info();
        return info.num_ack_pending === 0 && info.num_pending === 0;
      },
      { message: 'every event acked' },
    );
    expect(await entryKeys('MEV1')).toEqual(['pay_in:P-EV-1']);
    const balance = await call(client, client.GetBalance, { mch_no: 'MEV1' });
    expect(balance).toMatchObject({ available: '9700', pending: '0', frozen: '0' });
    // REALTIME: settled at once, and the outbox relay published the OrderSettled event.
    const settled = await waitFor(
      async () =>
        (
          await db
            .selectFrom('outbox')
            .selectAll()
            .where('subject', '=', `${prefix}.events.ledger.order_settled`)
            .execute()
        ).find((row) => row.published_at !== null),
      { message: 'OrderSettled published' },
    );
    expect(settled.payload).toMatchObject({ mch_no: 'MEV1', order_no: 'P-EV-1', settle_type: 'REALTIME' });
  });

  it('transfer outcomes release, move out and return a freeze made over gRPC; an outcome with no freeze is parked', async () => {
    await call(client, client.Adjust, { mch_no: 'MEV2', amount: '5000', reason: 'opening', reference: 'o' });
    for (const transferNo of ['T-F', 'T-S']) {
      const frozen = await call(client, client.Freeze, {
        mch_no: 'MEV2',
        transfer_no: transferNo,
        biz_transfer_no: `B-${transferNo}`,
        amount: '1000',
        fee: '50',
      });
      expect(frozen.created).toBe(true);
    }
    await publish('transfer', transferEvent('MEV2', 'T-F', 'progress', 'fail'));
    // Returned by the bank, delivered before its success: the move out is booked first.
    await publish('transfer', transferEvent('MEV2', 'T-S', 'success', 'close'));
    await publish('transfer', transferEvent('MEV2', 'T-S', 'progress', 'success'));
    await publish('transfer', transferEvent('MEV2', 'T-NONE', 'progress', 'success'));
    await waitFor(async () => (await db.selectFrom('unmatched_events').selectAll().execute()).length === 1, {
      message: 'unmatched outcome parked',
    });
    await waitFor(async () => (await entryKeys('MEV2')).length === 6, { message: 'outcomes booked' });
    const keys = await entryKeys('MEV2');
    expect([...keys].sort()).toEqual([
      'adjust:MEV2:o',
      'freeze:T-F',
      'freeze:T-S',
      'transfer_out:T-S',
      'transfer_return:T-S',
      'unfreeze:T-F',
    ]);
    expect(keys.indexOf('transfer_out:T-S')).toBeLessThan(keys.indexOf('transfer_return:T-S'));
    // 5000 - 1050 (out) + 1000 (returned); the fee is kept.
    expect(await call(client, client.GetBalance, { mch_no: 'MEV2' })).toMatchObject({
      available: '4950',
      pending: '0',
      frozen: '0',
    });
  });
});

describe('events that cannot be booked', () => {
  it('a pay event whose figures do not add up is parked and acked; the events around it are booked', async () => {
    const bad = payEvent('MEV3', 'P-BAD', 'success');
    bad.pay_order.real_amount = '1';
    await publish('pay', payEvent('MEV3', 'P-OK-1', 'success'));
    await publish('pay', bad);
    await publish('pay', payEvent('MEV3', 'P-OK-2', 'success'));
    await waitFor(async () => (await entryKeys('MEV3')).length === 2, { message: 'good pay-ins booked' });
    const parked = await waitFor(
      async () =>
        db.selectFrom('unmatched_events').selectAll().where('event_id', '=', bad.event_id).executeTakeFirst(),
      { message: 'bad event parked' },
    );
    expect(parked.reason).toMatch(/real_amount \+ fee must equal amount/);
    // Batches are booked concurrently: keys, not arrival order, keep them apart.
    expect((await entryKeys('MEV3')).sort()).toEqual(['pay_in:P-OK-1', 'pay_in:P-OK-2']);
  });
});

describe('gRPC', () => {
  it('Freeze beyond available answers FAILED_PRECONDITION with INSUFFICIENT_BALANCE (40006) and books nothing', async () => {
    const raw = await new Promise<grpc.ServiceError>((resolve, reject) =>
      client.Freeze(
        { mch_no: 'MPOOR', transfer_no: 'T-POOR', amount: '1', fee: '0' },
        (err: grpc.ServiceError | null) => (err ? resolve(err) : reject(new Error('expected a refusal'))),
      ),
    );
    expect(raw.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(raw.metadata.get(APP_CODE_METADATA)).toEqual(['INSUFFICIENT_BALANCE']);
    await expect(
      call(client, client.Freeze, { mch_no: 'MPOOR', transfer_no: 'T-POOR', amount: '1', fee: '0' }),
    ).rejects.toMatchObject({
      codeName: 'INSUFFICIENT_BALANCE',
      code: 40006,
    });
    expect(await entryKeys('MPOOR')).toEqual([]);
  });

  it('VoidFreeze tombstones a transfer number; Freeze of it is then refused as a duplicate transfer', async () => {
    await call(client, client.Adjust, { mch_no: 'MVOID', amount: '100', reason: 'opening', reference: 'o' });
    expect(await call(client, client.VoidFreeze, { mch_no: 'MVOID', transfer_no: 'T-V' })).toEqual({
      released: false,
      hold_status: 'void',
    });
    await expect(
      call(client, client.Freeze, { mch_no: 'MVOID', transfer_no: 'T-V', amount: '10', fee: '0' }),
    ).rejects.toMatchObject({
      codeName: 'DUPLICATE_TRANSFER',
    });
  });

  it('Adjust refuses a debit beyond available; ListRecords pages the statement; RunSettlement and Check answer', async () => {
    await expect(
      call(client, client.Adjust, { mch_no: 'MREC', amount: '-1', reason: 'x', reference: 'debit' }),
    ).rejects.toMatchObject({ codeName: 'INSUFFICIENT_BALANCE' });
    for (let i = 0; i < 5; i++) {
      await call(client, client.Adjust, {
        mch_no: 'MREC',
        amount: String(100 + i),
        reason: `r${i}`,
        reference: `ref${i}`,
      });
    }
    const window = {
      start_time: new Date(Date.now() - 3_600_000).toISOString(),
      end_time: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const first = await call(client, client.ListRecords, { mch_no: 'MREC', ...window, limit: 3, cursor: '' });
    expect(first.records.map((r) => r.amount)).toEqual(['100', '101', '102']);
    expect(first.records[2]).toMatchObject({
      type: 'adjust',
      available_change: '102',
      available_balance: '303',
      remark: 'r2',
    });
    expect(first.next_cursor).not.toBe('');
    const second = await call(client, client.ListRecords, {
      mch_no: 'MREC',
      ...window,
      limit: 3,
      cursor: first.next_cursor,
    });
    expect(second.records.map((r) => r.amount)).toEqual(['103', '104']);
    expect(second.next_cursor).toBe('');
    await expect(
      call(client, client.ListRecords, { mch_no: 'MREC', ...window, limit: 501, cursor: '' }),
    ).rejects.toMatchObject({ codeName: 'INVALID_PARAMETER' });

    expect(await call(client, client.RunSettlement, { until: '' })).toEqual({ settled: 0 });
    const metrics = await (await fetch(`http://127.0.0.1:${ledger.metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/ledger_bookings_total\{type="adjust",outcome="insufficient_balance"[^}]*\} 1/);
    expect(metrics).toContain('ledger_batch_size_bucket');
    const check = await call(client, client.Check, {});
    // The books are sound; what differs from the orders is exactly the two events parked above (money the
    // ledger could not book is named until an operator acts).
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual([
      'successful pay order without exactly one pay-in of its amount: P-BAD (0 pay-in entries, amount 10000)',
      "transfer's entries do not match its status: T-NONE (success: no entries)",
    ]);
    expect(Number(check.entries)).toBeGreaterThan(10);
  });
});

describe('who adjusts', () => {
  it('records the person and the approval the call names beside the entry, once, and nobody for a refusal', async () => {
    const metadata = originMetadata({
      actor: { id: 'user:bea', label: 'bea@ops.example', roles: ['admin'] },
      approvalId: 'apr_adjust_1',
    });
    const adjust = { mch_no: 'MWHO', amount: '2500', reason: 'goodwill', reference: 'who-1' };
    const first = await call(client, client.Adjust, adjust, { metadata });
    expect(first.created).toBe(true);
    // The same approval carried out again (a restart between the booking and its answer) books nothing.
    const again = await call(client, client.Adjust, adjust, {
      metadata: originMetadata({ actor: { id: 'user:carl', label: 'carl@ops.example', roles: [] } }),
    });
    expect(again).toMatchObject({ created: false, record: { record_no: first.record?.record_no } });
    expect(
      await db.selectFrom('entry_origins').selectAll().where('entry_key', '=', 'adjust:MWHO:who-1').execute(),
    ).toEqual([
      expect.objectContaining({
        actor_id: 'user:bea',
        actor_label: 'bea@ops.example',
        approval_id: 'apr_adjust_1',
      }),
    ]);
    await expect(
      call(
        client,
        client.Adjust,
        { mch_no: 'MWHO', amount: '-999999', reason: 'x', reference: 'who-2' },
        { metadata },
      ),
    ).rejects.toMatchObject({ codeName: 'INSUFFICIENT_BALANCE' });
    expect(
      await db
        .selectFrom('entry_origins')
        .select('entry_key')
        .where('entry_key', '=', 'adjust:MWHO:who-2')
        .execute(),
    ).toEqual([]);
  });
});
