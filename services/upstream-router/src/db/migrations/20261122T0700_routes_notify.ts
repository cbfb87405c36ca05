import { type Kysely, sql } from 'kysely';
import { ROUTES_CHANNEL } from '../channels.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function routes_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(ROUTES_CHANNEL)}, '');
      return null;
    end $$`.execute(db);
  for (const table of ['routes', 'route_merchants'])
    await sql`create trigger ${sql.id(`${table}_notify`)} after insert or update or delete or truncate on ${sql.table(table)}
              for each statement execute function routes_notify()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['routes', 'route_merchants'])
    await sql`drop trigger if exists ${sql.id(`${table}_notify`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists routes_notify()`.execute(db);
}
