import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb } from '@agentpay/db';
import {
  ackedThrough,
  connectNats,
  type NatsConnection,
  noticeSubject,
  publishEvent,
} from '@agentpay/messaging';
import {
  type CreatePayOrderRequest,
  call,
  loadProtos,
  type NoticeReceived,
  type OrderSettled,
  type OrderStatusChanged__Output,
  type PaymentNotice,
  type PaymentServiceClient,
} from '@agentpay/proto';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName, waitFor } from '@agentpay/testing';
import { AppError, formatWireTime } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { main, type Payments } from '../src/main.js';
import { isAllowed, isPayStatus, TRANSITIONS } from '../src/pay-orders/pay-order.state-machine.js';
import { type FakeRouter, startFakeRouter } from './support/fake-router.js';

// The payments service in-process on a fresh Postgres database and a real NATS, its gRPC API called
// over the network, and a fake upstream router (test/support/fake-router.ts).

const TIME_ZONE = 'America/Mexico_City';
let database: TestDatabase;
let router: FakeRouter;
let payments: Payments;
let client: PaymentServiceClient;
let db: ReturnType<typeof createDb<Database>>;
let nc: NatsConnection;
const prefix = uniqueName('t_pay');
const stream = prefix.toUpperCase();
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase('payments_it');
  router = await startFakeRouter();
  nc = await connectNats(await natsUrl(), { name: 'payments-test' });
  env = {
    DATABASE_URL: database.url,
    NATS_URL: await natsUrl(),
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    ROUTER_ADDR: router.address,
    ROUTER_TIMEOUT_MS: '5000',
    CREATE_LEASE_MS: '10000',
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `${prefix}.events`,
    EXPIRY_SWEEP_INTERVAL_MS: '0',
    NOTICE_RETRY_DELAY_MS: '50',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  };
  payments = await main(env);
  client = new (loadProtos().agentpay.payments.v1.PaymentService)(
    `127.0.0.1:${payments.grpcPort}`,
    grpc.credentials.createInsecure(),
  );
  db = createDb<Database>(database.url, { poolSize: 3 });
});

afterAll(async () => {
  client?.close();
  await payments?.stop();
  await router?.stop();
  await nc?.close();
  await db?.destroy();
  await database?.drop();
});

const merchantOf = (mchNo: string) => ({
  mch_no: mchNo,
  app_id: 'app1',
  fee_percent_bps: 250,
  fee_fixed_centavos: 300,
  settle_type: 'D+2',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
});

const MCH = `M${randomBytes(4).toString('hex')}`;
const biz = () => `B${randomBytes(6).toString('hex')}`;

function payRequest(overrides: Partial<CreatePayOrderRequest> = {}): CreatePayOrderRequest {
  return {
    merchant: merchantOf(MCH),
    biz_order_no: biz(),
    title: 'Order',
    method: 'mex_virtual_account',
    amount: 10_050,
    notify_url: 'http://127.0.0.1:9/notify',
    attach: 'a1',
    ...overrides,
  };
}

const create = (request: CreatePayOrderRequest) => call(client, client.CreatePayOrder, request);
const get = (orderNo: string, mchNo = MCH) =>
  call(client, client.GetPayOrder, { merchant: merchantOf(mchNo), order_no: orderNo });
const close = (orderNo: string, useCancel = false) =>
  call(client, client.ClosePayOrder, {
    ref: { merchant: merchantOf(MCH), order_no: orderNo },
    use_cancel: useCancel,
  });
const sync = (orderNo: string) =>
  call(client, client.SyncPayOrder, { merchant: merchantOf(MCH), order_no: orderNo });
/** Publishes a payment notice as the router does, under a new event id. Answers its stream sequence. */
function publishNotice(payment: PaymentNotice, noticeId = randomBytes(4).toString('hex')): Promise<number> {
  const event: NoticeReceived & { event_id: string } = {
    event_id: randomUUID(),
    notice_id: noticeId,
    received_at: new Date().toISOString(),
    traceparent: '',
    notice: 'payment',
    payment,
  };
  return publishEvent(nc, noticeSubject(`${prefix}.events`, 'payment'), event);
}

