import { isEntryPoint, runService } from '@agentpay/config';
import { createDb } from '@agentpay/db';
import { boundPort } from '@agentpay/http';
import { CLIENT_OPTIONS, checkGrpcHealth, loadProtos } from '@agentpay/proto';
import { bootstrapService } from '@agentpay/service';
import { Gauge, requestMetrics } from '@agentpay/telemetry';
import { createEnvelopeSigner, loadPlatformKey } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { sql } from 'kysely';
import { buildAdminApi } from './admin-api.js';
import {
  APPROVAL_TTL_MS,
  createApprovals,
  createFourEyes,
  createOperationRegistry,
  startApprovalSweep,
} from './approvals/index.js';
import { gatewayEnv } from './config.js';
import { registerDashboardApi } from './dashboard-api.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import {
  createAuditLog,
  createPeopleService,
  createSecretBox,
  peopleSecret,
  sessionCookieName,
} from './identity/index.js';
import {
  admitRequest,
  buildMerchantApi,
  cashierLinks,
  cashierSecret,
  createCashierIssuer,
  createCashierTokens,
  merchantRoutes,
  registerCashierRoutes,
} from './merchant-api/index.js';
import { addMerchantUpdateOperation, createMerchantService } from './merchants/index.js';
import { type ModulesDeps, registerAdminModules, registerDashboardModules } from './modules.js';
import { createTimelines } from './orders/index.js';
import { ADMIN_PERMISSIONS, DASHBOARD_PERMISSIONS } from './permissions.js';
import { gatewayRetentionRules } from './retention/retention.js';
import { createNotifierClient } from './shared/notifier-client.js';
import { registerWebApp } from './web-apps.js';

/** How long a timeline waits for each optional part (channel, ledger, callbacks) before naming it missing. */
const TIMELINE_PART_MS = 3_000;

export interface Gateway {
  merchantPort: number;
  adminPort: number;
  platformPublicKeyPem: string;
  stop(): Promise<void>;
}

