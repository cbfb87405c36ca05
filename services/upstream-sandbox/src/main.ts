import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { boundPort, createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { sandboxEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';

export interface Sandbox {
  port: number;
  stop(): Promise<void>;
}

/** Composition root of the sandbox upstream channel: a separate process with its own store. */
export async function main(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  const config = parseConfig(sandboxEnv, env);
  const logger = createLogger({ service: 'upstream-sandbox', level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, { applicationName: 'upstream-sandbox' });
  await migrateToLatest(db, migrations, logger);

  const http = createHttpServer(logger);
  http.get('/healthz', async () => ({ status: 'ok' }));
  await http.listen({ host: config.HOST, port: config.SANDBOX_PORT });
  const port = boundPort(http);
  logger.info({ port }, 'upstream-sandbox listening');

  return {
    port,
    async stop() {
      await http.close();
      await db.destroy();
      logger.info('upstream-sandbox stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('upstream-sandbox', main);
