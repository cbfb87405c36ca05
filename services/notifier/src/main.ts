import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { boundPort, createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { connectNats, ensureStream } from '@agentpay/messaging';
import { loadPlatformKey } from '@agentpay/wire';
import { notifierEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';

export interface Notifier {
  httpPort: number;
  stop(): Promise<void>;
}

/** Composition root of the notifier. */
export async function main(env: NodeJS.ProcessEnv): Promise<Notifier> {
  const config = parseConfig(notifierEnv, env);
  const logger = createLogger({ service: 'notifier', level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, { applicationName: 'notifier' });
  await migrateToLatest(db, migrations, logger);
  loadPlatformKey({
    pem: config.PLATFORM_PRIVATE_KEY,
    file: config.PLATFORM_PRIVATE_KEY_FILE,
    production: config.production,
  });

  const nc = await connectNats(config.NATS_URL, { name: 'notifier', logger });
  await ensureStream(nc, { name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });

  const http = createHttpServer(logger);
  http.get('/healthz', async () => ({ status: 'ok' }));
  await http.listen({ host: config.HOST, port: config.NOTIFIER_PORT });
  const httpPort = boundPort(http);
  logger.info({ httpPort }, 'notifier listening');

  return {
    httpPort,
    async stop() {
      await http.close();
      await nc.drain();
      await db.destroy();
      logger.info('notifier stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('notifier', main);
