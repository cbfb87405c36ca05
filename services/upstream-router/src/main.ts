import { isEntryPoint, runService } from '@agentpay/config';
import { listen } from '@agentpay/db';
import { boundPort, startOpsServer } from '@agentpay/http';
import { startOutboxRelay } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { bootstrapService } from '@agentpay/service';
import { Gauge } from '@agentpay/telemetry';
import { registerClabePoolGauge } from './accounts/clabe-pool.metrics.js';
import { createVirtualAccountService } from './accounts/virtual-account.service.js';
import { createAdapters } from './adapters/registry.js';
import { connectCompliance } from './compliance/compliance.client.js';
import { routerEnv } from './config.js';
import { ROUTES_CHANNEL } from './db/channels.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { createChannelFactsHandler } from './facts/channel-facts.grpc.js';
import { createChannelFacts } from './facts/channel-facts.service.js';
import { createNoticeServer } from './notices/notice.http.js';
import { createNoticeService } from './notices/notice.service.js';
import { createOptionsService } from './options/options.service.js';
import { createPayoutService } from './payout/payout.service.js';
import { routerRetentionRules } from './retention/retention.js';
import { createRouterHandlers } from './router.grpc.js';
import { createChannels } from './routes/channels.js';
import { findRoute } from './routes/route.repository.js';
import { createRouteAdminHandlers } from './routes/route-admin.grpc.js';
import { createRouteAdminService } from './routes/route-admin.service.js';
import { createRouteFiguresHandler } from './routes/route-figures.grpc.js';
import { createRouteFigures } from './routes/route-figures.service.js';
import { createSecretResolver } from './routes/secrets.js';
import { seedRoutes } from './routes/seed-routes.js';
import { createBreakers } from './routing/circuit-breaker.js';
import { createRouteSelector } from './routing/route-selector.js';
import { createStatementLookups } from './statements/statement-lookups.js';

export interface Router {
  grpcPort: number;
  noticePort: number;
  metricsPort: number;
  stop(): Promise<void>;
}

