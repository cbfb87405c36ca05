import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { addMetricsRoute, boundPort, createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { connectNats, ensureStream } from '@agentpay/messaging';
import { createRegistry, installTracing } from '@agentpay/telemetry';
import { createEnvelopeSigner, loadPlatformKey } from '@agentpay/wire';
import { registerAdminApi } from './admin/admin-api.js';
import { postCallback } from './callbacks/callback.client.js';
import { instrumentCallbacks } from './callbacks/callback.metrics.js';
import { notifierEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { startDeliveryWorker } from './deliveries/delivery.worker.js';
import { startEventConsumer } from './events/event.consumer.js';
import { orderStatusChangedHandler } from './events/order-status-changed.handler.js';

export interface Notifier {
  httpPort: number;
  /** This replica's name on leases and attempts. */
  instanceId: string;
  stop(): Promise<void>;
}

/** Composition root of the notifier: events in from JetStream, callbacks out from Postgres. */
export async function main(env: NodeJS.ProcessEnv): Promise<Notifier> {
  const config = parseConfig(notifierEnv, env);
  const logger = createLogger({ service: 'notifier', level: config.LOG_LEVEL });
  const tracing = installTracing({
    service: 'notifier',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  });
  const registry = createRegistry('notifier');
  const instanceId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, {
    applicationName: 'notifier',
    poolSize: 20,
    logger,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(db, migrations, logger);
  const platformKey = loadPlatformKey({
    pem: config.PLATFORM_PRIVATE_KEY,
    file: config.PLATFORM_PRIVATE_KEY_FILE,
    production: config.production,
  });
  const signer = createEnvelopeSigner({ privateKey: platformKey.privateKey, timeZone: config.API_TIME_ZONE });
  if (config.production && config.NOTIFY_ALLOW_PRIVATE) {
    logger.warn('NOTIFY_ALLOW_PRIVATE is on in production: callbacks may reach internal addresses');
  }

  const worker = startDeliveryWorker({
    db,
    databaseUrl: config.DATABASE_URL,
    logger,
    owner: instanceId,
    send: instrumentCallbacks(postCallback, registry, db),
    timeoutMs: config.NOTIFY_TIMEOUT_MS,
    allowPrivate: config.NOTIFY_ALLOW_PRIVATE,
    retryScheduleMs: config.retryScheduleMs,
    concurrency: config.NOTIFY_CONCURRENCY,
    endpointConcurrency: config.NOTIFY_ENDPOINT_CONCURRENCY,
    leaseMarginMs: config.NOTIFY_LEASE_MARGIN_MS,
    pollMs: config.NOTIFY_POLL_MS,
  });

  const nc = await connectNats(config.NATS_URL, { name: 'notifier', logger });
  await ensureStream(nc, { name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const consumer = startEventConsumer({
    nc,
    logger,
    stream: config.EVENTS_STREAM,
    durable: config.NOTIFIER_CONSUMER,
    filterSubject: `${config.EVENTS_SUBJECT_PREFIX}.>`,
    concurrency: config.NOTIFIER_CONSUME_CONCURRENCY,
    batchSize: config.NOTIFIER_CONSUME_BATCH,
    ackWaitMs: config.NOTIFIER_ACK_WAIT_MS,
    handle: orderStatusChangedHandler({ db, signer, timeZone: config.API_TIME_ZONE, logger }),
  });

  const http = createHttpServer(logger);
  http.get('/healthz', async () => ({ status: 'ok' }));
  addMetricsRoute(http, registry);
  registerAdminApi(http, { db, logger, adminToken: config.ADMIN_TOKEN, kick: worker.kick });
  await http.listen({ host: config.HOST, port: config.NOTIFIER_PORT });
  const httpPort = boundPort(http);
  logger.info({ httpPort, instanceId }, 'notifier listening');

  return {
    httpPort,
    instanceId,
    async stop() {
      await http.close();
      // Stop taking events first (what is being recorded commits and is acked), then let callbacks in
      // flight finish (each bounded by NOTIFY_TIMEOUT_MS) and release the leases; then NATS, then Postgres.
      await consumer.stop();
      await worker.stop();
      await nc.drain();
      await db.destroy();
      await tracing.shutdown();
      logger.info('notifier stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('notifier', main);