/** Waits until payments has applied (or dropped) everything published up to `seq`. */
async function consumed(seq: number): Promise<void> {
  await waitFor(async () => (await ackedThrough(nc, stream, 'payments-notices')) >= seq, {
    message: `notice ${seq} applied`,
  });
}

/** The deposit the fake router holds for the order, delivered as a notice; resolves once applied. */
async function applyPaid(orderNo: string, noticeId?: string): Promise<void> {
  const account = router.accounts.get(orderNo);
  await consumed(
    await publishNotice(
      {
        order_no: orderNo,
        status: 'success',
        paid_amount: account?.paidAmount ?? 0,
        paid_at: account?.paidAt ?? '',
        clave_rastreo: account?.claveRastreo ?? '',
      },
      noticeId,
    ),
  );
}

/** notices_dropped_total for one reason, from GET /metrics. */
async function dropped(reason: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${payments.metricsPort}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('notices_dropped_total{') && l.includes(`reason="${reason}"`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

async function createdOrder(overrides: Partial<CreatePayOrderRequest> = {}) {
  const { order } = await create(payRequest(overrides));
  if (!order) throw new Error('no order');
  return order;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'SUCCESS';
  } catch (err) {
    if (err instanceof AppError) return err.codeName;
    throw err;
  }
}

async function eventsOf(orderNo: string): Promise<OrderStatusChanged__Output[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['payload', 'subject'])
    .where(sql<string>`payload->>'order_no'`, '=', orderNo)
    .orderBy('seq')
    .execute();
  for (const row of rows) expect(row.subject).toBe(`${prefix}.events.pay.status_changed`);
  return rows.map((r) => r.payload as OrderStatusChanged__Output);
}

async function historyOf(orderNo: string) {
  return db
    .selectFrom('pay_order_status_history')
    .selectAll()
    .where('order_no', '=', orderNo)
    .orderBy('version')
    .execute();
}

/** The history is a chain from `wait` along allowed edges, one version and one event per change. */
async function expectConsistentHistory(orderNo: string): Promise<string[]> {
  const history = await historyOf(orderNo);
  const events = await eventsOf(orderNo);
  let status = 'wait';
  let version = 1;
  for (const entry of history) {
    expect(entry.from_status).toBe(status);
    expect(isPayStatus(entry.from_status) && isPayStatus(entry.to_status)).toBe(true);
    if (isPayStatus(entry.from_status) && isPayStatus(entry.to_status)) {
      expect(isAllowed(entry.from_status, entry.to_status, entry.cause as 'merchant')).toBe(true);
    }
    expect(entry.version).toBe(version + 1);
    status = entry.to_status;
    version = entry.version;
  }
  expect(events.map((e) => [e.from_status, e.to_status, e.version, e.event_id])).toEqual(
    history.map((h) => [h.from_status, h.to_status, String(h.version), h.event_id]),
  );
  const current = await get(orderNo);
  expect(current.status).toBe(status);
  expect(current.version).toBe(String(version));
  return history.map((h) => `${h.from_status}->${h.to_status}`);
}

