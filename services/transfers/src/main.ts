import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { connectNats, ensureStream, startOutboxRelay } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { transfersEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { transferHandlers } from './transfers.grpc.js';

export interface Transfers {
  grpcPort: number;
  stop(): Promise<void>;
}

/** Composition root of the transfers service. */
export async function main(env: NodeJS.ProcessEnv): Promise<Transfers> {
  const config = parseConfig(transfersEnv, env);
  const logger = createLogger({ service: 'transfers', level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, { applicationName: 'transfers' });
  await migrateToLatest(db, migrations, logger);

  const nc = await connectNats(config.NATS_URL, { name: 'transfers', logger });
  await ensureStream(nc, { name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const relay = startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger });

  const protos = loadProtos();
  const grpcServer = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    services: [[protos.agentpay.transfers.v1.TransferService.service, transferHandlers({ logger })]],
  });
  grpcServer.setServing(true);
  logger.info({ grpcPort: grpcServer.port }, 'transfers listening');

  return {
    grpcPort: grpcServer.port,
    async stop() {
      await grpcServer.stop();
      await relay.stop();
      await nc.drain();
      await db.destroy();
      logger.info('transfers stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('transfers', main);
