import { isEntryPoint, parseConfig, runTask } from '@agentpay/config';
import { migrateDatabase } from '@agentpay/db';
import { gatewayEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/**
 * The migrate-only entry (`dist/migrate.js` in the image), run before a rollout. It reads only what a
 * migration needs from the service's own schema, so it needs no secrets beyond the database URL even where
 * `NODE_ENV=production` makes the full schema demand them.
 */
const migrateEnv = gatewayEnv.in.pick({ DATABASE_URL: true, LOG_LEVEL: true });

/** Creates the gateway database if missing and applies every pending migration (advisory-locked). */
export async function migrate(env: NodeJS.ProcessEnv): Promise<void> {
  const config = parseConfig(migrateEnv, env);
  await migrateDatabase({
    service: 'gateway',
    url: config.DATABASE_URL,
    logLevel: config.LOG_LEVEL,
    migrations,
  });
}

if (isEntryPoint(import.meta.url)) runTask('gateway migrate', migrate);