describe('CreatePayOrder', () => {
  it('creates a wait order with fee, settlement fields and a payBody, and emits no event', async () => {
    const expired = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    const order = await createdOrder({ amount: 10_050, expired_time: expired.toISOString() });
    expect(order.order_no).toMatch(/^P\d{14}\d{12}$/);
    expect(order).toMatchObject({
      status: 'wait',
      mch_no: MCH,
      app_id: 'app1',
      amount: '10050',
      // 2.5 % of 100.50 = 2.5125 → 251 centavos, plus 3.00 fixed
      fee: '551',
      real_amount: '9499',
      settle_status: 'not_settle',
      settle_type: 'D+2',
      expired_time: expired.toISOString(),
      pay_time: '',
      version: '1',
    });
    expect(JSON.parse(order.pay_body)).toEqual({
      clabe: expect.stringMatching(/^\d{18}$/),
      bankCode: '90646',
      bankName: 'STP',
      beneficiaryName: 'Agentpay Test',
      amount: 100.5,
      expiredTime: formatWireTime(expired, TIME_ZONE),
      reference: expect.any(String),
    });
    expect(Object.keys(JSON.parse(order.pay_body))).toEqual([
      'clabe',
      'bankCode',
      'bankName',
      'beneficiaryName',
      'amount',
      'expiredTime',
      'reference',
    ]);
    expect(await eventsOf(order.order_no)).toEqual([]);
  });

  it('defaults expiredTime to 24 hours after creation', async () => {
    const order = await createdOrder();
    const hours = (Date.parse(order.expired_time) - Date.parse(order.created_at)) / 3_600_000;
    expect(hours).toBe(24);
  });

  it('numbers orders so that later orders sort after earlier ones', async () => {
    const first = await createdOrder();
    const second = await createdOrder();
    expect(second.order_no > first.order_no).toBe(true);
  });

  it('answers an identical repeat with the same order and no second upstream call', async () => {
    const request = payRequest();
    const first = await create(request);
    const again = await create({ ...request, merchant: { ...merchantOf(MCH), app_id: 'other-app' } });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.order).toEqual(first.order);
    expect(router.createCalls.get(first.order!.order_no)).toBe(1);
  });

  it('answers a repeat with its order even after the expiredTime it names has passed', async () => {
    const request = payRequest({ expired_time: new Date(Date.now() + 1_500).toISOString() });
    const first = await create(request);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const again = await create(request);
    expect(again).toEqual({ order: first.order, created: false });
  });

  it('refuses the same bizOrderNo with other parameters as DUPLICATE_ORDER', async () => {
    const request = payRequest();
    await create(request);
    expect(await codeOf(create({ ...request, amount: 10_051 }))).toBe('DUPLICATE_ORDER');
    expect(await codeOf(create({ ...request, attach: 'other' }))).toBe('DUPLICATE_ORDER');
  });

  it('keeps orders of different merchants with the same bizOrderNo apart', async () => {
    const request = payRequest();
    const mine = await create(request);
    const theirs = await create({ ...request, merchant: merchantOf(`${MCH}x`) });
    expect(theirs.order!.order_no).not.toBe(mine.order!.order_no);
  });

  it('creates exactly one order and one upstream call for 10 concurrent identical requests', async () => {
    router.createDelayMs = 200;
    try {
      const request = payRequest();
      const before = router.totalCreateCalls();
      const results = await Promise.all(Array.from({ length: 10 }, () => create(request)));
      expect(new Set(results.map((r) => r.order!.order_no)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(router.totalCreateCalls() - before).toBe(1);
      const rows = await db
        .selectFrom('pay_orders')
        .select('order_no')
        .where('biz_order_no', '=', request.biz_order_no!)
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      router.createDelayMs = 0;
    }
  });

  it('passes the router refusal through and leaves nothing behind, so a retry can succeed', async () => {
    const request = payRequest({ method: 'no_such_method' });
    expect(await codeOf(create(request))).toBe('PAY_METHOD_NOT_AVAILABLE');
    router.failNextCreate = new AppError('UPSTREAM_UNAVAILABLE');
    const retry = { ...request, method: 'mex_virtual_account' };
    expect(await codeOf(create(retry))).toBe('UPSTREAM_UNAVAILABLE');
    const rows = await db
      .selectFrom('pay_orders')
      .select('order_no')
      .where('biz_order_no', '=', request.biz_order_no!)
      .execute();
    expect(rows).toEqual([]);
    const { order, created } = await create(retry);
    expect(created).toBe(true);
    expect(order!.status).toBe('wait');
  });

  it('lets a repeat take over an opening whose owner died, and the sweep remove one nobody retried', async () => {
    // Simulates a crash between the insert and the upstream answer: the row is still being opened
    // and its owner's lease has run out.
    const abandon = (orderNo: string, agoSeconds: number) =>
      db
        .updateTable('pay_orders')
        .set({
          opened_at: null,
          create_claim: randomUUID(),
          create_claim_until: sql<Date>`now() - make_interval(secs => ${agoSeconds})`,
        })
        .where('order_no', '=', orderNo)
        .execute();
    const request = payRequest();
    const first = await createdOrder(request);
    await abandon(first.order_no, 1);
    expect(await codeOf(get(first.order_no))).toBe('ORDER_NOT_FOUND');
    const retried = await create(request);
    expect(retried).toMatchObject({ created: true, order: { order_no: first.order_no, status: 'wait' } });
    expect(router.createCalls.get(first.order_no)).toBe(2);

    const forgotten = await createdOrder();
    await abandon(forgotten.order_no, 11);
    await payments.sweepExpired();
    const rows = await db
      .selectFrom('pay_orders')
      .select('order_no')
      .where('order_no', '=', forgotten.order_no)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses an expiredTime in the past or more than 30 days ahead, naming the field', async () => {
    const past = create(payRequest({ expired_time: new Date(Date.now() - 1_000).toISOString() }));
    await expect(past).rejects.toMatchObject({
      codeName: 'INVALID_PARAMETER',
      detail: expect.stringContaining('expiredTime'),
    });
    const far = create(payRequest({ expired_time: new Date(Date.now() + 31 * 86_400_000).toISOString() }));
    await expect(far).rejects.toMatchObject({
      codeName: 'INVALID_PARAMETER',
      detail: expect.stringContaining('expiredTime'),
    });
  });
});

describe('GetPayOrder', () => {
  it('finds an order by either identifier or both, and only for its merchant', async () => {
    const order = await createdOrder();
    const ref = { merchant: merchantOf(MCH) };
    expect(await call(client, client.GetPayOrder, { ...ref, order_no: order.order_no })).toEqual(order);
    expect(await call(client, client.GetPayOrder, { ...ref, biz_order_no: order.biz_order_no })).toEqual(
      order,
    );
    expect(
      await call(client, client.GetPayOrder, {
        ...ref,
        order_no: order.order_no,
        biz_order_no: order.biz_order_no,
      }),
    ).toEqual(order);
    const other = await createdOrder();
    expect(
      await codeOf(
        call(client, client.GetPayOrder, {
          ...ref,
          order_no: order.order_no,
          biz_order_no: other.biz_order_no,
        }),
      ),
    ).toBe('ORDER_NOT_FOUND');
    expect(await codeOf(get(order.order_no, `${MCH}x`))).toBe('ORDER_NOT_FOUND');
  });
});

describe('LocatePayOrder (operators)', () => {
  it('finds an order by its number alone, naming its merchant, and answers ORDER_NOT_FOUND for no order', async () => {
    const order = await createdOrder();
    const located = await call(client, client.LocatePayOrder, { order_no: order.order_no });
    expect(located).toEqual(order);
    expect(located.mch_no).toBe(MCH);
    expect(await codeOf(call(client, client.LocatePayOrder, { order_no: `${order.order_no}9` }))).toBe(
      'ORDER_NOT_FOUND',
    );
  });
});

describe('upstream payment notices', () => {
  it('moves wait to success once, however often the notice comes', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    await applyPaid(order.order_no, 'n1');
    const paid = await get(order.order_no);
    await applyPaid(order.order_no, 'n1');
    expect(paid).toMatchObject({ status: 'success', version: '2' });
    expect(paid.pay_time).toBe(router.accounts.get(order.order_no)!.paidAt);
    expect(await get(order.order_no)).toEqual(paid);
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
    const [event] = await eventsOf(order.order_no);
    expect(event).toMatchObject({
      kind: 'pay',
      mch_no: MCH,
      app_id: 'app1',
      from_status: 'wait',
      to_status: 'success',
      notify_url: 'http://127.0.0.1:9/notify',
      pay_order: paid,
    });
    const [history] = await historyOf(order.order_no);
    expect(history!.notice_id).toBe('n1');
  });

  it('applies five concurrent copies of a notice as one change', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    await Promise.all(Array.from({ length: 5 }, () => applyPaid(order.order_no, 'dup')));
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
  });

  it('does not apply a payment of another amount', async () => {
    const order = await createdOrder();
    await consumed(
      await publishNotice({ order_no: order.order_no, status: 'success', paid_amount: 1 }, 'wrong-amount'),
    );
    expect((await get(order.order_no)).status).toBe('wait');
    expect(await historyOf(order.order_no)).toEqual([]);
  });

  it('drops a notice for an unknown order after a few tries, and counts it', async () => {
    const before = await dropped('unknown_target');
    await consumed(await publishNotice({ order_no: 'P0', status: 'success' }));
    expect(await dropped('unknown_target')).toBe(before + 1);
  });

  it('keeps a notice that arrives while payments is down in the stream, and applies it on restart', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    client.close();
    await payments.stop();
    const account = router.accounts.get(order.order_no)!;
    const seq = await publishNotice({
      order_no: order.order_no,
      status: 'success',
      paid_amount: account.paidAmount,
      paid_at: account.paidAt,
    });
    payments = await main(env);
    client = new (loadProtos().agentpay.payments.v1.PaymentService)(
      `127.0.0.1:${payments.grpcPort}`,
      grpc.credentials.createInsecure(),
    );
    await consumed(seq);
    expect(await get(order.order_no)).toMatchObject({ status: 'success', version: '2' });
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
  });

  it('drops a malformed notice at once, and counts it', async () => {
    const before = await dropped('unreadable');
    await consumed(await publishNotice({ order_no: 'P1', status: 'paid-maybe' }));
    expect(await dropped('unreadable')).toBe(before + 1);
  });
});

