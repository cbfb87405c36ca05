import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isEntryPoint, runService } from '@agentpay/config';
import { addMetricsRoute, boundPort, createHttpServer } from '@agentpay/http';
import { statusChangedFilter } from '@agentpay/messaging';
import { bootstrapService } from '@agentpay/service';
import { createEnvelopeSigner, loadPlatformKey } from '@agentpay/wire';
import { registerAdminApi } from './admin/admin-api.js';
import { postCallback } from './callbacks/callback.client.js';
import { instrumentCallbacks, instrumentEndpointLimits } from './callbacks/callback.metrics.js';
import { notifierEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { startDeliveryWorker } from './deliveries/delivery.worker.js';
import { createEndpointLimits } from './deliveries/endpoint-limits.js';
import { startEventConsumer } from './events/event.consumer.js';
import { orderStatusChangedHandler } from './events/order-status-changed.handler.js';
import { notifierRetentionRules } from './retention/retention.js';

export interface Notifier {
  httpPort: number;
  /** This replica's name on leases and attempts. */
  instanceId: string;
  stop(): Promise<void>;
}

/** Composition root of the notifier: events in from JetStream, callbacks out from Postgres. */
export async function main(env: NodeJS.ProcessEnv): Promise<Notifier> {
  const svc = await bootstrapService({ name: 'notifier', schema: notifierEnv, env });
  const { config, logger, registry } = svc;
  const instanceId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  // Stopped in reverse: HTTP, then no more events taken (what is being recorded commits and is acked),
  // NATS, then callbacks in flight finish (each bounded by NOTIFY_TIMEOUT_MS) and leases are released,
  // then Postgres.
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations, { poolSize: 20 });
    const platformKey = loadPlatformKey({
      pem: config.PLATFORM_PRIVATE_KEY,
      file: config.PLATFORM_PRIVATE_KEY_FILE,
      production: config.production,
    });
    const signer = createEnvelopeSigner({
      privateKey: platformKey.privateKey,
      timeZone: config.API_TIME_ZONE,
    });
    if (config.production && config.NOTIFY_ALLOW_PRIVATE) {
      logger.warn('NOTIFY_ALLOW_PRIVATE is on in production: callbacks may reach internal addresses');
    }

    // Per replica and in memory: each replica learns how much every endpoint takes on its own.
    const endpointLimits = createEndpointLimits({
      initial: config.NOTIFY_ENDPOINT_INITIAL_LIMIT,
      max: config.NOTIFY_ENDPOINT_CONCURRENCY,
    });
    instrumentEndpointLimits(endpointLimits, registry);

    // Started before NATS: callbacks already due go out even while NATS is unreachable.
    const worker = svc.own(
      'delivery worker',
      startDeliveryWorker({
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
        endpointLimits,
        leaseMarginMs: config.NOTIFY_LEASE_MARGIN_MS,
        pollMs: config.NOTIFY_POLL_MS,
      }),
      (w) => w.stop(),
    );

    // Attempts of finished deliveries, then finished deliveries, go in bounded batches (docs/deploy.md).
    svc.retention(
      db,
      notifierRetentionRules({
        attemptDays: config.CALLBACK_ATTEMPT_RETENTION_DAYS,
        deliveryDays: config.CALLBACK_DELIVERY_RETENTION_DAYS,
      }),
    );

    const nc = await svc.events();
    svc.own(
      'event consumer',
      startEventConsumer({
        nc,
        logger,
        stream: config.EVENTS_STREAM,
        durable: config.NOTIFIER_CONSUMER,
        // Status changes only: notices and the ledger's events on the same stream are for other services.
        filterSubject: statusChangedFilter(config.EVENTS_SUBJECT_PREFIX),
        concurrency: config.NOTIFIER_CONSUME_CONCURRENCY,
        batchSize: config.NOTIFIER_CONSUME_BATCH,
        ackWaitMs: config.NOTIFIER_ACK_WAIT_MS,
        handle: orderStatusChangedHandler({ db, signer, timeZone: config.API_TIME_ZONE, logger }),
        registry,
      }),
      (c) => c.stop(),
    );

    const http = svc.own('http', createHttpServer(logger), (h) => h.close());
    http.get('/healthz', async () => ({ status: 'ok' }));
    addMetricsRoute(http, registry);
    registerAdminApi(http, { db, logger, adminToken: config.NOTIFIER_ADMIN_TOKEN, kick: worker.kick });
    await http.listen({ host: config.HOST, port: config.NOTIFIER_PORT });
    const httpPort = boundPort(http);
    logger.info({ httpPort, instanceId }, 'notifier listening');

    return { httpPort, instanceId, stop: svc.stop };
  });
}

if (isEntryPoint(import.meta.url)) runService('notifier', main);
