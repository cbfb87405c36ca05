import { isEntryPoint, runService } from '@agentpay/config';
import { boundPort, startOpsServer } from '@agentpay/http';
import {
  orderSettledSubject,
  startEventConsumer,
  startOutboxRelay,
  statusChangedFilter,
} from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { bootstrapService } from '@agentpay/service';
import { ledgerEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { statusChangedHandler } from './events/status-changed.handler.js';
import type { CrossCheck } from './ledger/check.repository.js';
import { createLedgerService, type LedgerService } from './ledger/ledger.service.js';
import { createLedgerQueries } from './ledger/ledger-queries.service.js';
import { createOrderEntries } from './ledger/order-entries.service.js';
import { createLedgerHandlers } from './ledger.grpc.js';
import { observedCrossChecks } from './observed/cross-checks.js';
import { createDiscrepancyQueries } from './reconciliation/discrepancies.service.js';
import { reconciliationMetrics } from './reconciliation/reconciliation.metrics.js';
import { type Reconciliation, startReconciliation } from './reconciliation/reconciliation.service.js';
import { type Resolutions, startResolutions } from './reconciliation/resolutions.js';
import { connectReconRouter } from './reconciliation/router.client.js';
import { ledgerRetentionRules } from './retention/retention.js';
import { createSettlementCalendar } from './settlement/calendar.js';
import { type Settlement, startSettlementSweep } from './settlement/settlement.sweep.js';

export interface Ledger {
  grpcPort: number;
  /** Port of GET /metrics. */
  metricsPort: number;
  /** The use cases, for tests and operators' scripts in the same process. */
  ledger: LedgerService;
  settlement: Settlement;
  reconciliation: Reconciliation;
  resolutions: Resolutions;
  stop(): Promise<void>;
}

/**
 * Composition root of the ledger service. Check proves the books against the orders and transfers the
 * ledger observed from their events; `crossChecks` lets a caller add more.
 */
export async function main(
  env: NodeJS.ProcessEnv,
  opts: { crossChecks?: CrossCheck[] } = {},
): Promise<Ledger> {
  const svc = await bootstrapService({ name: 'ledger', schema: ledgerEnv, env });
  const { config, logger, registry } = svc;

  // Stopped in reverse: servers, then the sweep and no more events taken (what is being booked commits
  // and is acked), the bookings still queued, the relay, NATS, then Postgres.
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations, { poolSize: config.DATABASE_POOL_SIZE });
    const nc = await svc.events();
    svc.retention(
      db,
      ledgerRetentionRules({
        outboxDays: config.OUTBOX_RETENTION_DAYS,
        statementDays: config.STATEMENT_RETENTION_DAYS,
        settlementRunDays: config.SETTLEMENT_RUN_RETENTION_DAYS,
      }),
    );
    svc.own(
      'outbox relay',
      startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger, registry }),
      (r) => r.stop(),
    );

    const ledger = svc.own(
      'bookings',
      createLedgerService({
        db,
        logger,
        calendar: createSettlementCalendar({ holidays: config.holidays, timeZone: config.API_TIME_ZONE }),
        settledSubject: orderSettledSubject(config.EVENTS_SUBJECT_PREFIX),
        maxBatch: config.LEDGER_MAX_BATCH,
        registry,
        timeZone: config.API_TIME_ZONE,
      }),
      (l) => l.drain(),
    );
    svc.own(
      'event consumer',
      startEventConsumer({
        nc,
        logger,
        service: 'ledger',
        stream: config.EVENTS_STREAM,
        durable: config.LEDGER_CONSUMER,
        // pay.status_changed and transfer.status_changed; the ledger's own events are not among them.
        filterSubject: statusChangedFilter(config.EVENTS_SUBJECT_PREFIX),
        concurrency: config.LEDGER_CONSUME_CONCURRENCY,
        batchSize: config.LEDGER_CONSUME_BATCH,
        ackWaitMs: config.LEDGER_ACK_WAIT_MS,
        handle: statusChangedHandler({ db, logger, ledger }),
        registry,
      }),
      (c) => c.stop(),
    );
    const settlement = svc.own(
      'settlement sweep',
      startSettlementSweep({
        db,
        logger,
        ledger,
        intervalMs: config.SETTLEMENT_SWEEP_INTERVAL_MS,
        batch: config.SETTLEMENT_BATCH,
      }),
      (s) => s.stop(),
    );

    reconciliationMetrics(db, registry);
    // ledger -> router is one way: the router never calls the ledger.
    const router = svc.own('router client', connectReconRouter(config.ROUTER_ADDR), (r) => r.close());
    const reconciliation = svc.own(
      'reconciliation schedule',
      startReconciliation({
        db,
        logger,
        router,
        timeZone: config.API_TIME_ZONE,
        graceMs: config.RECON_GRACE_MS,
        batch: config.RECON_BATCH,
        reconTime: config.RECON_TIME,
        intervalMs: config.RECON_SCHEDULE === 'off' ? 0 : config.RECON_SCHEDULE_INTERVAL_MS,
      }),
      (r) => r.stop(),
    );

    const resolutions = svc.own(
      'return payouts loop',
      startResolutions({ db, logger, ledger, router, pollMs: config.RECON_RETURN_POLL_MS }),
      (r) => r.stop(),
    );

    const grpcServer = svc.own(
      'gRPC server',
      await startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        name: 'ledger',
        registry,
        services: [
          [
            loadProtos().agentpay.ledger.v1.LedgerService.service,
            createLedgerHandlers({
              logger,
              ledger,
              queries: createLedgerQueries({
                db,
                crossChecks: [...observedCrossChecks, ...(opts.crossChecks ?? [])],
              }),
              discrepancies: createDiscrepancyQueries(db),
              settlement,
              reconciliation,
              resolutions,
              orderEntries: createOrderEntries({ db }),
            }),
          ],
        ],
      }),
      (s) => s.stop(),
    );
    const ops = svc.own(
      'ops server',
      await startOpsServer({ logger, host: config.HOST, port: config.METRICS_PORT, metrics: registry }),
      (o) => o.close(),
    );
    grpcServer.setServing(true);
    logger.info({ grpcPort: grpcServer.port }, 'ledger listening');

    return {
      grpcPort: grpcServer.port,
      metricsPort: boundPort(ops),
      ledger,
      settlement,
      reconciliation,
      resolutions,
      stop: svc.stop,
    };
  });
}

if (isEntryPoint(import.meta.url)) runService('ledger', main);