describe('the SPEI tracking key (claveRastreo)', () => {
  it("shows the paying deposit's key from its notice in the query and the success event, and keeps it", async () => {
    const order = await createdOrder();
    expect(order.clave_rastreo).toBe('');
    router.deposit(order.order_no, 'AGPNOTICE0000000001');
    await applyPaid(order.order_no, 'key-1');
    const paid = await get(order.order_no);
    expect(paid).toMatchObject({ status: 'success', clave_rastreo: 'AGPNOTICE0000000001' });
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order).toEqual(paid);

    // A later notice and a later query answer without a key leave the known one alone.
    const account = router.accounts.get(order.order_no)!;
    account.claveRastreo = '';
    await applyPaid(order.order_no, 'key-2');
    expect(await sync(order.order_no)).toMatchObject({
      adjust: false,
      order: { clave_rastreo: 'AGPNOTICE0000000001' },
    });
    expect(await get(order.order_no)).toEqual(paid);
  });

  it('takes the key from a sync answer that finds the order paid', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no, 'AGPSYNC00000000001');
    const synced = await sync(order.order_no);
    expect(synced).toMatchObject({
      adjust: true,
      order: { status: 'success', clave_rastreo: 'AGPSYNC00000000001' },
    });
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order!.clave_rastreo).toBe('AGPSYNC00000000001');
  });

  it('takes the key from a close answer that finds the order paid', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no, 'AGPCLOSE0000000001');
    expect(await codeOf(close(order.order_no))).toBe('ORDER_ALREADY_PAID');
    expect(await get(order.order_no)).toMatchObject({
      status: 'success',
      clave_rastreo: 'AGPCLOSE0000000001',
    });
  });

  it('leaves the key empty when the channel paid without one', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no, '');
    await applyPaid(order.order_no);
    expect(await get(order.order_no)).toMatchObject({ status: 'success', clave_rastreo: '' });
  });
});

