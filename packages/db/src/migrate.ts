import { createLogger, type Logger } from '@agentpay/logger';
import { type Kysely, type Migration, type MigrationResult, Migrator, sql } from 'kysely';
import { createDb, ensureDatabase } from './database.js';

/** One lock per database, so replicas of one service queue up while different services run in parallel. */
const LOCK_KEY = sql`hashtextextended('agentpay.migrate.' || current_database(), 0)`;

/** Thrown when a migration fails; `migration` names it when Kysely got as far as running one. */
export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    readonly migration: string | undefined,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(migration ? `migration ${migration} failed: ${reason}` : `migrations failed: ${reason}`, { cause });
  }
}

/**
 * Applies every pending migration under a Postgres advisory lock, so replicas starting at once are safe.
 * `migrations` maps names (sorted as strings, so timestamp them) to modules; no file-system scan, so bundles work.
 */
export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not today's types
  db: Kysely<any>,
  migrations: Record<string, Migration>,
  logger?: Logger,
): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  // The lock lives on its own pooled connection while the Migrator takes another one from the pool.
  await db.connection().execute(async (conn) => {
    const attempt = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(conn);
    if (!attempt.rows[0]?.locked) {
      logger?.info('another instance is migrating this database; waiting for it to finish');
      await sql`select pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    }
    let results: MigrationResult[] | undefined;
    try {
      const outcome = await migrator.migrateToLatest();
      results = outcome.results;
      if (outcome.error) {
        const failed = results?.find((r) => r.status === 'Error');
        throw new MigrationError(failed?.migrationName, outcome.error);
      }
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
    // Logged only after success: all pending migrations share one transaction, so a failure undoes them all.
    for (const result of results ?? []) {
      logger?.info({ migration: result.migrationName }, 'applied migration');
    }
  });
}

/**
 * The whole of a service's migrate-only entry: creates its database if missing and applies every pending
 * migration under the advisory lock, with a small pool of its own.
 */
export async function migrateDatabase(opts: {
  service: string;
  url: string;
  logLevel: string;
  migrations: Record<string, Migration>;
}): Promise<void> {
  const logger = createLogger({ service: opts.service, level: opts.logLevel }).child({ task: 'migrate' });
  await ensureDatabase(opts.url, logger);
  const db = createDb(opts.url, { applicationName: `${opts.service}-migrate`, poolSize: 2, logger });
  try {
    await migrateToLatest(db, opts.migrations, logger);
    logger.info({ migrations: Object.keys(opts.migrations).length }, 'database is at the latest migration');
  } finally {
    await db.destroy();
  }
}
