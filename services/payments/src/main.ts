import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { boundPort, startOpsServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { connectNats, ensureStream, startOutboxRelay } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { createRegistry, installTracing } from '@agentpay/telemetry';
import { paymentsEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { expirySweep } from './pay-orders/expiry.sweep.js';
import { payOrderService } from './pay-orders/pay-order.service.js';
import { paymentHandlers } from './payments.grpc.js';
import { routerUpstream } from './upstream/upstream.client.js';

export interface Payments {
  grpcPort: number;
  /** Port of GET /metrics. */
  metricsPort: number;
  /** Runs one expiry sweep round now (tests and operators); answers how many orders it looked at. */
  sweepExpired(): Promise<number>;
  stop(): Promise<void>;
}

/** Composition root of the payments service. */
export async function main(env: NodeJS.ProcessEnv): Promise<Payments> {
  const config = parseConfig(paymentsEnv, env);
  const logger = createLogger({ service: 'payments', level: config.LOG_LEVEL });
  const tracing = installTracing({
    service: 'payments',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  });
  const registry = createRegistry('payments');

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, {
    applicationName: 'payments',
    logger,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(db, migrations, logger);

  const nc = await connectNats(config.NATS_URL, { name: 'payments', logger });
  await ensureStream(nc, { name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const relay = startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger, registry });

  const upstream = routerUpstream({
    address: config.ROUTER_ADDR,
    timeoutMs: config.ROUTER_TIMEOUT_MS,
    logger,
  });
  const subject = `${config.EVENTS_SUBJECT_PREFIX}.pay.status_changed`;
  const payOrders = payOrderService({
    db,
    logger,
    upstream,
    subject,
    timeZone: config.API_TIME_ZONE,
    createLeaseMs: config.CREATE_LEASE_MS,
  });
  const sweep = expirySweep({
    db,
    logger,
    upstream,
    subject,
    intervalMs: config.EXPIRY_SWEEP_INTERVAL_MS,
    batch: config.EXPIRY_SWEEP_BATCH,
    leaseMs: config.EXPIRY_SWEEP_LEASE_MS,
    createLeaseMs: config.CREATE_LEASE_MS,
  });

  const protos = loadProtos();
  const grpcServer = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    name: 'payments',
    registry,
    services: [[protos.agentpay.payments.v1.PaymentService.service, paymentHandlers({ logger, payOrders })]],
  });
  grpcServer.setServing(true);
  const ops = await startOpsServer({
    logger,
    host: config.HOST,
    port: config.METRICS_PORT,
    metrics: registry,
  });
  logger.info({ grpcPort: grpcServer.port }, 'payments listening');

  return {
    grpcPort: grpcServer.port,
    metricsPort: boundPort(ops),
    sweepExpired: () => sweep.runOnce(),
    async stop() {
      await grpcServer.stop();
      await ops.close();
      await sweep.stop();
      upstream.close();
      await relay.stop();
      await nc.drain();
      await db.destroy();
      await tracing.shutdown();
      logger.info('payments stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('payments', main);