/** Composition root of the upstream router. */
export async function main(env: NodeJS.ProcessEnv): Promise<Router> {
  // Notices continue the channel's trace (or start one) onto the NoticeReceived events they cause.
  const svc = await bootstrapService({ name: 'upstream-router', schema: routerEnv, env });
  const { config, logger, registry } = svc;
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations);

    // A fresh stack's routes (services/gateway/README.md; docs/sandbox-guide.md "The STP emulator").
    for (const id of await seedRoutes(db, config)) logger.info({ routeId: id }, 'seeded a route');

    const adapters = createAdapters({ timeoutMs: config.UPSTREAM_TIMEOUT_MS });
    const secret = createSecretResolver(env, config.production);
    const channels = createChannels(adapters, secret);
    // Per replica: each judges routes by its own calls (README "Circuit breaker").
    const breakers = createBreakers({
      failureThreshold: config.ROUTE_BREAKER_FAILURES,
      windowMs: config.ROUTE_BREAKER_WINDOW_MS,
      coolDownMs: config.ROUTE_BREAKER_COOLDOWN_MS,
    });
    const selector = createRouteSelector(db, { breakers, logger });
    // Other replicas' route changes reach this one's cache as a NOTIFY (and a reconnect drops it too).
    svc.own(
      'routes listener',
      listen(config.DATABASE_URL, ROUTES_CHANNEL, logger, () => selector.invalidate()),
      (l) => l.close(),
    );

    // Route health as operators see it: one series per route and breaker state, 1 for the current one.
    new Gauge({
      name: 'route_breaker_state',
      help: 'Circuit breaker state of each route on this replica (1 = current state); enabled=false routes take no traffic',
      labelNames: ['route', 'state', 'enabled'],
      registers: [registry],
      async collect() {
        this.reset();
        const routes = await db.selectFrom('routes').select(['id', 'enabled']).execute();
        for (const route of routes) {
          const { state } = breakers.snapshot(route.id);
          this.set({ route: route.id, state, enabled: String(route.enabled) }, 1);
        }
      },
    });
    new Gauge({
      name: 'route_upstream_failures',
      help: 'Unavailable answers of each route seen by this replica since it started',
      labelNames: ['route'],
      registers: [registry],
      async collect() {
        this.reset();
        const routes = await db.selectFrom('routes').select('id').execute();
        for (const route of routes) this.set({ route: route.id }, breakers.snapshot(route.id).failuresTotal);
      },
    });

    registerClabePoolGauge({ db, adapters, registry, logger, quarantineDays: config.CLABE_QUARANTINE_DAYS });

    const nc = await svc.events();
    svc.own(
      'outbox relay',
      startOutboxRelay({ db, databaseUrl: config.DATABASE_URL, nc, logger, registry }),
      (r) => r.stop(),
    );

    // Published outbox rows and old notices go in bounded batches; routes are kept (docs/deploy.md).
    svc.retention(
      db,
      routerRetentionRules({
        outboxDays: config.OUTBOX_RETENTION_DAYS,
        noticeDays: config.NOTICE_RETENTION_DAYS,
        quarantineDays: config.CLABE_QUARANTINE_DAYS,
      }),
    );

    const protos = loadProtos();
    const payers = svc.own(
      'compliance client',
      connectCompliance(config.COMPLIANCE_ADDR, config.COMPLIANCE_TIMEOUT_MS),
      (c) => c.close(),
    );
    const notices = createNoticeService({
      db,
      channels,
      logger,
      registry,
      subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
      payers,
    });
    const noticeServer = createNoticeServer({ notices, logger, trustedProxies: config.TRUSTED_PROXIES });

    const grpcServer = svc.own(
      'gRPC server',
      await startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        name: 'upstream-router',
        registry,
        services: [
          [
            protos.agentpay.router.v1.UpstreamRouter.service,
            {
              ...createChannelFactsHandler({ logger, facts: createChannelFacts({ db }) }),
              ...createRouterHandlers({
                logger,
                options: createOptionsService(db),
                virtualAccounts: createVirtualAccountService({
                  db,
                  selector,
                  channels,
                  breakers,
                  logger,
                  quarantineDays: config.CLABE_QUARANTINE_DAYS,
                }),
                payouts: createPayoutService({ db, selector, channels, breakers, logger }),
                statements: {
                  findRoute: (id) => findRoute(db, id),
                  channels,
                  lookups: (routeId) => createStatementLookups(db, routeId),
                },
              }),
            },
          ],
          [
            protos.agentpay.router.v1.RouteAdmin.service,
            {
              ...createRouteAdminHandlers({
                logger,
                routes: createRouteAdminService({
                  db,
                  adapters,
                  secret,
                  breakers,
                  logger,
                  publicNoticeUrl: config.PUBLIC_NOTICE_URL,
                  onChange: () => selector.invalidate(),
                }),
              }),
              ...createRouteFiguresHandler({
                figures: createRouteFigures({ db, timeZone: config.API_TIME_ZONE }),
                logger,
              }),
            },
          ],
        ],
      }),
      (g) => g.stop(),
    );
    svc.own('notice server', noticeServer, (n) => n.close());
    await noticeServer.listen({ host: config.HOST, port: config.NOTICE_PORT });
    grpcServer.setServing(true);
    const noticePort = boundPort(noticeServer);
    // Metrics on a port of their own: the notice port, which STP reaches through the Ingress, serves notices.
    const ops = svc.own(
      'ops server',
      await startOpsServer({ logger, host: config.HOST, port: config.METRICS_PORT, metrics: registry }),
      (o) => o.close(),
    );
    const metricsPort = boundPort(ops);
    logger.info({ grpcPort: grpcServer.port, noticePort, metricsPort }, 'upstream-router listening');

    return { grpcPort: grpcServer.port, noticePort, metricsPort, stop: svc.stop };
  });
}

if (isEntryPoint(import.meta.url)) runService('upstream-router', main);
