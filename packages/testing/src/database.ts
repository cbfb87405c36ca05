import { randomBytes } from 'node:crypto';
import { createDb, migrateToLatest } from '@agentpay/db';
import type { Kysely, Migration } from 'kysely';
import pg from 'pg';
import { postgresUrl } from './services.js';

/** Postgres truncates longer identifiers, which would make two test databases collide. */
const MAX_IDENTIFIER = 63;

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** Its name, `t_<label>_<random>`. */
  name: string;
  /** Terminates its connections and drops it; safe to call twice. */
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server, named after `label` (use one per test file). */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const server = await postgresUrl();
  const name = testDatabaseName(label);
  await onMaintenance(server, (client) => client.query(`create database ${client.escapeIdentifier(name)}`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      // `with (force)` ends sessions a test forgot to close (pools, LISTEN clients) instead of failing.
      await onMaintenance(server, (client) =>
        client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`),
      );
    },
  };
}

export interface MigratedTestDatabase<DB> {
  /** A pool on the new database, its migrations applied. */
  db: Kysely<DB>;
  /** Closes the pool and drops the database; safe to call twice. */
  drop(): Promise<void>;
}

/** A fresh database (as `createTestDatabase`) with `migrations` applied and a pool on it. */
export async function migratedTestDatabase<DB>(
  label: string,
  migrations: Record<string, Migration>,
): Promise<MigratedTestDatabase<DB>> {
  const database = await createTestDatabase(label);
  const db = createDb<DB>(database.url);
  await migrateToLatest(db, migrations);
  let closed: Promise<void> | undefined;
  return {
    db,
    drop: () => {
      closed ??= db.destroy().then(database.drop);
      return closed;
    },
  };
}

/** `t_<label>_<random>`, lowercase, at most 63 characters. */
export function testDatabaseName(label: string): string {
  const suffix = randomBytes(5).toString('hex');
  const room = MAX_IDENTIFIER - 't_'.length - '_'.length - suffix.length;
  const clean = label
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, room);
  return `t_${clean}_${suffix}`;
}

/** Runs `fn` on the server's `postgres` database, which always exists, whatever the URL names. */
async function onMaintenance(server: string, fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const url = new URL(server);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
