import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@agentpay/logger';
import { type Kysely, type Migration, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkPostgres,
  compiledOnce,
  createDb,
  DependencyUnavailableError,
  ensureDatabase,
  executePrepared,
  isUniqueViolation,
  MigrationError,
  migrateToLatest,
  redactUrl,
} from './index.js';

// @agentpay/testing depends on this package, so these tests make their own databases (with the code
// under test) on the server the root global setup found, instead of importing its fixtures.
const server = process.env.DATABASE_URL;
if (!server)
  throw new Error('DATABASE_URL is unset: run through the root vitest config, whose global setup sets it');

const created: string[] = [];

function freshDatabaseUrl(label: string): string {
  const name = `t_db_${label}_${randomBytes(5).toString('hex')}`;
  created.push(name);
  const url = new URL(server as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const databaseExists = (name: string) =>
  onServer(
    async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1,
  );

afterAll(async () => {
  await onServer(async (client) => {
    for (const name of created)
      await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  });
});

describe('ensureDatabase', () => {
  it('creates a missing database and leaves an existing one alone', async () => {
    const url = freshDatabaseUrl('ensure');
    const name = new URL(url).pathname.slice(1);
    expect(await databaseExists(name)).toBe(false);
    await ensureDatabase(url);
    expect(await databaseExists(name)).toBe(true);
    await ensureDatabase(url);
    expect(await databaseExists(name)).toBe(true);
  });

  it('lets several processes race to create the same database', async () => {
    const url = freshDatabaseUrl('race');
    await Promise.all(Array.from({ length: 6 }, () => ensureDatabase(url)));
    expect(await databaseExists(new URL(url).pathname.slice(1))).toBe(true);
  });
});

describe('createDb', () => {
  it('reads int8 as a number, numeric as a string and timestamptz as a Date', async () => {
    const db = createDb<Record<string, never>>(server);
    try {
      const row = await sql<{ cents: unknown; rate: unknown; at: unknown; count: unknown }>`
        select 12345678901::int8 as cents, 1.10::numeric as rate, now() as at, count(*) as count
        from generate_series(1, 3)`
        .execute(db)
        .then((r) => r.rows[0]);
      expect(row).toEqual({ cents: 12345678901, rate: '1.10', at: expect.any(Date), count: 3 });
    } finally {
      await db.destroy();
    }
  });

  it('refuses an int8 a JS number cannot hold exactly instead of rounding it', async () => {
    const db = createDb<Record<string, never>>(server);
    try {
      await expect(sql`select 9007199254740993::int8 as big`.execute(db)).rejects.toThrow(/does not fit/);
      // The pool is still usable afterwards.
      const ok = await sql<{ one: number }>`select 1::int8 as one`.execute(db);
      expect(ok.rows[0]?.one).toBe(1);
    } finally {
      await db.destroy();
    }
  });
  it('commits without waiting for the WAL flush only when asked to', async () => {
    const durable = createDb<Record<string, never>>(server);
    const relaxed = createDb<Record<string, never>>(server, { synchronousCommit: false });
    try {
      const show = (db: typeof durable) =>
        sql<{ synchronous_commit: string }>`show synchronous_commit`
          .execute(db)
          .then((r) => r.rows[0]?.synchronous_commit);
      expect(await show(durable)).toBe('on');
      expect(await show(relaxed)).toBe('off');
    } finally {
      await Promise.all([durable.destroy(), relaxed.destroy()]);
    }
  });
  it('runs without JIT compilation on every connection, whatever the server default', async () => {
    const db = createDb<Record<string, never>>(server, { synchronousCommit: false });
    try {
      const { rows } = await sql<{ jit: string }>`show jit`.execute(db);
      expect(rows[0]?.jit).toBe('off');
    } finally {
      await db.destroy();
    }
  });
});

describe('executePrepared', () => {
  interface ItemsDb {
    items: { id: string; amount: number };
  }

  async function withItems(
    options: { preparedStatements?: boolean },
    fn: (db: Kysely<ItemsDb>) => Promise<void>,
  ): Promise<void> {
    const url = freshDatabaseUrl('prepared');
    await ensureDatabase(url);
    // One connection, so the statement's session is the one the checks look at.
    const db = createDb<ItemsDb>(url, { poolSize: 1, ...options });
    try {
      await sql`create table items (id text primary key, amount int8 not null)`.execute(db);
      await fn(db);
    } finally {
      await db.destroy();
    }
  }

  const preparedOnConnection = async (db: Kysely<ItemsDb>) =>
    (
      await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements where starts_with(name, 'ap_')`.execute(db)
    ).rows;

  const insert = (db: Kysely<ItemsDb>, id: string) =>
    executePrepared(
      db,
      db
        .insertInto('items')
        .values({ id, amount: 100 })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning(['id', 'amount']),
    );

  it('parses a statement once per connection and runs it by name, results unchanged', async () => {
    await withItems({}, async (db) => {
      expect((await insert(db, 'a')).rows).toEqual([{ id: 'a', amount: 100 }]);
      expect((await insert(db, 'a')).rows).toEqual([]);
      expect((await insert(db, 'b')).rows).toEqual([{ id: 'b', amount: 100 }]);
      const prepared = await preparedOnConnection(db);
      expect(prepared).toHaveLength(1);
      expect(prepared[0]?.statement).toMatch(/^insert into "items"/);
      // Inside a transaction, on the same connection, it is the same statement.
      await db.transaction().execute(async (trx) => {
        expect((await insert(trx, 'c')).rows).toEqual([{ id: 'c', amount: 100 }]);
      });
      expect(await preparedOnConnection(db)).toHaveLength(1);
    });
  });

  it('keeps working after a migration adds a column to the table it reads', async () => {
    await withItems({}, async (db) => {
      const read = (id: string) =>
        executePrepared(db, db.selectFrom('items').select(['id', 'amount']).where('id', '=', id));
      await insert(db, 'a');
      expect((await read('a')).rows).toEqual([{ id: 'a', amount: 100 }]);
      await sql`alter table items add column note text`.execute(db);
      expect((await read('a')).rows).toEqual([{ id: 'a', amount: 100 }]);
      expect((await insert(db, 'b')).rows).toEqual([{ id: 'b', amount: 100 }]);
    });
  });

  it('refuses a statement that selects * instead of listing its columns', async () => {
    await withItems({}, async (db) => {
      expect(() => executePrepared(db, db.selectFrom('items').selectAll().where('id', '=', 'a'))).toThrow(
        /must list its columns/,
      );
      expect(() =>
        executePrepared(db, db.insertInto('items').values({ id: 'x', amount: 1 }).returningAll()),
      ).toThrow(/must list its columns/);
    });
  });

  it('runs unnamed when prepared statements are turned off', async () => {
    await withItems({ preparedStatements: false }, async (db) => {
      expect((await insert(db, 'a')).rows).toEqual([{ id: 'a', amount: 100 }]);
      expect(await preparedOnConnection(db)).toEqual([]);
    });
  });
});

describe('compiledOnce', () => {
  interface ItemsDb {
    items: { id: string; amount: number; note: string | null };
  }

  async function withItems(fn: (db: Kysely<ItemsDb>) => Promise<void>): Promise<void> {
    const url = freshDatabaseUrl('compiled');
    await ensureDatabase(url);
    const db = createDb<ItemsDb>(url, { poolSize: 1 });
    try {
      await sql`create table items (id text primary key, amount int8 not null, note text)`.execute(db);
      await fn(db);
    } finally {
      await db.destroy();
    }
  }

  const insert = compiledOnce<ItemsDb, { id: string; amount: number; note?: string }, unknown>((db, p) =>
    db
      .insertInto('items')
      .values({ id: p.id, amount: p.amount, note: p.note })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(['id', 'amount', 'note']),
  );
  // A constant of the build stays in place; the placeholders around it move with their values.
  const between = compiledOnce<ItemsDb, { low: number; high: number }, { id: string }>((db, p) =>
    db
      .selectFrom('items')
      .select(['id'])
      .where('amount', '>=', p.low)
      .where('id', '<>', 'skipped')
      .where('amount', '<=', p.high)
      .orderBy('id'),
  );

  it('runs each call with its own values, one prepared statement per text, in and out of transactions', async () => {
    await withItems(async (db) => {
      expect((await insert.run(db, { id: 'a', amount: 100, note: 'first' })).rows).toEqual([
        { id: 'a', amount: 100, note: 'first' },
      ]);
      expect((await insert.run(db, { id: 'a', amount: 5 })).rows).toEqual([]);
      await db.transaction().execute(async (trx) => {
        expect((await insert.run(trx, { id: 'b', amount: 250 })).rows).toEqual([
          { id: 'b', amount: 250, note: null },
        ]);
      });
      await insert.run(db, { id: 'skipped', amount: 150 });
      expect((await between.run(db, { low: 100, high: 200 })).rows).toEqual([{ id: 'a' }]);
      expect((await between.run(db, { low: 200, high: 300 })).rows).toEqual([{ id: 'b' }]);
      const prepared = await sql<{ statement: string }>`
        select statement from pg_prepared_statements where starts_with(name, 'ap_') order by statement`.execute(
        db,
      );
      expect(prepared.rows.map((r) => r.statement.split(' ')[0])).toEqual(['insert', 'select']);
    });
  });

  it('refuses a placeholder that decides the text instead of being a value', async () => {
    await withItems(async (db) => {
      const shaped = compiledOnce<ItemsDb, { withNote: boolean }, { id: string }>((db, p) =>
        db
          .selectFrom('items')
          .select(['id'])
          .$if(p.withNote, (qb) => qb.where('note', 'is not', null)),
      );
      await expect(shaped.run(db, { withNote: false })).rejects.toThrow(/withNote is not a parameter/);
    });
  });

  it('refuses a statement that selects *', async () => {
    await withItems(async (db) => {
      const all = compiledOnce<ItemsDb, { id: string }, unknown>((db, p) =>
        db.selectFrom('items').selectAll().where('id', '=', p.id),
      );
      await expect(async () => all.run(db, { id: 'a' })).rejects.toThrow(/must list its columns/);
    });
  });
});

function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    { service: 'db-test', level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { lines, logger };
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
const migration = (up: (db: Kysely<any>) => Promise<void>): Migration => ({ up });

const migrations: Record<string, Migration> = {
  '20260101T0000_runs': migration(async (db) => {
    await db.schema
      .createTable('runs')
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('runs').values({ name: 'first' }).execute();
  }),
  '20260102T0000_second': migration(async (db) => {
    await db.insertInto('runs').values({ name: 'second' }).execute();
  }),
};

describe('migrateToLatest', () => {
  it('applies pending migrations in name order once, and is a no-op the second time', async () => {
    const url = freshDatabaseUrl('migrate');
    await ensureDatabase(url);
    const db = createDb<{ runs: { name: string } }>(url);
    const { lines, logger } = logCollector();
    try {
      await migrateToLatest(db, migrations, logger);
      await migrateToLatest(db, migrations, logger);
      expect(await db.selectFrom('runs').select('name').execute()).toEqual([
        { name: 'first' },
        { name: 'second' },
      ]);
      expect(lines.filter((l) => l.msg === 'applied migration').map((l) => l.migration)).toEqual(
        Object.keys(migrations),
      );
    } finally {
      await db.destroy();
    }
  });

  it('runs once when several replicas start at the same moment', async () => {
    const url = freshDatabaseUrl('replicas');
    await ensureDatabase(url);
    const replicas = Array.from({ length: 4 }, () =>
      createDb<{ runs: { name: string } }>(url, { poolSize: 2 }),
    );
    try {
      await Promise.all(replicas.map((db) => migrateToLatest(db, migrations)));
      const names = await replicas[0]!.selectFrom('runs').select('name').execute();
      expect(names).toEqual([{ name: 'first' }, { name: 'second' }]);
    } finally {
      await Promise.all(replicas.map((db) => db.destroy()));
    }
  });

  it('waits on the per-database advisory lock while another instance holds it', async () => {
    const url = freshDatabaseUrl('lock');
    await ensureDatabase(url);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query(
      `select pg_advisory_lock(hashtextextended('agentpay.migrate.' || current_database(), 0))`,
    );
    const db = createDb<{ runs: { name: string } }>(url);
    const { lines, logger } = logCollector();
    try {
      const running = migrateToLatest(db, migrations, logger);
      while (!lines.some((l) => String(l.msg).startsWith('another instance is migrating'))) await sleep(10);
      const tables = await sql<{
        n: number;
      }>`select count(*) as n from pg_tables where tablename = 'runs'`.execute(db);
      expect(tables.rows[0]?.n).toBe(0);
      await holder.query('select pg_advisory_unlock_all()');
      await running;
      expect(await db.selectFrom('runs').select('name').execute()).toHaveLength(2);
    } finally {
      await holder.end();
      await db.destroy();
    }
  });

  it('names the failing migration and applies none of the batch', async () => {
    const url = freshDatabaseUrl('failing');
    await ensureDatabase(url);
    const db = createDb<Record<string, never>>(url);
    try {
      const broken = {
        ...migrations,
        '20260103T0000_broken': migration(async (trx) => {
          await sql`select * from no_such_table`.execute(trx);
        }),
      };
      const error = await migrateToLatest(db, broken).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as MigrationError).migration).toBe('20260103T0000_broken');
      expect((error as Error).message).toMatch(/migration 20260103T0000_broken failed: .*no_such_table/);
      const tables = await sql<{
        n: number;
      }>`select count(*) as n from pg_tables where tablename = 'runs'`.execute(db);
      expect(tables.rows[0]?.n).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});

describe('checkPostgres', () => {
  it('passes for a running server, even when the named database does not exist yet', async () => {
    await checkPostgres(server);
    await checkPostgres(freshDatabaseUrl('absent'));
  });

  it('reports an unreachable server with host:port, a password-free URL and how to start Postgres', async () => {
    const error = await checkPostgres('postgres://app:hunter2@127.0.0.1:1/payments').catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(DependencyUnavailableError);
    const unavailable = error as DependencyUnavailableError;
    expect(unavailable.dependency).toBe('postgres');
    expect(unavailable.url).toBe('postgres://app@127.0.0.1:1/payments');
    expect(unavailable.message).toContain('Postgres is not reachable at 127.0.0.1:1');
    expect(unavailable.message).toContain(
      'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    );
    expect(unavailable.message).toContain('DATABASE_URL');
    expect(unavailable.message).not.toContain('hunter2');
    expect(unavailable.hint).toContain('pg_ctlcluster');
  });
});

describe('helpers', () => {
  it('redactUrl drops the password and keeps everything else', () => {
    expect(redactUrl('postgres://u:p%40ss@db:5432/x?sslmode=require')).toBe(
      'postgres://u@db:5432/x?sslmode=require',
    );
    expect(redactUrl('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
  });

  it('isUniqueViolation recognises 23505, optionally on one constraint', async () => {
    const url = freshDatabaseUrl('unique');
    await ensureDatabase(url);
    const db = createDb<{ t: { k: string } }>(url);
    try {
      await sql`create table t (k text constraint t_k_key unique)`.execute(db);
      await db.insertInto('t').values({ k: 'a' }).execute();
      const error = await db
        .insertInto('t')
        .values({ k: 'a' })
        .execute()
        .catch((err: unknown) => err);
      expect(isUniqueViolation(error)).toBe(true);
      expect(isUniqueViolation(error, 't_k_key')).toBe(true);
      expect(isUniqueViolation(error, 'other_key')).toBe(false);
      expect(isUniqueViolation(new Error('nope'))).toBe(false);
    } finally {
      await db.destroy();
    }
  });
});