describe('settlement', () => {
  /** Publishes the ledger's OrderSettled for an order and waits until payments has acked it. */
  async function publishSettled(orderNo: string, settleTime: string): Promise<void> {
    const event: OrderSettled & { event_id: string } = {
      event_id: randomUUID(),
      mch_no: MCH,
      order_no: orderNo,
      biz_order_no: 'unused',
      settle_type: 'D+2',
      settle_time: settleTime,
      real_amount: '0',
    };
    const seq = await publishEvent(nc, `${prefix}.events.ledger.order_settled`, event);
    await waitFor(async () => (await ackedThrough(nc, stream, 'payments-settled')) >= seq, {
      message: `settlement ${seq} recorded`,
    });
  }

  it('settles a REALTIME order in its change to success, at its pay time, so the success event shows it', async () => {
    const order = await createdOrder({ merchant: { ...merchantOf(MCH), settle_type: 'REALTIME' } });
    expect(order).toMatchObject({ settle_type: 'REALTIME', settle_status: 'not_settle', settle_time: '' });
    router.deposit(order.order_no);
    await applyPaid(order.order_no);
    const paid = await get(order.order_no);
    expect(paid).toMatchObject({ status: 'success', settle_status: 'settled' });
    expect(paid.settle_time).toBe(paid.pay_time);
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order).toMatchObject({ settle_status: 'settled', settle_time: paid.pay_time });
  });

  it('records the ledger settlement of a D+N order without a status change, version or event, once', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    await applyPaid(order.order_no);
    const paid = await get(order.order_no);
    expect(paid.settle_status).toBe('not_settle');
    await publishSettled(order.order_no, '2026-11-25T06:00:00.000Z');
    const settled = await get(order.order_no);
    expect(settled).toEqual({ ...paid, settle_status: 'settled', settle_time: '2026-11-25T06:00:00.000Z' });
    // A redelivery (or a second event) changes nothing.
    await publishSettled(order.order_no, '2026-11-26T06:00:00.000Z');
    expect(await get(order.order_no)).toEqual(settled);
    expect((await eventsOf(order.order_no)).map((e) => e.to_status)).toEqual(['success']);
  });

  it('shows the settlement in the events of later changes', async () => {
    const order = await createdOrder();
    await publishSettled(order.order_no, '2026-11-25T06:00:00.000Z');
    await close(order.order_no);
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order).toMatchObject({ status: 'close', settle_status: 'settled' });
  });
});

