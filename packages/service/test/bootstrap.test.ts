import { baseEnv, DEFAULT_NATS_URL, eventsEnv, z } from '@agentpay/config';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName, waitFor } from '@agentpay/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Kysely, Migration } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapService } from '../src/bootstrap.js';
import { migrateEntry } from '../src/migrate-entry.js';

const schema = z
  .object({
    ...baseEnv,
    DATABASE_URL: z.string(),
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
  })
  .transform((env) => ({ ...env, production: env.NODE_ENV === 'production' }));

const migrations: Record<string, Migration> = {
  '0001_things': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('things')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute();
    },
  },
};

let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase('bootstrap');
  env = {
    DATABASE_URL: database.url,
    NATS_URL: await natsUrl(),
    LOG_LEVEL: 'silent',
    EVENTS_STREAM: uniqueName('BOOT'),
    EVENTS_SUBJECT_PREFIX: uniqueName('boot'),
  };
});
afterAll(async () => {
  await database.drop();
});

/** Waits until no backend of `name` is left: a closed pool's backends leave pg_stat_activity a moment later. */
async function allClosed(name: string): Promise<void> {
  await waitFor(async () => (await connectionsOf(name)) === 0, { message: `${name}'s connections to close` });
}

async function connectionsOf(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [name],
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('bootstrapService', () => {
  it('migrates the database, declares the events stream, and closes everything it opened in reverse', async () => {
    const svc = await bootstrapService({ name: 'boot-a', schema, env, tracing: false });
    const db = await svc.database<{ things: { id: number } }>(migrations);
    const nc = await svc.events();
    const order: string[] = [];
    svc.own('first', 1, () => order.push('first'));
    svc.own('second', 2, () => order.push('second'));

    await db.insertInto('things').values({ id: 1 }).execute();
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(env.EVENTS_STREAM!);
    expect(info.config.subjects).toEqual([`${env.EVENTS_SUBJECT_PREFIX}.>`]);
    expect(await connectionsOf('boot-a')).toBeGreaterThan(0);

    await svc.stop();
    expect(order).toEqual(['second', 'first']);
    expect(nc.isClosed()).toBe(true);
    await allClosed('boot-a');
    // stop() is idempotent: a signal during a failing start and the runner may both call it.
    await svc.stop();
  });

  it('closes what a failed start had opened and rethrows its error', async () => {
    const svc = await bootstrapService({ name: 'boot-b', schema, env, tracing: false });
    let closed = false;
    const failure = svc.run(async () => {
      await svc.database(migrations);
      svc.own('loop', {}, () => {
        closed = true;
      });
      throw new Error('port in use');
    });
    await expect(failure).rejects.toThrow('port in use');
    expect(closed).toBe(true);
    await allClosed('boot-b');
  });

  it('refuses a bad environment naming the variable', async () => {
    await expect(
      bootstrapService({ name: 'boot-c', schema, env: { ...env, LOG_LEVEL: 'loud' } }),
    ).rejects.toThrow(/LOG_LEVEL/);
  });
});

describe('migrateEntry', () => {
  it('migrates from DATABASE_URL alone, under the schema transform, and again as a no-op', async () => {
    const other = await createTestDatabase('migrate_entry');
    try {
      const migrate = migrateEntry({ service: 'boot', schema, migrations });
      await migrate({ DATABASE_URL: other.url, LOG_LEVEL: 'silent' });
      await migrate({ DATABASE_URL: other.url, LOG_LEVEL: 'silent' });
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      const { rows } = await client.query("select to_regclass('things') is not null as present");
      await client.end();
      expect(rows[0]?.present).toBe(true);
    } finally {
      await other.drop();
    }
  });
});
