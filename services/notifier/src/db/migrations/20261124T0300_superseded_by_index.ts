import { type Kysely, sql } from 'kysely';

// `superseded_by` references deliveries(id), and Postgres checks that reference on every delete of a
// delivery by looking for rows that point at it: without an index that is a scan of the whole table per
// deleted row (measured by the growth bench, docs/benchmarks.md "Growth": about a second each on 5 million
// deliveries). Nothing deletes deliveries yet; a retention rule for them would. Only superseded rows point
// anywhere, so the index holds those alone. On a large existing table, build it beforehand with
// CREATE INDEX CONCURRENTLY under the same name: this migration then finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists deliveries_superseded_by_idx on deliveries (superseded_by)
    where superseded_by is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_superseded_by_idx`.execute(db);
}
