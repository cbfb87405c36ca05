import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { boundPort, startOpsServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { connectNats, ensureStream, startOutboxRelay } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { createRegistry, installTracing } from '@agentpay/telemetry';
import { transfersEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { createInquiryService } from './inquiries/inquiry.service.js';
import { createTransferService } from './transfers/transfer.service.js';
import { transferHandlers } from './transfers.grpc.js';
import { connectRouter } from './upstream/router-client.js';

export interface Transfers {
  grpcPort: number;
  /** Port of GET /metrics. */
  metricsPort: number;
  stop(): Promise<void>;
}

/** Composition root of the transfers service. */
export async function main(env: NodeJS.ProcessEnv): Promise<Transfers> {
  const config = parseConfig(transfersEnv, env);
  const logger = createLogger({ service: 'transfers', level: config.LOG_LEVEL });
  const tracing = installTracing({
    service: 'transfers',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  });
  const registry = createRegistry('transfers');

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, {
    applicationName: 'transfers',
    logger,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(db, migrations, logger);

  const nc = await connectNats(config.NATS_URL, { name: 'transfers', logger });
  await ensureStream(nc, { name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const relay = startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger, registry });

  const router = connectRouter(config.ROUTER_ADDR);
  const transfers = createTransferService({
    db,
    router,
    logger,
    subject: `${config.EVENTS_SUBJECT_PREFIX}.transfer.status_changed`,
    routerTimeoutMs: config.ROUTER_TIMEOUT_MS,
  });
  const inquiries = createInquiryService({ db, router, logger, routerTimeoutMs: config.ROUTER_TIMEOUT_MS });

  let sweeping: Promise<unknown> | undefined;
  const sweep =
    config.SWEEP_INTERVAL_MS > 0
      ? setInterval(() => {
          // One sweep at a time: a slow router must not pile sweeps up.
          sweeping ??= (async () => {
            await transfers.sweepStaleSubmissions(config.SUBMISSION_STALE_MS);
            await transfers.reconcileProgress(config.RECONCILE_AFTER_MS);
          })()
            .catch((err: unknown) => logger.warn({ err }, 'sweep failed'))
            .finally(() => {
              sweeping = undefined;
            });
        }, config.SWEEP_INTERVAL_MS)
      : undefined;

  const protos = loadProtos();
  const grpcServer = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    name: 'transfers',
    registry,
    services: [
      [
        protos.agentpay.transfers.v1.TransferService.service,
        transferHandlers({ logger, transfers, inquiries }),
      ],
    ],
  });
  grpcServer.setServing(true);
  const ops = await startOpsServer({
    logger,
    host: config.HOST,
    port: config.METRICS_PORT,
    metrics: registry,
  });
  logger.info({ grpcPort: grpcServer.port }, 'transfers listening');

  return {
    grpcPort: grpcServer.port,
    metricsPort: boundPort(ops),
    async stop() {
      await grpcServer.stop();
      await ops.close();
      clearInterval(sweep);
      await sweeping;
      router.close();
      await relay.stop();
      await nc.drain();
      await db.destroy();
      await tracing.shutdown();
      logger.info('transfers stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('transfers', main);
