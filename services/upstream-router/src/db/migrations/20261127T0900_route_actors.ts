import { type Kysely, sql } from 'kysely';

// Who created a route and who last changed it (the operator's label as the gateway passed it, never a
// free-text field), and the approval (four eyes) of the last change that had one. Seeded routes and
// routes from before this migration have none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('routes')
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('approval_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table routes drop column created_by, drop column updated_by, drop column approval_id`.execute(
    db,
  );
}
