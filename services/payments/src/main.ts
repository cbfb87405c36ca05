import { isEntryPoint, runService } from '@agentpay/config';
import { boundPort, startOpsServer } from '@agentpay/http';
import {
  noticeSubject,
  orderSettledSubject,
  startOutboxRelay,
  statusChangedSubject,
} from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { type Clock, systemClock } from '@agentpay/runtime';
import { bootstrapService } from '@agentpay/service';
import { paymentsEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { startPaymentNoticeConsumer } from './notices/notice.consumer.js';
import { startExpirySweep } from './pay-orders/expiry.sweep.js';
import { createPayOrderService } from './pay-orders/pay-order.service.js';
import { createPaymentHandlers } from './payments.grpc.js';
import { paymentsRetentionRules } from './retention/retention.js';
import { startOrderSettledConsumer } from './settlements/order-settled.consumer.js';
import { connectRouter } from './upstream/router.client.js';

export interface Payments {
  grpcPort: number;
  /** Port of GET /metrics. */
  metricsPort: number;
  /** Runs one expiry sweep round now (tests and operators); answers how many orders it looked at. */
  sweepExpired(): Promise<number>;
  stop(): Promise<void>;
}

/** Composition root of the payments service. `clock`: where expiries and waits read the time (tests move it). */
export async function main(env: NodeJS.ProcessEnv, opts: { clock?: Clock } = {}): Promise<Payments> {
  const clock = opts.clock ?? systemClock;
  const svc = await bootstrapService({ name: 'payments', schema: paymentsEnv, env });
  const { config, logger, registry } = svc;
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations);
    const nc = await svc.events();
    svc.own(
      'outbox relay',
      startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger, registry }),
      (r) => r.stop(),
    );

    const upstream = svc.own(
      'router client',
      connectRouter({ address: config.ROUTER_ADDR, timeoutMs: config.ROUTER_TIMEOUT_MS, logger }),
      (u) => u.close(),
    );
    const subject = statusChangedSubject(config.EVENTS_SUBJECT_PREFIX, 'pay');
    const payOrders = createPayOrderService({
      db,
      logger,
      upstream,
      subject,
      timeZone: config.API_TIME_ZONE,
      createLeaseMs: config.CREATE_LEASE_MS,
      clock,
    });
    const sweep = svc.own(
      'expiry sweep',
      startExpirySweep({
        db,
        logger,
        upstream,
        subject,
        intervalMs: config.EXPIRY_SWEEP_INTERVAL_MS,
        batch: config.EXPIRY_SWEEP_BATCH,
        leaseMs: config.EXPIRY_SWEEP_LEASE_MS,
        createLeaseMs: config.CREATE_LEASE_MS,
        clock,
      }),
      (x) => x.stop(),
    );

    // Published outbox rows and old status history go in bounded batches; orders are kept (docs/deploy.md).
    svc.retention(
      db,
      paymentsRetentionRules({
        outboxDays: config.OUTBOX_RETENTION_DAYS,
        statusHistoryDays: config.STATUS_HISTORY_RETENTION_DAYS,
      }),
    );

    // Notices wait in the stream while payments is down, and are applied from where it left off.
    svc.own(
      'notice consumer',
      startPaymentNoticeConsumer({
        nc,
        logger,
        registry,
        payOrders,
        stream: config.EVENTS_STREAM,
        durable: config.NOTICE_CONSUMER,
        subject: noticeSubject(config.EVENTS_SUBJECT_PREFIX, 'payment'),
        concurrency: config.NOTICE_CONCURRENCY,
        retryDelayMs: config.NOTICE_RETRY_DELAY_MS,
      }),
      (c) => c.stop(),
    );

    // Settlements wait in the stream while payments is down, like notices.
    svc.own(
      'settlement consumer',
      startOrderSettledConsumer({
        nc,
        db,
        logger,
        stream: config.EVENTS_STREAM,
        durable: config.SETTLED_CONSUMER,
        subject: orderSettledSubject(config.EVENTS_SUBJECT_PREFIX),
        concurrency: 2,
        registry,
      }),
      (c) => c.stop(),
    );

    const protos = loadProtos();
    const grpcServer = svc.own(
      'gRPC server',
      await startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        name: 'payments',
        registry,
        services: [
          [protos.agentpay.payments.v1.PaymentService.service, createPaymentHandlers({ logger, payOrders })],
        ],
      }),
      (g) => g.stop(),
    );
    grpcServer.setServing(true);
    const ops = svc.own(
      'ops server',
      await startOpsServer({
        logger,
        host: config.HOST,
        port: config.METRICS_PORT,
        metrics: registry,
      }),
      (o) => o.close(),
    );
    logger.info({ grpcPort: grpcServer.port }, 'payments listening');

    return {
      grpcPort: grpcServer.port,
      metricsPort: boundPort(ops),
      sweepExpired: () => sweep.runOnce(),
      stop: svc.stop,
    };
  });
}

if (isEntryPoint(import.meta.url)) runService('payments', main);
