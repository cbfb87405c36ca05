import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { connectNats, ensureStream, startOutboxRelay } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { paymentsEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { paymentHandlers } from './payments.grpc.js';

export interface Payments {
  grpcPort: number;
  stop(): Promise<void>;
}

/** Composition root of the payments service. */
export async function main(env: NodeJS.ProcessEnv): Promise<Payments> {
  const config = parseConfig(paymentsEnv, env);
  const logger = createLogger({ service: 'payments', level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, { applicationName: 'payments' });
  await migrateToLatest(db, migrations, logger);

  const nc = await connectNats(config.NATS_URL, { name: 'payments', logger });
  await ensureStream(nc, { name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const relay = startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger });

  const protos = loadProtos();
  const grpcServer = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    services: [[protos.agentpay.payments.v1.PaymentService.service, paymentHandlers({ logger })]],
  });
  grpcServer.setServing(true);
  logger.info({ grpcPort: grpcServer.port }, 'payments listening');

  return {
    grpcPort: grpcServer.port,
    async stop() {
      await grpcServer.stop();
      await relay.stop();
      await nc.drain();
      await db.destroy();
      logger.info('payments stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('payments', main);
