import { isEntryPoint, runService } from '@agentpay/config';
import { boundPort, createHttpServer } from '@agentpay/http';
import { bootstrapService } from '@agentpay/service';
import { institutionByClabePrefix } from '@agentpay/spei';
import { createVirtualAccountService } from './accounts/virtual-account.service.js';
import { sandboxEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { registerChannelRoutes } from './http/channel.routes.js';
import { registerErrorHandling } from './http/errors.js';
import { registerTesterRoutes } from './http/tester.routes.js';
import { deliverDueNotices } from './notices/notice.delivery.js';
import { createPayoutService } from './payouts/payout.service.js';
import { sandboxRetentionRules } from './retention/retention.js';
import { createStatementService } from './statements/statement.service.js';
import { registerStpRoutes, registerStpTesterRoutes } from './stp/stp.routes.js';
import { createStpService } from './stp/stp.service.js';
import { createStpDepositService } from './stp/stp-deposit.service.js';
import { demoPublicKeyPem } from './stp/stp-signature.js';
import { deliverDueWebhooks } from './stp/stp-webhook.delivery.js';
import { startScheduler } from './worker/scheduler.js';

export interface Sandbox {
  port: number;
  stop(): Promise<void>;
}

/** Composition root of the sandbox upstream channel: a separate process with its own store. */
export async function main(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  // A stand-in for a channel outside the platform: no spans of its own.
  const svc = await bootstrapService({ name: 'upstream-sandbox', schema: sandboxEnv, env, tracing: false });
  const { config, logger } = svc;

  return svc.run(async () => {
    const db = await svc.database<Database>(migrations);
    const accounts = createVirtualAccountService(db, {
      bankPrefix: config.SANDBOX_BANK_PREFIX,
      plaza: config.SANDBOX_PLAZA,
      beneficiaryName: config.SANDBOX_BENEFICIARY_NAME,
    });
    const payouts = createPayoutService(db, {
      settleDelayMs: config.SANDBOX_SETTLE_DELAY_MS,
      senderBank: institutionByClabePrefix(config.SANDBOX_BANK_PREFIX)?.spei ?? '',
    });
    svc.retention(db, sandboxRetentionRules({ days: config.SANDBOX_RETENTION_DAYS }));

    // The STP face (README "The STP face"): STP's protocol over the same store and scheduler.
    const delivery = {
      maxAttempts: config.SANDBOX_NOTICE_MAX_ATTEMPTS,
      backoffMs: config.SANDBOX_NOTICE_BACKOFF_MS,
      timeoutMs: config.SANDBOX_NOTICE_TIMEOUT_MS,
    };
    const stp = createStpService(db, logger, {
      settleDelayMs: config.SANDBOX_SETTLE_DELAY_MS,
      pageSize: config.STP_EMULATOR_PAGE_SIZE,
      defaultCompany: {
        empresa: config.STP_EMULATOR_EMPRESA,
        publicKeyPem: config.STP_EMULATOR_PUBLIC_KEY ?? demoPublicKeyPem(),
        clabePrefix: config.STP_EMULATOR_CLABE_PREFIX,
        webhookBase: config.STP_EMULATOR_WEBHOOK_BASE,
      },
    });
    await stp.registerDefaultCompany();
    const stpDeposits = createStpDepositService(db, {
      beneficiaryName: config.SANDBOX_BENEFICIARY_NAME,
      delivery,
    });

    // Settlements first, so a payout settled in this round has its notice sent in the same round.
    const scheduler = svc.own(
      'scheduler',
      startScheduler({
        logger,
        pollMs: config.SANDBOX_POLL_MS,
        steps: {
          settle: () => payouts.settleDue(),
          stpSettle: () => stp.settleDue(),
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
          stpWebhooks: (signal) => deliverDueWebhooks(db, logger, delivery, signal),
        },
      }),
      (s) => s.stop(),
    );

    const http = svc.own('http', createHttpServer(logger), (h) => h.close());
    registerErrorHandling(http, logger);
    http.get('/healthz', async () => ({ status: 'ok' }));
    const statements = createStatementService(db, { pageSize: config.SANDBOX_STATEMENT_PAGE_SIZE });
    registerChannelRoutes(http, { apiKey: config.SANDBOX_API_KEY, accounts, payouts, statements });
    registerTesterRoutes(http, { db, accounts, stp: stpDeposits, kick: scheduler.kick });
    registerStpRoutes(http, { stp });
    registerStpTesterRoutes(http, { db, deposits: stpDeposits });
    await http.listen({ host: config.HOST, port: config.SANDBOX_PORT });
    const port = boundPort(http);
    logger.info({ port }, 'upstream-sandbox listening');
    return { port, stop: svc.stop };
  });
}

if (isEntryPoint(import.meta.url)) runService('upstream-sandbox', main);
