import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { boundPort } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { CLIENT_OPTIONS, checkGrpcHealth, loadProtos } from '@agentpay/proto';
import { createRegistry, installTracing, requestMetrics } from '@agentpay/telemetry';
import { createEnvelopeSigner, loadPlatformKey } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { sql } from 'kysely';
import { buildAdminApi } from './admin/admin-api.js';
import { registerRoutesAdmin } from './admin/routes-admin.js';
import { gatewayEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { buildMerchantApi } from './merchant-api/merchant-api.js';
import { merchantRoutes } from './merchant-api/routes.js';
import { admitRequest, purgeExpiredNonces, purgeRateWindows } from './merchants/admission.repository.js';
import { createMerchantService } from './merchants/merchant.service.js';

export interface Gateway {
  merchantPort: number;
  adminPort: number;
  platformPublicKeyPem: string;
  stop(): Promise<void>;
}

/** Composition root: config, database, platform key, gRPC clients, the two HTTP servers. */
export async function main(env: NodeJS.ProcessEnv): Promise<Gateway> {
  const config = parseConfig(gatewayEnv, env);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const tracing = installTracing({
    service: 'gateway',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  });
  const registry = createRegistry('gateway');

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, {
    applicationName: 'gateway',
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(db, migrations, logger);

  const platformKey = loadPlatformKey({
    pem: config.PLATFORM_PRIVATE_KEY,
    file: config.PLATFORM_PRIVATE_KEY_FILE,
    production: config.production,
  });
  const signer = createEnvelopeSigner({ privateKey: platformKey.privateKey, timeZone: config.API_TIME_ZONE });

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

  // Nonces and rate counters are written on every request. Losing the last fraction of a second of them in a
  // Postgres crash only reopens replay for those nonces (creates stay idempotent on bizOrderNo), so they
  // skip the WAL flush that every other write here waits for.
  const requestDb = createDb<Database>(config.DATABASE_URL, {
    applicationName: 'gateway-requests',
    synchronousCommit: false,
    logger,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  const merchants = createMerchantService(db, { cacheMs: config.MERCHANT_CACHE_MS });

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
    const [database, paymentsOk, transfersOk, routerOk, notifier] = await Promise.all([
      sql`select 1`.execute(db).then(
        () => true,
        () => false,
      ),
      checkGrpcHealth(config.PAYMENTS_ADDR),
      checkGrpcHealth(config.TRANSFERS_ADDR),
      checkGrpcHealth(config.ROUTER_ADDR),
      fetch(`${config.NOTIFIER_URL}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.ok,
        () => false,
      ),
    ]);
    const checks = {
      database,
      payments: paymentsOk,
      transfers: transfersOk,
      upstreamRouter: routerOk,
      notifier,
    };
    return { ok: Object.values(checks).every(Boolean), checks };
  }

  const merchantApi = buildMerchantApi({
    logger,
    signer,
    merchants,
    routes: merchantRoutes({
      payments,
      transfers,
      router,
      timeZone: config.API_TIME_ZONE,
      grpcTimeoutMs: config.GRPC_TIMEOUT_MS,
    }),
    admit: (request) => admitRequest(requestDb, { ...request, nonceTtlSeconds: config.NONCE_TTL_S }),
    defaultRateLimitPerS: config.RATE_LIMIT_PER_S,
    health,
    timeZone: config.API_TIME_ZONE,
    reqTimeWindowS: config.REQ_TIME_WINDOW_S,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    metrics: requestMetrics(registry, 'http_server', ['route']),
  });
  const adminApi = buildAdminApi({
    logger,
    adminToken: config.ADMIN_TOKEN,
    platformPublicKeyPem: platformKey.publicKeyPem,
    merchants,
    registry,
    extend: (app) =>
      registerRoutesAdmin(app, {
        client: routeAdmin,
        merchants,
        timeoutMs: config.GRPC_TIMEOUT_MS,
      }),
  });

  await merchantApi.listen({ host: config.HOST, port: config.GATEWAY_PORT });
  await adminApi.listen({ host: config.HOST, port: config.ADMIN_PORT });
  const merchantPort = boundPort(merchantApi);
  const adminPort = boundPort(adminApi);
  logger.info({ merchantPort, adminPort }, 'gateway listening');

  const purge = setInterval(() => {
    purgeExpiredNonces(db).catch((err: unknown) => logger.warn({ err }, 'nonce purge failed'));
    purgeRateWindows(db).catch((err: unknown) => logger.warn({ err }, 'rate window purge failed'));
  }, 60_000);
  purge.unref();

  return {
    merchantPort,
    adminPort,
    platformPublicKeyPem: platformKey.publicKeyPem,
    async stop() {
      clearInterval(purge);
      // Fastify's close stops accepting, lets in-flight requests finish, then resolves.
      await Promise.all([merchantApi.close(), adminApi.close()]);
      for (const client of [payments, transfers, router, routeAdmin]) client.close();
      await requestDb.destroy();
      await db.destroy();
      await tracing.shutdown();
      logger.info('gateway stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('gateway', main);