describe('ClosePayOrder', () => {
  it('closes, answers OK to the same close again, and refuses a cancel afterwards', async () => {
    const order = await createdOrder();
    const closed = await close(order.order_no);
    expect(closed.order).toMatchObject({ status: 'close', version: '2' });
    expect(closed.order!.close_time).not.toBe('');
    expect(router.accounts.get(order.order_no)!.status).toBe('close');
    expect((await close(order.order_no)).order!.status).toBe('close');
    expect(await codeOf(close(order.order_no, true))).toBe('ORDER_STATUS_FORBIDS');
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->close']);
  });

  it('cancels with useCancel', async () => {
    const order = await createdOrder();
    expect((await close(order.order_no, true)).order!.status).toBe('cancel');
    expect((await close(order.order_no, true)).order!.status).toBe('cancel');
    expect(await codeOf(close(order.order_no))).toBe('ORDER_STATUS_FORBIDS');
  });

  it('refuses to close a paid order', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    await applyPaid(order.order_no);
    expect(await codeOf(close(order.order_no))).toBe('ORDER_STATUS_FORBIDS');
  });

  it('answers ORDER_ALREADY_PAID and marks the order paid when upstream reports the payment', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    expect(await codeOf(close(order.order_no))).toBe('ORDER_ALREADY_PAID');
    expect((await get(order.order_no)).status).toBe('success');
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
  });
});

describe('SyncPayOrder', () => {
  it('adjusts once when upstream was paid without a notice, then reports no adjustment', async () => {
    const order = await createdOrder();
    expect(await sync(order.order_no)).toMatchObject({ adjust: false, order: { status: 'wait' } });
    router.deposit(order.order_no);
    expect(await sync(order.order_no)).toMatchObject({ adjust: true, order: { status: 'success' } });
    expect(await sync(order.order_no)).toMatchObject({ adjust: false, order: { status: 'success' } });
  });

  it('moves a closed order to success when the money arrived after all', async () => {
    router.acceptDepositsWhenClosed = true;
    try {
      const order = await createdOrder();
      await close(order.order_no);
      router.deposit(order.order_no);
      expect(await sync(order.order_no)).toMatchObject({ adjust: true, order: { status: 'success' } });
      expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->close', 'close->success']);
    } finally {
      router.acceptDepositsWhenClosed = false;
    }
  });
});

