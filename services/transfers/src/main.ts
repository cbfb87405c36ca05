import { isEntryPoint, runService } from '@agentpay/config';
import { boundPort, startOpsServer } from '@agentpay/http';
import { noticeSubject, startOutboxRelay, statusChangedSubject } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { type Clock, systemClock } from '@agentpay/runtime';
import { bootstrapService } from '@agentpay/service';
import { startBatchSender } from './batches/batch.sender.js';
import { createBatchService } from './batches/batch.service.js';
import { connectCompliance } from './compliance/compliance.client.js';
import { transfersEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { createInquiryService } from './inquiries/inquiry.service.js';
import { connectLedger } from './ledger/ledger.client.js';
import { startPayoutNoticeConsumer } from './notices/notice.consumer.js';
import { createPayeeRegistry } from './payees/payee.service.js';
import { createRefundService } from './refunds/refund.service.js';
import { transfersRetentionRules } from './retention/retention.js';
import { createTransferListing } from './transfers/transfer.list.js';
import { createTransferService } from './transfers/transfer.service.js';
import { startTransferSweep } from './transfers/transfer.sweep.js';
import { createTransferHandlers } from './transfers.grpc.js';
import { connectRouter } from './upstream/router.client.js';

export interface Transfers {
  grpcPort: number;
  /** Port of GET /metrics. */
  metricsPort: number;
  stop(): Promise<void>;
}

/** Composition root of the transfers service. `clock`: where waits and the sweeps read the time (tests move it). */
export async function main(env: NodeJS.ProcessEnv, opts: { clock?: Clock } = {}): Promise<Transfers> {
  const clock = opts.clock ?? systemClock;
  const svc = await bootstrapService({ name: 'transfers', schema: transfersEnv, env });
  const { config, logger, registry } = svc;
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations);
    const nc = await svc.events();
    svc.own(
      'outbox relay',
      startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger, registry }),
      (r) => r.stop(),
    );

    const router = svc.own('router client', connectRouter(config.ROUTER_ADDR), (c) => c.close());
    const ledger = svc.own('ledger client', connectLedger(config.LEDGER_ADDR), (c) => c.close());
    const compliance = svc.own('compliance client', connectCompliance(config.COMPLIANCE_ADDR), (c) =>
      c.close(),
    );
    if (config.TRANSFERS_CRASH_AT)
      logger.warn({ at: config.TRANSFERS_CRASH_AT }, 'TRANSFERS_CRASH_AT set (tests only)');
    const payees = createPayeeRegistry({ db, clock, coolingMs: config.PAYEE_COOLING_MINUTES * 60_000 });
    const transfers = createTransferService({
      db,
      router,
      ledger,
      payees,
      logger,
      subject: statusChangedSubject(config.EVENTS_SUBJECT_PREFIX, 'transfer'),
      routerTimeoutMs: config.ROUTER_TIMEOUT_MS,
      ledgerTimeoutMs: config.LEDGER_TIMEOUT_MS,
      compliance,
      complianceTimeoutMs: config.COMPLIANCE_TIMEOUT_MS,
      crashAt: config.TRANSFERS_CRASH_AT,
      clock,
    });
    // Batch payouts: accepted as one, then each item sent by the batch sender at the transfer path's pace.
    const sender = svc.own(
      'batch sender',
      startBatchSender({
        db,
        router,
        logger,
        outcomes: transfers.outcomes,
        routerTimeoutMs: config.ROUTER_TIMEOUT_MS,
        compliance,
        complianceTimeoutMs: config.COMPLIANCE_TIMEOUT_MS,
        clock,
        concurrency: config.BATCH_SEND_CONCURRENCY,
        intervalMs: config.BATCH_SEND_INTERVAL_MS,
      }),
      (s) => s.stop(),
    );
    const batches = createBatchService({
      db,
      ledger,
      payees,
      logger,
      ledgerTimeoutMs: config.LEDGER_TIMEOUT_MS,
      clock,
      onQueued: () => sender.nudge(),
    });
    const inquiries = createInquiryService({ db, router, logger, routerTimeoutMs: config.ROUTER_TIMEOUT_MS });

    // Notices wait in the stream while transfers is down, and are applied from where it left off.
    svc.own(
      'notice consumer',
      startPayoutNoticeConsumer({
        nc,
        logger,
        registry,
        transfers,
        stream: config.EVENTS_STREAM,
        durable: config.NOTICE_CONSUMER,
        subject: noticeSubject(config.EVENTS_SUBJECT_PREFIX, 'payout'),
        concurrency: config.NOTICE_CONCURRENCY,
        retryDelayMs: config.NOTICE_RETRY_DELAY_MS,
      }),
      (c) => c.stop(),
    );

    // Stale submissions (their freezes voided) and transfers whose outcome upstream never reported.
    svc.own(
      'sweep',
      startTransferSweep({
        logger,
        intervalMs: config.SWEEP_INTERVAL_MS,
        staleMs: config.SUBMISSION_STALE_MS,
        reconcileAfterMs: config.RECONCILE_AFTER_MS,
        sweepStaleSubmissions: async (staleMs) =>
          (await transfers.sweepStaleSubmissions(staleMs)) + (await batches.sweepAccepting(staleMs)),
        reconcileProgress: transfers.reconcileProgress,
      }),
      (l) => l.stop(),
    );

    // Published outbox rows go in bounded batches; transfers and inquiries are kept (docs/deploy.md).
    svc.retention(db, transfersRetentionRules({ outboxDays: config.OUTBOX_RETENTION_DAYS }));

    const protos = loadProtos();
    const grpcServer = svc.own(
      'gRPC server',
      await startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        name: 'transfers',
        registry,
        services: [
          [
            protos.agentpay.transfers.v1.TransferService.service,
            createTransferHandlers({
              logger,
              transfers,
              inquiries,
              payees,
              batches,
              listing: createTransferListing({ db }),
              held: transfers.held,
              refunds: createRefundService({ db, transfers }),
            }),
          ],
        ],
      }),
      (g) => g.stop(),
    );
    grpcServer.setServing(true);
    const ops = svc.own(
      'ops server',
      await startOpsServer({ logger, host: config.HOST, port: config.METRICS_PORT, metrics: registry }),
      (o) => o.close(),
    );
    logger.info({ grpcPort: grpcServer.port }, 'transfers listening');

    return { grpcPort: grpcServer.port, metricsPort: boundPort(ops), stop: svc.stop };
  });
}

if (isEntryPoint(import.meta.url)) runService('transfers', main);
