import { parseConfig, z } from '@agentpay/config';
import { migrateDatabase } from '@agentpay/db';
import type { Migration } from 'kysely';

/**
 * A service's migrate-only entry (`dist/migrate.js` in its image, run before a rollout). It reads only
 * DATABASE_URL and LOG_LEVEL from the service's own schema, so it needs no secret beyond the database URL
 * even where `NODE_ENV=production` makes the full schema demand them.
 */
export function migrateEntry(opts: {
  service: string;
  schema: z.ZodType;
  migrations: Record<string, Migration>;
}): (env: NodeJS.ProcessEnv) => Promise<void> {
  const shape = objectOf(opts.schema);
  const migrateEnv = shape.pick({ DATABASE_URL: true, LOG_LEVEL: true }) as unknown as z.ZodType<{
    DATABASE_URL: string;
    LOG_LEVEL: string;
  }>;
  return async (env) => {
    const config = parseConfig(migrateEnv, env);
    await migrateDatabase({
      service: opts.service,
      url: config.DATABASE_URL,
      logLevel: config.LOG_LEVEL,
      migrations: opts.migrations,
    });
  };
}

/** The plain object schema under a service schema's checks and transforms. */
function objectOf(schema: z.ZodType): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodPipe) return objectOf(schema.in as z.ZodType);
  throw new Error('a service config schema is a z.object, optionally piped through a transform');
}
