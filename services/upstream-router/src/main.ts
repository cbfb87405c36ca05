import { isEntryPoint, parseConfig, runService } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { routerEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { SANDBOX_CODE_MAP } from './options/catalog.js';
import { createOptionsService } from './options/options.service.js';
import { routerHandlers } from './router.grpc.js';
import { seedRouteOnce } from './routes/route.repository.js';

export interface Router {
  grpcPort: number;
  stop(): Promise<void>;
}

/** Composition root of the upstream router. */
export async function main(env: NodeJS.ProcessEnv): Promise<Router> {
  const config = parseConfig(routerEnv, env);
  const logger = createLogger({ service: 'upstream-router', level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb<Database>(config.DATABASE_URL, { applicationName: 'upstream-router' });
  await migrateToLatest(db, migrations, logger);

  // CONTRACT.md section 11: a fresh stack has one enabled sandbox route open to every merchant.
  const seeded = await seedRouteOnce(db, {
    id: 'sandbox-default',
    name: 'Sandbox',
    adapter: 'sandbox',
    config: { baseUrl: config.SANDBOX_URL, noticeUrl: `${config.PUBLIC_NOTICE_URL}/notices/sandbox-default` },
    credentialsRef: '',
    enabled: true,
    methods: ['mex_virtual_account'],
    payeeTypes: ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'],
    priority: 100,
    weight: 100,
    merchantScope: 'all',
    codeMap: SANDBOX_CODE_MAP,
  });
  if (seeded) logger.info('seeded the default sandbox route');

  const protos = loadProtos();
  const grpcServer = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    services: [
      [
        protos.agentpay.router.v1.UpstreamRouter.service,
        routerHandlers({ logger, options: createOptionsService(db) }),
      ],
    ],
  });
  grpcServer.setServing(true);
  logger.info({ grpcPort: grpcServer.port }, 'upstream-router listening');

  return {
    grpcPort: grpcServer.port,
    async stop() {
      await grpcServer.stop();
      await db.destroy();
      logger.info('upstream-router stopped');
    },
  };
}

if (isEntryPoint(import.meta.url)) runService('upstream-router', main);
