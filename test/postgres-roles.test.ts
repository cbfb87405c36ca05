/**
 * The Postgres roles of docs/deploy.md ("Postgres roles"), applied as written to the test server: the migrate
 * role creates and migrates a service's database, and the service's own role can then start (its migrations
 * found applied), read and write every table, use temporary tables, and change no schema.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb, ensureDatabase, migrateDatabase, migrateToLatest } from '@agentpay/db';
import { postgresUrl } from '@agentpay/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations as complianceMigrations } from '../services/compliance/src/db/migrations/index.js';
import { migrations } from '../services/payments/src/db/migrations/index.js';
import { REPO_ROOT } from './support/deploy-manifests.js';

/** The two SQL blocks of the section, comments and psql commands left out, split into statements. */
function documentedSql(): [string[], string[]] {
  const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
  const section = docs.slice(docs.indexOf('#### Postgres roles'), docs.indexOf('#### Connection budget'));
  const blocks = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) =>
    m[1]!
      .split('\n')
      .map((line) => line.replace(/--.*$/, '').trim())
      .filter((line) => line && !line.startsWith('\\'))
      .join(' ')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  expect(blocks).toHaveLength(2);
  return [blocks[0]!, blocks[1]!];
}

describe('the Postgres roles of docs/deploy.md', () => {
  const tag = `t${randomBytes(4).toString('hex')}`;
  const role = (name: string) => `${tag}_${name}`;
  const database = `agentpay_payments_${tag}`;
  const complianceDatabase = `agentpay_compliance_${tag}`;
  const password = randomBytes(12).toString('hex');
  let admin: pg.Client;
  let base: string;

  const urlAs = (user: string, db: string) => {
    const url = new URL(base);
    url.username = user;
    url.password = password;
    url.pathname = `/${db}`;
    return url.href;
  };

  beforeAll(async () => {
    base = await postgresUrl();
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
    const [roles] = documentedSql();
    for (const statement of roles) {
      await admin.query(
        statement.replace(/\bagentpay_(\w+)/g, (_, name: string) => role(name)).replace('…', password),
      );
    }
  });

  afterAll(async () => {
    if (!admin) return;
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`drop database if exists ${complianceDatabase} with (force)`);
    for (const name of [
      'migrate',
      'gateway',
      'payments',
      'transfers',
      'ledger',
      'compliance',
      'router',
      'notifier',
    ]) {
      await admin.query(`drop role if exists ${role(name)}`);
    }
    await admin.end();
  });

  it('lets the payments role run the service on a database the migrate role created and migrated', async () => {
    // The migrate role's first deploy creates the database (CREATEDB): it owns it.
    await ensureDatabase(urlAs(role('migrate'), database));
    // The grants, in the new database, as the administrator.
    const [, grants] = documentedSql();
    const inDb = new pg.Client({ connectionString: urlAs(new URL(base).username, database) });
    await inDb.connect();
    try {
      for (const statement of grants) {
        await inDb.query(
          statement
            .replace(/\bdatabase agentpay_payments\b/g, 'database :db')
            .replace(/\bagentpay_(\w+)/g, (_, name: string) => role(name))
            .replace(':db', database),
        );
      }
    } finally {
      await inDb.end();
    }
    // The migrate step, as the migrate role: the tables it creates get the default privileges.
    await migrateDatabase({
      service: 'payments',
      url: urlAs(role('migrate'), database),
      logLevel: 'silent',
      migrations,
    });

    // The service starts as its own role: the database exists, the migrations are found applied.
    const url = urlAs(role('payments'), database);
    await ensureDatabase(url);
    const db = createDb(url, { poolSize: 2 });
    try {
      await migrateToLatest(db, migrations);
      const tables = await sql<{ table_name: string; allowed: boolean }>`
        select table_name,
               has_table_privilege(current_user, quote_ident(table_name), 'select,insert,update,delete') as allowed
        from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
        db,
      );
      expect(tables.rows.length).toBeGreaterThan(3);
      expect(tables.rows.filter((t) => !t.allowed).map((t) => t.table_name)).toEqual([]);
      const owners = await sql<{ owner: string }>`
        select distinct tableowner as owner from pg_tables where schemaname = 'public'`.execute(db);
      expect(owners.rows.map((o) => o.owner)).toEqual([role('migrate')]);
      // Temporary tables, as the ledger's reconciliation uses them.
      await db.transaction().execute(async (trx) => {
        await sql`create temp table scratch (n int) on commit drop`.execute(trx);
        await sql`insert into scratch values (1)`.execute(trx);
      });
      // No DDL: not a table, not a change to one.
      await expect(sql`create table intruder (n int)`.execute(db)).rejects.toMatchObject({ code: '42501' });
      await expect(sql`drop table outbox`.execute(db)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await db.destroy();
    }
  });

  it('lets the migrate role create pg_trgm in the compliance database, and the compliance role screen with it', async () => {
    await ensureDatabase(urlAs(role('migrate'), complianceDatabase));
    // The documented grants, written for payments, applied to the compliance database and role.
    const [, grants] = documentedSql();
    const inDb = new pg.Client({ connectionString: urlAs(new URL(base).username, complianceDatabase) });
    await inDb.connect();
    try {
      for (const statement of grants) {
        await inDb.query(
          statement
            .replace(/\bdatabase agentpay_payments\b/g, 'database :db')
            .replace(/\bagentpay_payments\b/g, role('compliance'))
            .replace(/\bagentpay_(\w+)/g, (_, name: string) => role(name))
            .replace(':db', complianceDatabase),
        );
      }
    } finally {
      await inDb.end();
    }
    // The migrate step, as the migrate role (no superuser): its first migration creates the extension.
    await migrateDatabase({
      service: 'compliance',
      url: urlAs(role('migrate'), complianceDatabase),
      logLevel: 'silent',
      migrations: complianceMigrations,
    });

    const db = createDb(urlAs(role('compliance'), complianceDatabase), { poolSize: 2 });
    try {
      await migrateToLatest(db, complianceMigrations);
      const ext = await sql<{ owner: string }>`
        select r.rolname as owner from pg_extension e join pg_roles r on r.oid = e.extowner
        where e.extname = 'pg_trgm'`.execute(db);
      expect(ext.rows).toEqual([{ owner: role('migrate') }]);
      // Screening's operators, as the service's own role: similarity and the thresholded % match.
      const rows = await db.transaction().execute(async (trx) => {
        await sql`select set_config('pg_trgm.similarity_threshold', '0.5', true)`.execute(trx);
        return (
          await sql<{ close: boolean; far: boolean }>`
            select 'juan perez lopez' % 'juan peres lopez' as close, 'juan perez lopez' % 'maria gomez' as far`.execute(
            trx,
          )
        ).rows;
      });
      expect(rows).toEqual([{ close: true, far: false }]);
      // The privilege is computed in the select list: in WHERE, Postgres may test it before the schema filter,
      // on information_schema's own views that public's search path cannot name.
      const tables = await sql<{ table_name: string; allowed: boolean }>`
        select table_name,
               has_table_privilege(current_user, quote_ident(table_name), 'select,insert,update,delete') as allowed
        from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
        db,
      );
      expect(tables.rows.map((t) => t.table_name)).toContain('list_entries');
      expect(tables.rows.filter((t) => !t.allowed).map((t) => t.table_name)).toEqual([]);
      await expect(sql`create table intruder (n int)`.execute(db)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await db.destroy();
    }
  });
});
