import { randomBytes, randomUUID } from 'node:crypto';
import { createDb } from '@agentpay/db';
import {
  ackedThrough,
  connectNats,
  type NatsConnection,
  noticeSubject,
  publishEvent,
} from '@agentpay/messaging';
import {
  type ClosePayOrderResponse__Output,
  type CreatePayOrderRequest,
  type CreatePayOrderResponse__Output,
  call,
  loadProtos,
  type NoticeReceived,
  type OrderStatusChanged__Output,
  type PaymentNotice,
  type PaymentServiceClient,
  type PayOrder__Output,
  type SyncPayOrderResponse__Output,
} from '@agentpay/proto';
import { createTestClock, type TestClock } from '@agentpay/runtime';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName, waitFor } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { main, type Payments } from '../../src/main.js';
import { isAllowed, isPayStatus } from '../../src/pay-orders/pay-order.state-machine.js';
import { type FakeRouter, startFakeRouter } from './fake-router.js';

// The payments service in-process on a fresh Postgres database and a real NATS, its gRPC API called
// over the network, a fake upstream router (fake-router.ts), and a clock the test moves. One per test
// file: `usePayments()` starts it before the file's tests and stops it after.

export const TIME_ZONE = 'America/Mexico_City';

export const merchantOf = (mchNo: string) => ({
  mch_no: mchNo,
  app_id: 'app1',
  fee_percent_bps: 250,
  fee_fixed_centavos: 300,
  settle_type: 'D+2',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
});

export const biz = () => `B${randomBytes(6).toString('hex')}`;

export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'SUCCESS';
  } catch (err) {
    if (err instanceof AppError) return err.codeName;
    throw err;
  }
}

/** One file's payments service and what its tests reach it through. */
export interface PaymentsFixture {
  readonly MCH: string;
  readonly prefix: string;
  readonly stream: string;
  readonly clock: TestClock;
  readonly router: FakeRouter;
  readonly payments: Payments;
  readonly client: PaymentServiceClient;
  readonly db: ReturnType<typeof createDb<Database>>;
  readonly nc: NatsConnection;
  /** Stops the service; `start` brings it back on the same database, stream and clock. */
  stop(): Promise<void>;
  start(): Promise<void>;
  payRequest(overrides?: Partial<CreatePayOrderRequest>): CreatePayOrderRequest;
  create(request: CreatePayOrderRequest): Promise<CreatePayOrderResponse__Output>;
  get(orderNo: string, mchNo?: string): Promise<PayOrder__Output>;
  close(orderNo: string, useCancel?: boolean): Promise<ClosePayOrderResponse__Output>;
  sync(orderNo: string): Promise<SyncPayOrderResponse__Output>;
  createdOrder(overrides?: Partial<CreatePayOrderRequest>): Promise<PayOrder__Output>;
  /** Publishes a payment notice as the router does, under a new event id. Answers its stream sequence. */
  publishNotice(payment: PaymentNotice, noticeId?: string): Promise<number>;
  /** Waits until payments has applied (or dropped) everything published up to `seq`. */
  consumed(seq: number): Promise<void>;
  /** The deposit the fake router holds for the order, delivered as a notice; resolves once applied. */
  applyPaid(orderNo: string, noticeId?: string): Promise<void>;
  /** notices_dropped_total for one reason, from GET /metrics. */
  dropped(reason: string): Promise<number>;
  eventsOf(orderNo: string): Promise<OrderStatusChanged__Output[]>;
  historyOf(orderNo: string): ReturnType<typeof historyQuery>;
  /** The history is a chain from `wait` along allowed edges, one version and one event per change. */
  expectConsistentHistory(orderNo: string): Promise<string[]>;
}

function historyQuery(db: ReturnType<typeof createDb<Database>>, orderNo: string) {
  return db
    .selectFrom('pay_order_status_history')
    .selectAll()
    .where('order_no', '=', orderNo)
    .orderBy('version')
    .execute();
}