/** Composition root: config, database, platform key, gRPC clients, the two HTTP servers. */
export async function main(env: NodeJS.ProcessEnv): Promise<Gateway> {
  const svc = await bootstrapService({ name: 'gateway', schema: gatewayEnv, env });
  const { config, logger, registry } = svc;
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations);

    const platformKey = loadPlatformKey({
      pem: config.PLATFORM_PRIVATE_KEY,
      file: config.PLATFORM_PRIVATE_KEY_FILE,
      production: config.production,
    });
    const signer = createEnvelopeSigner({
      privateKey: platformKey.privateKey,
      timeZone: config.API_TIME_ZONE,
    });

    const protos = loadProtos();
    const insecure = grpc.credentials.createInsecure();
    const payments = new protos.agentpay.payments.v1.PaymentService(
      config.PAYMENTS_ADDR,
      insecure,
      CLIENT_OPTIONS,
    );
    const transfers = new protos.agentpay.transfers.v1.TransferService(
      config.TRANSFERS_ADDR,
      insecure,
      CLIENT_OPTIONS,
    );
    const router = new protos.agentpay.router.v1.UpstreamRouter(config.ROUTER_ADDR, insecure, CLIENT_OPTIONS);
    const routeAdmin = new protos.agentpay.router.v1.RouteAdmin(config.ROUTER_ADDR, insecure, CLIENT_OPTIONS);
    const ledger = new protos.agentpay.ledger.v1.LedgerService(config.LEDGER_ADDR, insecure, CLIENT_OPTIONS);
    const compliance = new protos.agentpay.compliance.v1.ComplianceService(
      config.COMPLIANCE_ADDR,
      insecure,
      CLIENT_OPTIONS,
    );
    svc.own('gRPC clients', [payments, transfers, router, routeAdmin, ledger, compliance], (clients) => {
      for (const client of clients) client.close();
    });

    // Nonces and rate counters are written on every request. Losing the last fraction of a second of them in a
    // Postgres crash only reopens replay for those nonces (creates stay idempotent on bizOrderNo), so they
    // skip the WAL flush that every other write here waits for.
    const requestDb = svc.own(
      'request database',
      createDb<Database>(config.DATABASE_URL, {
        applicationName: 'gateway-requests',
        synchronousCommit: false,
        logger,
        preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      }),
      (d) => d.destroy(),
    );
    const merchants = createMerchantService(db, {
      cacheMs: config.MERCHANT_CACHE_MS,
      defaultLimits: config.defaultLimits,
    });
    const cashierTokens = createCashierTokens(cashierSecret(config.CASHIER_SECRET, platformKey.privateKey));
    const cashier = { links: cashierLinks(db), tokens: cashierTokens, publicBaseUrl: config.PUBLIC_BASE_URL };

    const dependencyUp = new Gauge({
      name: 'gateway_dependency_up',
      help: 'Whether a dependency answered the last readiness probe (1) or not (0); only notifier may be 0 while ready',
      labelNames: ['dependency'],
      registers: [registry],
    });
    let lastHealth:
      | { at: number; value: Promise<{ ok: boolean; checks: Record<string, boolean> }> }
      | undefined;
    const health = () => {
      // One probe per second at most, however often /healthz is hit.
      if (!lastHealth || Date.now() - lastHealth.at > 1_000) {
        lastHealth = { at: Date.now(), value: probe() };
      }
      return lastHealth.value;
    };
    async function probe() {
      const [database, paymentsOk, transfersOk, routerOk, ledgerOk, complianceOk, notifier] =
        await Promise.all([
          sql`select 1`.execute(db).then(
            () => true,
            () => false,
          ),
          checkGrpcHealth(config.PAYMENTS_ADDR),
          checkGrpcHealth(config.TRANSFERS_ADDR),
          checkGrpcHealth(config.ROUTER_ADDR),
          checkGrpcHealth(config.LEDGER_ADDR),
          checkGrpcHealth(config.COMPLIANCE_ADDR),
          fetch(`${config.NOTIFIER_URL}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
            (r) => r.ok,
            () => false,
          ),
        ]);
      // Ready when what a merchant request calls is: its database, payments, transfers, the router and the
      // ledger (balances), and compliance (every transfer create is screened). The notifier serves one admin feature (callback deliveries and resends): its
      // outage shows in gateway_dependency_up, never takes the pod out of the Ingress.
      const required = {
        database,
        payments: paymentsOk,
        transfers: transfersOk,
        upstreamRouter: routerOk,
        ledger: ledgerOk,
        compliance: complianceOk,
      };
      const checks = { ...required, notifier };
      for (const [dependency, up] of Object.entries(checks)) dependencyUp.set({ dependency }, up ? 1 : 0);
      return { ok: Object.values(required).every(Boolean), checks };
    }

    const merchantApi = buildMerchantApi({
      logger,
      signer,
      merchants,
      routes: merchantRoutes({
        payments,
        transfers,
        router,
        ledger,
        timeZone: config.API_TIME_ZONE,
        grpcTimeoutMs: config.GRPC_TIMEOUT_MS,
        cashier: createCashierIssuer(cashier),
      }),
      admit: (request) => admitRequest(requestDb, { ...request, nonceTtlSeconds: config.NONCE_TTL_S }),
      defaultRateLimitPerS: config.RATE_LIMIT_PER_S,
      health,
      timeZone: config.API_TIME_ZONE,
      reqTimeWindowS: config.REQ_TIME_WINDOW_S,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      // The listed proxies only, when listed; else TRUST_PROXY (true: any hop, false: the TCP peer).
      trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : config.TRUST_PROXY,
      metrics: requestMetrics(registry, 'http_server', ['route']),
    });
    // The payer's page (docs/merchant-api.md "Hosted payment page") shares the merchant port, outside the signed API.
    registerCashierRoutes(merchantApi, {
      ...cashier,
      payments,
      merchants,
      timeZone: config.API_TIME_ZONE,
      grpcTimeoutMs: config.GRPC_TIMEOUT_MS,
      ratePerMinute: config.CASHIER_RATE_LIMIT_PER_MIN,
      logger,
    });
    registerWebApp(merchantApi, { name: 'dashboard', logger });
    // People (services/gateway/README.md "People, roles and the audit log"): the console's and the
    // dashboard's sign-in, sessions and tokens, one audit log for both ports.
    const audit = createAuditLog(db);
    const people = createPeopleService({
      db,
      box: createSecretBox(peopleSecret(config.PEOPLE_SECRET_KEY, platformKey.privateKey)),
      issuer: 'AgentPay',
    });
    // An order's or transfer's timeline from the services owning each part, for both ports; a slow part
    // waits at most TIMELINE_PART_MS and is then named missing (services/gateway/README.md "Orders and transfers").
    // The one client of the notifier's admin API, for every module that shows callbacks.
    const notifier = createNotifierClient({
      url: config.NOTIFIER_URL,
      token: config.NOTIFIER_ADMIN_TOKEN,
      timeoutMs: config.GRPC_TIMEOUT_MS,
    });
    const timelines = createTimelines({
      payments,
      transfers,
      router,
      ledger,
      notifier,
      timeoutMs: config.GRPC_TIMEOUT_MS,
      partTimeoutMs: Math.min(config.GRPC_TIMEOUT_MS, TIMELINE_PART_MS),
    });
    // Four eyes (services/gateway/README.md "Four eyes"): the admin routes add the operations that may need a
    // second person; the authorisation hook hands such a request to fourEyes, and an approval executes it.
    const operations = createOperationRegistry();
    addMerchantUpdateOperation(operations, merchants);
    const approvals = createApprovals({
      db,
      operations,
      logger,
      audit,
      ttlMs: APPROVAL_TTL_MS,
      leaseMs: config.APPROVALS_LEASE_MS,
      sweepMs: config.APPROVALS_SWEEP_MS,
      afterApproved:
        config.APPROVALS_CRASH_POINT === 'after-approve'
          ? (approval) => {
              logger.warn({ approvalId: approval.id }, 'APPROVALS_CRASH_POINT: dying after the approval');
              process.kill(process.pid, 'SIGKILL');
            }
          : undefined,
    });
    // Every module's routes, registered in modules.ts behind each port's authorisation hook.
    const modules: ModulesDeps = {
      logger,
      db,
      production: config.production,
      timeoutMs: config.GRPC_TIMEOUT_MS,
      reconRunTimeoutMs: config.RECON_RUN_TIMEOUT_MS,
      timeZone: config.API_TIME_ZONE,
      consoleBaseUrl: config.CONSOLE_BASE_URL,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      platformPublicKeyPem: platformKey.publicKeyPem,
      consoleCookie: sessionCookieName('agentpay_console', config.production),
      dashboardCookie: sessionCookieName('agentpay_dashboard', config.production),
      payments,
      transfers,
      ledger,
      compliance,
      routeAdmin,
      people,
      audit,
      merchants,
      approvals,
      operations,
      timelines,
      notifier,
    };
    registerDashboardApi(merchantApi, {
      people,
      audit,
      logger,
      production: config.production,
      cookieName: modules.dashboardCookie,
      permissions: DASHBOARD_PERMISSIONS,
      register: (dash) => registerDashboardModules(dash, modules),
    });
    const adminApi = buildAdminApi({
      logger,
      adminToken: config.ADMIN_TOKEN,
      production: config.production,
      people,
      audit,
      cookieName: modules.consoleCookie,
      permissions: ADMIN_PERMISSIONS,
      registry,
      fourEyes: createFourEyes({ approvals, operations }),
      register: (app) => {
        registerWebApp(app, { name: 'console', logger });
        registerAdminModules(app, modules);
      },
    });

    // Expired nonces, past rate windows and the links of long-expired orders go in bounded batches; state
    // is in Postgres, so any replica may do it (docs/deploy.md "Retention").
    svc.retention(
      db,
      gatewayRetentionRules({
        rateWindowSeconds: config.RATE_WINDOW_RETENTION_S,
        cashierLinkDays: config.CASHIER_LINK_RETENTION_DAYS,
      }),
    );

    // Expiry, and approved requests a crash left unexecuted: one round at start, then every APPROVALS_SWEEP_MS.
    svc.own(
      'approvals sweep',
      startApprovalSweep(approvals, { logger, sweepMs: config.APPROVALS_SWEEP_MS }),
      (l) => l.stop(),
    );

    // Fastify's close stops accepting, lets in-flight requests finish, then resolves.
    svc.own('merchant API', merchantApi, (a) => a.close());
    svc.own('admin API', adminApi, (a) => a.close());
    await merchantApi.listen({ host: config.HOST, port: config.GATEWAY_PORT });
    await adminApi.listen({ host: config.HOST, port: config.ADMIN_PORT });
    const merchantPort = boundPort(merchantApi);
    const adminPort = boundPort(adminApi);
    logger.info({ merchantPort, adminPort }, 'gateway listening');

    return { merchantPort, adminPort, platformPublicKeyPem: platformKey.publicKeyPem, stop: svc.stop };
  });
}

if (isEntryPoint(import.meta.url)) runService('gateway', main);
