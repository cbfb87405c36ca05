import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { boundPort, createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { createVirtualAccountService } from './accounts/virtual-account.service.js';
import { sandboxEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { registerChannelRoutes } from './http/channel.routes.js';
import { registerErrorHandling } from './http/errors.js';
import { registerTesterRoutes } from './http/tester.routes.js';
import { deliverDueNotices } from './notices/notice.delivery.js';
import { createPayoutService } from './payouts/payout.service.js';
import { startScheduler } from './worker/scheduler.js';

export interface Sandbox {
  port: number;
  stop(): Promise<void>;
}

/** Composition root of the sandbox upstream channel: a separate process with its own store. */
export async function main(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  const config = parseConfig(sandboxEnv, env);
  const logger = createLogger({ service: 'upstream-sandbox', level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, {
    applicationName: 'upstream-sandbox',
    logger,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(db, migrations, logger);

  const accounts = createVirtualAccountService(db, {
    bankPrefix: config.SANDBOX_BANK_PREFIX,
    plaza: config.SANDBOX_PLAZA,
    beneficiaryName: config.SANDBOX_BENEFICIARY_NAME,
  });
  const payouts = createPayoutService(db, { settleDelayMs: config.SANDBOX_SETTLE_DELAY_MS });

  // Settlements first, so a payout settled in this round has its notice sent in the same round.
  const scheduler = startScheduler({
    logger,
    pollMs: config.SANDBOX_POLL_MS,
    steps: {
      settle: () => payouts.settleDue(),
      notices: (signal) =>
        deliverDueNotices(
          db,
          logger,
          {
            secret: config.SANDBOX_NOTICE_SECRET,
            maxAttempts: config.SANDBOX_NOTICE_MAX_ATTEMPTS,
            backoffMs: config.SANDBOX_NOTICE_BACKOFF_MS,
            timeoutMs: config.SANDBOX_NOTICE_TIMEOUT_MS,
          },
          signal,
        ),
    },
  });

  const http = createHttpServer(logger);
  registerErrorHandling(http, logger);
  http.get('/healthz', async () => ({ status: 'ok' }));
  registerChannelRoutes(http, { apiKey: config.SANDBOX_API_KEY, accounts, payouts });
  registerTesterRoutes(http, { db, accounts, kick: scheduler.kick });
  try {
    await http.listen({ host: config.HOST, port: config.SANDBOX_PORT });
  } catch (err) {
    await scheduler.stop();
    await db.destroy();
    throw err;
  }
  const port = boundPort(http);
  logger.info({ port }, 'upstream-sandbox listening');

  return {
    port,
    async stop() {
      await http.close();
      await scheduler.stop();
      await db.destroy();
      logger.info('upstream-sandbox stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('upstream-sandbox', main);