/** Starts payments for this file's tests (beforeAll) and stops everything after them (afterAll). */
export function usePayments(): PaymentsFixture {
  const MCH = `M${randomBytes(4).toString('hex')}`;
  const prefix = uniqueName('t_pay');
  const stream = prefix.toUpperCase();
  const clock = createTestClock();
  let database: TestDatabase;
  let router: FakeRouter;
  let payments: Payments | undefined;
  let client: PaymentServiceClient | undefined;
  let db: ReturnType<typeof createDb<Database>>;
  let nc: NatsConnection;
  let env: Record<string, string>;

  async function start(): Promise<void> {
    payments = await main(env, { clock });
    client = new (loadProtos().agentpay.payments.v1.PaymentService)(
      `127.0.0.1:${payments.grpcPort}`,
      grpc.credentials.createInsecure(),
    );
  }

  async function stop(): Promise<void> {
    client?.close();
    await payments?.stop();
  }

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
    await start();
    db = createDb<Database>(database.url, { poolSize: 3 });
  });

  afterAll(async () => {
    await stop();
    await router?.stop();
    await nc?.close();
    await db?.destroy();
    await database?.drop();
  });

  const theClient = () => {
    if (!client) throw new Error('payments is not running');
    return client;
  };

  const fixture: PaymentsFixture = {
    MCH,
    prefix,
    stream,
    clock,
    get router() {
      return router;
    },
    get payments() {
      if (!payments) throw new Error('payments is not running');
      return payments;
    },
    get client() {
      return theClient();
    },
    get db() {
      return db;
    },
    get nc() {
      return nc;
    },
    stop,
    start,

    payRequest(overrides = {}) {
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
    },
    create: (request) => call(theClient(), theClient().CreatePayOrder, request),
    get: (orderNo, mchNo = MCH) =>
      call(theClient(), theClient().GetPayOrder, { merchant: merchantOf(mchNo), order_no: orderNo }),
    close: (orderNo, useCancel = false) =>
      call(theClient(), theClient().ClosePayOrder, {
        ref: { merchant: merchantOf(MCH), order_no: orderNo },
        use_cancel: useCancel,
      }),
    sync: (orderNo) =>
      call(theClient(), theClient().SyncPayOrder, { merchant: merchantOf(MCH), order_no: orderNo }),

    async createdOrder(overrides = {}) {
      const { order } = await fixture.create(fixture.payRequest(overrides));
      if (!order) throw new Error('no order');
      return order;
    },

    publishNotice(payment, noticeId = randomBytes(4).toString('hex')) {
      const event: NoticeReceived & { event_id: string } = {
        event_id: randomUUID(),
        notice_id: noticeId,
        received_at: new Date().toISOString(),
        traceparent: '',
        notice: 'payment',
        payment,
      };
      return publishEvent(nc, noticeSubject(`${prefix}.events`, 'payment'), event);
    },

    async consumed(seq) {
      await waitFor(async () => (await ackedThrough(nc, stream, 'payments-notices')) >= seq, {
        message: `notice ${seq} applied`,
      });
    },

    async applyPaid(orderNo, noticeId) {
      const account = router.accounts.get(orderNo);
      await fixture.consumed(
        await fixture.publishNotice(
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
    },

    async dropped(reason) {
      const text = await (await fetch(`http://127.0.0.1:${fixture.payments.metricsPort}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('notices_dropped_total{') && l.includes(`reason="${reason}"`));
      return Number(line?.split(' ').at(-1) ?? 0);
    },

    async eventsOf(orderNo) {
      const rows = await db
        .selectFrom('outbox')
        .select(['payload', 'subject'])
        .where(sql<string>`payload->>'order_no'`, '=', orderNo)
        .orderBy('seq')
        .execute();
      for (const row of rows) expect(row.subject).toBe(`${prefix}.events.pay.status_changed`);
      return rows.map((r) => r.payload as OrderStatusChanged__Output);
    },

    historyOf: (orderNo) => historyQuery(db, orderNo),

    async expectConsistentHistory(orderNo) {
      const history = await fixture.historyOf(orderNo);
      const events = await fixture.eventsOf(orderNo);
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
      const current = await fixture.get(orderNo);
      expect(current.status).toBe(status);
      expect(current.version).toBe(String(version));
      return history.map((h) => `${h.from_status}->${h.to_status}`);
    },
  };
  return fixture;
}