describe('expiry sweep', () => {
  it('times out an unpaid expired order after closing it upstream, and makes a paid one success', async () => {
    const soon = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2_000).toISOString();
    const unpaid = await createdOrder({ expired_time: soon });
    const paid = await createdOrder({ expired_time: soon });
    const later = await createdOrder();
    router.deposit(paid.order_no);
    await waitFor(() => Date.now() > Date.parse(soon) + 50, { timeoutMs: 5_000, intervalMs: 100 });
    await payments.sweepExpired();
    expect((await get(unpaid.order_no)).status).toBe('timeout');
    expect((await get(unpaid.order_no)).close_time).not.toBe('');
    expect(router.accounts.get(unpaid.order_no)!.status).toBe('close');
    expect((await get(paid.order_no)).status).toBe('success');
    expect((await get(later.order_no)).status).toBe('wait');
    expect(await expectConsistentHistory(unpaid.order_no)).toEqual(['wait->timeout']);
    expect(await expectConsistentHistory(paid.order_no)).toEqual(['wait->success']);
    // A second round finds nothing left to do.
    expect(await payments.sweepExpired()).toBe(0);
  });

  it('lets two sweeping replicas share expired orders without handling one twice', async () => {
    const soon = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2_000).toISOString();
    const orders = await Promise.all(Array.from({ length: 6 }, () => createdOrder({ expired_time: soon })));
    await waitFor(() => Date.now() > Date.parse(soon) + 50, { timeoutMs: 5_000, intervalMs: 100 });
    const [a, b] = await Promise.all([payments.sweepExpired(), payments.sweepExpired()]);
    expect(a + b).toBe(6);
    for (const order of orders) {
      expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->timeout']);
    }
  });
});

describe('races', () => {
  it('a close and a deposit racing end in one legal outcome, with one event per change', async () => {
    const outcomes = new Map<string, number>();
    for (const acceptWhenClosed of [false, true]) {
      router.acceptDepositsWhenClosed = acceptWhenClosed;
      const orders = await Promise.all(Array.from({ length: 15 }, () => createdOrder()));
      await Promise.all(
        orders.map(async (order) => {
          const [closeCode] = await Promise.all([
            codeOf(close(order.order_no)),
            (async () => {
              // A random head start for the close, so both orders of arrival happen.
              await sleep(Math.random() * 60);
              if (router.deposit(order.order_no)) await applyPaid(order.order_no);
            })(),
          ]);
          const path = await expectConsistentHistory(order.order_no);
          const legal: Record<string, string[][]> = {
            SUCCESS: [['wait->close'], ['wait->close', 'close->success']],
            ORDER_ALREADY_PAID: [['wait->success']],
          };
          expect(legal[closeCode]).toContainEqual(path);
          const key = `${closeCode}:${path.join(',')}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }),
      );
    }
    router.acceptDepositsWhenClosed = false;
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(30);
  });

  it('a sync, a notice and the sweep racing on a paid expired order make one change', async () => {
    const soon = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2_000).toISOString();
    const orders = await Promise.all(Array.from({ length: 5 }, () => createdOrder({ expired_time: soon })));
    for (const order of orders) router.deposit(order.order_no);
    await waitFor(() => Date.now() > Date.parse(soon) + 50, { timeoutMs: 5_000, intervalMs: 100 });
    await Promise.all([
      payments.sweepExpired(),
      ...orders.flatMap((order) => [sync(order.order_no), applyPaid(order.order_no)]),
    ]);
    for (const order of orders) {
      expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
    }
  });
});

describe('the database', () => {
  it('holds the same transition table as the code', async () => {
    const rows = await db.selectFrom('pay_order_transitions').selectAll().execute();
    const fromCode = TRANSITIONS.map((t) => `${t.from}->${t.to}`).sort();
    expect(rows.map((r) => `${r.from_status}->${r.to_status}`).sort()).toEqual(fromCode);
  });

  it('refuses a forbidden status change even from a hand-written update', async () => {
    const order = await createdOrder();
    router.deposit(order.order_no);
    await applyPaid(order.order_no);
    await expect(
      db
        .updateTable('pay_orders')
        .set({ status: 'wait', version: sql<number>`version + 1` })
        .where('order_no', '=', order.order_no)
        .execute(),
    ).rejects.toThrow(/forbidden pay order transition success -> wait/);
  });
});
