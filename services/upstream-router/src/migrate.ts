import { isEntryPoint, parseConfig } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { routerEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/**
 * The migrate-only entry (`dist/migrate.js` in the image), run by the Kubernetes migration Job before a
 * rollout. It reads only what a migration needs from the service's own schema, so the Job needs no secrets
 * beyond the database URL even where `NODE_ENV=production` makes the full schema demand them.
 */
const migrateEnv = routerEnv.in.pick({ DATABASE_URL: true, LOG_LEVEL: true });

/** Creates the upstream-router database if missing and applies every pending migration (advisory-locked). */
export async function migrate(env: NodeJS.ProcessEnv): Promise<void> {
  const config = parseConfig(migrateEnv, env);
  const logger = createLogger({ service: 'upstream-router', level: config.LOG_LEVEL }).child({
    task: 'migrate',
  });
  await ensureDatabase(config.DATABASE_URL, logger);
  const db = createDb(config.DATABASE_URL, {
    applicationName: 'upstream-router-migrate',
    poolSize: 2,
    logger,
  });
  try {
    await migrateToLatest(db, migrations, logger);
    logger.info({ migrations: Object.keys(migrations).length }, 'database is at the latest migration');
  } finally {
    await db.destroy();
  }
}

// Exits explicitly so a lingering handle can never keep a migration Job's pod running.
if (isEntryPoint(import.meta.url)) {
  migrate(process.env).then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`upstream-router migrate: ${err.message}\n`);
      process.exit(1);
    },
  );
}
